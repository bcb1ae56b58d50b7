"""The fill-mask tab in Chromium and through gradio_client: a share link round trip, tokens shown as written, clean errors."""

from __future__ import annotations

import json
import urllib.request

import gradio as gr
import pytest
from gradio_client.exceptions import AppError

from scripts.serve_app import free_port
from tests.e2e.helpers import TABLE_TEXT_JS, checkpoint
from tests.e2e.test_hints import BOXES, wait_for_result

E5_MLM = "multilingual-E5 small, first 6 layers + MLM head trained here"


def _table_with(page, word: str) -> str:
    page.wait_for_function(f"() => ({TABLE_TEXT_JS})().includes({word!r})", timeout=240_000)
    return page.evaluate(TABLE_TEXT_JS)


PLOT = "() => document.querySelector('#fill-mask-plot .js-plotly-plot')?.innerText || ''"


def test_a_non_default_link_restores_the_inputs_and_the_same_result(page, browser, app_url):
    """A fill-mask view made in Chinese, shared, and the result on screen following the language switch:

    1. English page; SmolLM2 alone, 中文, top_k 3, run: the table and the plot have "dog" (the top answer) and the
       plot names the left-context reading in Chinese (仅左侧上下文).
    2. The share button's link carries lang, top_k and the model.
    3. 中文 -> English on this page: the plot already drawn is redrawn in English ("left context only").
    4. The link in a fresh English-locale page runs its view: the same rows in the link's language, the sentence, 3
       and 中文 restored, a plot drawn, no hint left, and the downloads' button shown.
    """
    page.goto(f"{app_url}?tab=fill_mask")  # the landing tab is Lessons
    box = page.get_by_label("Sentence with [MASK]")
    box.fill("The [MASK] barked at the mailman.")
    # The causal model's whole-sentence reading finds "dog" (offline the default selection is minilm-mlm alone).
    page.get_by_label("SmolLM2 135M Instruct (bundled) · Llama").check()
    page.get_by_label("MiniLM + MLM head trained here (bundled) · BERT").uncheck()
    page.get_by_label(f"{E5_MLM} (bundled) · XLM-R / BERT encoder").uncheck()
    page.get_by_role("radio", name="中文", exact=True).check()
    page.get_by_role("tab", name="完形填空").wait_for(timeout=10_000)
    number = page.locator("input[type=number]").first
    number.fill("3")
    number.press("Enter")
    page.get_by_role("button", name="填空", exact=True).click()
    original = _table_with(page, "dog")
    page.wait_for_function(f"() => ({PLOT})().includes('dog') && ({PLOT})().includes('仅左侧上下文')", timeout=60_000)
    checkpoint(page, "fill_mask_zh")
    page.get_by_role("button", name="本视图的链接").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('textarea, input')].some(e => e.value.includes('tab=fill_mask'))", timeout=30_000
    )
    link = page.evaluate(
        "() => [...document.querySelectorAll('textarea, input')].map(e => e.value).find(v => v.includes('tab=fill_mask'))"
    )
    assert "lang=zh" in link and "top_k=3" in link and "smollm2-instruct" in link
    # the result already on the page is redrawn in the new language, not left in the old one
    page.get_by_label("English").check()
    page.get_by_role("tab", name="Fill-mask").wait_for(timeout=10_000)
    page.wait_for_function(f"() => ({PLOT})().includes('left context only')", timeout=60_000)
    checkpoint(page, "fill_mask")
    fresh = browser.new_context(locale="en-US").new_page()
    try:
        fresh.goto(link)
        restored = _table_with(fresh, "dog")
        assert fresh.get_by_label("含 [MASK] 的句子").input_value() == "The [MASK] barked at the mailman."
        assert fresh.locator("input[type=number]").first.input_value() == "3"
        assert fresh.get_by_role("radio", name="中文", exact=True).is_checked()
        assert restored == original and "空格" in restored  # the same rows, in the link's language
        assert restored.count("\n") == original.count("\n") and "mask" not in restored.lower()
        # A link that runs its view shows the result as a button's run does: the plot, no hint, the downloads' button.
        wait_for_result(fresh)
        found = fresh.evaluate(BOXES)
        assert found["plots"] > 0 and not found["hints"], found
        assert fresh.locator("[role=tabpanel]:visible").get_by_role("button", name="生成下载文件").is_visible()
        checkpoint(fresh, "fill_mask_link_zh")
    finally:
        fresh.context.close()


@pytest.mark.parametrize(
    "args, words",
    [
        ((None, ["smollm2-instruct"], 5, "en"), "text must be text"),  # the checks' one wording
        (("a [MASK]", "smollm2-instruct", 5, "en"), "must be a list"),
        (("a [MASK]", [1, 2], 5, "en"), "must be a list"),
        (("a [MASK]", ["smollm2-instruct"], None, "en"), "whole number"),
        (("a [MASK]", ["smollm2-instruct"], 2.5, "en"), "whole number"),
        (("a [MASK]", ["smollm2-instruct"], "5", "zh"), "整数"),
    ],
)
def test_the_api_refuses_values_of_the_wrong_type_clearly(client, args, words):
    with pytest.raises(AppError) as err:
        client.predict(*args, api_name="/fill_mask")
    assert words in str(err.value) and "upstream" not in str(err.value) and "Traceback" not in str(err.value)


def test_a_lone_surrogate_sent_as_json_gets_a_clear_answer(app_url):
    """gradio_client cannot even encode one, so send the JSON escape by hand, as any HTTP client can."""
    body = json.dumps({"data": ["a [MASK] \ud800", ["smollm2-instruct"], 5, "en"]}).encode()  # ASCII: "\\ud800"
    post = urllib.request.Request(f"{app_url}gradio_api/call/fill_mask", body, {"Content-Type": "application/json"})
    event = json.load(urllib.request.urlopen(post, timeout=30))["event_id"]
    answer = urllib.request.urlopen(f"{app_url}gradio_api/call/fill_mask/{event}", timeout=60).read().decode()
    assert "event: error" in answer and "Unicode" in answer and "upstream" not in answer, answer[-500:]


def test_tokens_that_look_like_tags_show_as_written_in_the_browser(browser):
    """The renderer's output in Gradio's own components (plot, table, Markdown): `<s>` shows, nothing is markup."""
    from playground.ui.fill_mask import render
    from tests.unit.fill_mask.test_fill_mask_trust import TAGS, _tag_run

    run = _tag_run()
    with gr.Blocks() as demo:
        plot, table, info = gr.Plot(), gr.Dataframe(), gr.Markdown()
        demo.load(lambda: render.render(run, "en"), None, [plot, table, info])
    port = free_port()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    page = browser.new_context().new_page()
    try:
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector(".js-plotly-plot .bars", timeout=60_000)
        table_text = _table_with(page, "<|endoftext|>")
        plot_text = page.locator(".js-plotly-plot").inner_text()
        for tag in TAGS:
            assert tag in plot_text and tag in table_text, tag
        assert page.locator(".js-plotly-plot s, table s, .prose s, .prose b").count() == 0  # no tag became markup
        prose = page.locator(".prose").last.inner_text()
        assert "<b>x</b>" in prose and "*y*" in prose
        checkpoint(page, "fill_mask_tags")
    finally:
        page.context.close()
        demo.close()
