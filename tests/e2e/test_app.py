"""The whole app through its public surfaces: the fill_mask API, the page, the language switch."""

import pytest
from gradio_client.exceptions import AppError

from tests.e2e.helpers import save_screenshot


def test_fill_mask_api_returns_json_per_model_and_mask(client):
    out = client.predict("The capital of France is [MASK].", ["smollm2-instruct"], 5, "en", api_name="/fill_mask")
    methods = {r["method"] for r in out["results"]}
    assert methods == {"left-context", "whole-sentence"}
    for r in out["results"]:
        assert r["model_id"] == "HuggingFaceTB/SmolLM2-135M-Instruct"
        (mask,) = r["masks"]
        assert len(mask) == 5 and all(set(p) >= {"token", "probability"} for p in mask)
    whole = next(r for r in out["results"] if r["method"] == "whole-sentence")
    assert whole["masks"][0][0]["token"] == "Paris"


@pytest.mark.parametrize(
    "args, message",
    [
        (("no blank here", ["smollm2-instruct"], 5, "en"), "[MASK]"),
        (("", ["smollm2-instruct"], 5, "zh"), "请输入"),
        (("a [MASK]", ["../../secret-model"], 5, "en"), "Unknown model"),
        (("a [MASK]", ["smollm2-instruct"], 99, "en"), "top_k must be a whole number"),  # the checks' one wording
    ],
)
def test_bad_input_is_a_clean_api_error(client, args, message):
    with pytest.raises(AppError) as err:
        client.predict(*args, api_name="/fill_mask")
    assert message in str(err.value) and "Traceback" not in str(err.value)


def test_page_switches_language_and_fills_a_mask(page):
    page.goto(f"{page.app_url}?tab=fill_mask")  # the landing tab is Lessons
    page.get_by_role("tab", name="Fill-mask").wait_for(timeout=30_000)
    page.get_by_label("SmolLM2 135M Instruct (bundled) · Llama").check()  # offline the default is minilm-mlm alone
    page.get_by_label("中文").check()
    page.get_by_role("tab", name="完形填空").wait_for(timeout=10_000)
    page.get_by_role("button", name="填空").click()
    page.wait_for_selector(".js-plotly-plot .bars", timeout=180_000)
    assert "Paris" in page.locator(".js-plotly-plot").first.inner_text()
    save_screenshot(page, "fill_mask_zh")
    assert "仅左侧上下文" in page.locator(".js-plotly-plot").first.inner_text()
    page.get_by_label("English").check()
    page.get_by_role("tab", name="Fill-mask").wait_for(timeout=10_000)
    # the result already on the page is redrawn in the new language, not left in the old one
    page.wait_for_function(
        "() => document.querySelector('.js-plotly-plot').innerText.includes('left context only')", timeout=60_000
    )
    save_screenshot(page, "fill_mask")


def test_browser_language_is_followed(browser, app_url):
    context = browser.new_context(locale="zh-CN")
    page = context.new_page()
    page.goto(app_url)
    page.get_by_role("tab", name="完形填空").wait_for(timeout=30_000)
    context.close()


def test_share_link_restores_the_view(page):
    page.goto(f"{page.app_url}?tab=fill_mask&text=The+river+%5BMASK%5D+was+muddy.&top_k=3")
    box = page.get_by_label("Sentence with [MASK]")
    box.wait_for(timeout=30_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('textarea')].some(t => t.value.includes('river'))", timeout=30_000
    )


LONG = "The river bank was muddy after the rain. " * 500  # ~4,500 tokens: past every model's window
# ~630 tokens in ~2,900 characters: under the character caps, over MiniLM's 512-token window (the token check's turn)
MEDIUM = "The river bank was muddy after the rain. " * 70


@pytest.mark.parametrize(
    "endpoint, args, words",
    [
        ("/fill_mask", (LONG + "[MASK].", ["smollm2-instruct"], 5, "en"), "tokens long"),
        (
            "/polysemy",
            ("bank", "a | " + MEDIUM + "\nb | the bank lent money.", ["minilm"], True, "last", "mean", "pca", "2", "en"),
            "tokens long",
        ),
        # A prompt past SmolLM2's 2,048 positions is past the 5,000-character cap first.
        ("/next_token", (LONG, "smollm2-instruct", 0.8, 0, 1.0, None, "en"), "5000 characters"),
        ("/generate", (LONG, "smollm2-instruct", 0.8, 0, 1.0, 5, 1, 0, "en"), "5000 characters"),
        ("/attention", ("minilm", MEDIUM, "", 0, 0, 0, "en"), "at most 512"),
    ],
)
def test_too_long_input_is_a_clean_error_in_every_endpoint(client, endpoint, args, words):
    with pytest.raises(AppError) as err:
        client.predict(*args, api_name=endpoint)
    assert words in str(err.value) and "Traceback" not in str(err.value)


@pytest.mark.parametrize(
    "tab, button, english, chinese",
    [
        ("masking", "Mask it", "What happens to each token", "每个词元的命运"),
        ("attention", "Run", "key (attended to)", "键（被关注）"),
        ("polysemy", "Compare", "Where each sentence puts the word", "每个句子中该词向量的位置"),
        ("sampling", "Show next-token distribution", "Raw softmax", "原始 softmax"),
    ],
)
def test_a_result_on_screen_follows_the_language_switch(page, tab, button, english, chinese):
    page.goto(f"{page.app_url}?tab={tab}")
    page.get_by_role("button", name=button, exact=True).click()
    page.wait_for_function(
        f"() => [...document.querySelectorAll('.js-plotly-plot')].some(p => p.innerText.includes({english!r}))", timeout=120_000
    )
    page.get_by_label("中文").check()
    page.wait_for_function(
        f"() => [...document.querySelectorAll('.js-plotly-plot')].some(p => p.innerText.includes({chinese!r}))"
        f" && ![...document.querySelectorAll('.js-plotly-plot')].some(p => p.innerText.includes({english!r}))",
        timeout=60_000,
    )
