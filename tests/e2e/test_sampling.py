"""The Sampling tab through its `/next_token` and `/generate` APIs and in Chromium, offline on SmolLM2."""

from tests.e2e.helpers import checkpoint, open_tab
from tests.e2e.plot_layout import PLOTS_SAY_JS

PROMPT = "The future of AI is"


def test_next_token_api_views_per_temperature(client):
    data = client.predict(PROMPT, "smollm2-instruct", 0.8, 40, 0.9, [0.1, 0.8, 1.5], "en", api_name="/next_token")
    views = data["views"]
    assert [v["temperature"] for v in views] == [0.1, 0.8, 1.5]
    assert views[0]["entropy_bits"]["temperature"] < views[2]["entropy_bits"]["temperature"]
    assert all(v["nucleus_size"] <= 40 for v in views) and data["model_id"] == "HuggingFaceTB/SmolLM2-135M-Instruct"


def test_generate_api_same_seed_same_text(client):
    args = (PROMPT, "smollm2-instruct", 0.8, 0, 1.0, 8, 2, 5, "en")
    first = client.predict(*args, api_name="/generate")
    assert len(first["samples"]) == 2 and all(0 < t["prob"] <= 1 for s in first["samples"] for t in s["tokens"])
    assert client.predict(*args, api_name="/generate")["samples"] == first["samples"]


def test_generation_and_step_through_render(page):
    open_tab(page, "sampling")
    # 8 new tokens, not the default 40: what is checked here is the rendering (3 samples, 3 temperatures); the
    # lengths are the backend's (tests/unit/sampling), and 40 tokens x 6 samples took most of this tier's minute.
    length = page.locator("#sampling-controls input[type=number]").nth(3)
    length.fill("8")
    length.press("Enter")
    page.locator("#sampling-generate").click()
    page.locator("#sampling-generated .tp-token").first.wait_for(timeout=120_000)
    page.wait_for_function("document.querySelectorAll('#sampling-generated .tp-sample').length === 3", timeout=120_000)
    for _ in range(60):  # downloads are built on click, from the finished run: ask until the stream has ended
        page.locator("#sampling-files button").filter(has_text="Prepare downloads").click()
        try:
            page.locator('#sampling-files [aria-label="generation.json"]').wait_for(timeout=3_000)
            break
        except Exception:
            continue
    page.locator('#sampling-files [aria-label="generation.json"]').wait_for(timeout=10_000)
    assert page.locator("#sampling-generated .tp-token").first.get_attribute("title").startswith("p = ")
    checkpoint(page, "sampling-generate")
    for step in (1, 2):
        page.locator("#sampling-step").click()
        page.wait_for_function(
            f"(document.querySelector('#sampling-step-status') || {{}}).innerText?.includes('Step {step}')", timeout=120_000
        )
    page.locator("#sampling-step-plot .js-plotly-plot").wait_for(timeout=60_000)
    assert page.locator("#sampling-step-text .tp-token").count() >= 1
    checkpoint(page, "sampling-step")
    page.locator("#sampling-compare").click()
    page.locator("#sampling-compare-plot .js-plotly-plot").wait_for(timeout=180_000)
    page.wait_for_function("document.querySelectorAll('#sampling-compared .tp-sample').length === 3", timeout=60_000)
    checkpoint(page, "sampling-temperatures")


def test_api_refuses_bad_types_with_the_clear_message(client):
    import pytest

    for args, api, words in [
        (("the", "smollm2-instruct", 0.8, 0, 1.0, [0.5] * 9, "en"), "/next_token", "temperatures must be a list"),
        (("the", "smollm2-instruct", 0.8, 0, 1.0, 1.5, 1, 0, "en"), "/generate", "max_new_tokens must be a whole number"),
        (("the", "smollm2-instruct", 0.8, 0, 1.0, 200, 5, 0, "en"), "/generate", "at most 400"),
        (("the", "smollm2-instruct", 0.8, 0, 1.0, 4, 1, 2**70, "en"), "/generate", "seed must be a whole number from 0 to"),
        (("the", "glove", 0.8, 0, 1.0, None, "en"), "/next_token", "must be a model of kind causal"),
        ((["x"], "smollm2-instruct", 0.8, 0, 1.0, None, "en"), "/next_token", "prompt must be text"),
    ]:
        with pytest.raises(Exception) as err:
            client.predict(*args, api_name=api)
        assert words in str(err.value), (api, args, str(err.value))


def test_share_link_round_trip_restores_inputs_and_result(page):
    """A non-default link opens with every input restored and shows the same next-token distribution; the share
    button's link, opened fresh, shows the same bars, and there the switch to Chinese redraws them and the controls
    in Chinese. (No "\ufffd" in a Chinese prompt's bars: tests/integration/test_sampling.py, on the real SmolLM2.)"""
    from urllib.parse import urlencode

    params = {"tab": "sampling", "prompt": "Once upon a time", "model": "smollm2-instruct", "temperature": "1.3",
              "top_k": "7", "top_p": "0.9", "t1": "0.3", "t2": "0.9", "t3": "1.7", "max_new_tokens": "12",
              "samples": "2", "seed": "42"}  # fmt: skip
    page.goto(f"{page.app_url}?{urlencode(params)}")
    page.locator("#sampling-next-plot .js-plotly-plot").wait_for(timeout=120_000)
    assert page.locator("#sampling-prompt textarea").input_value() == "Once upon a time"
    values = "els => els.map(e => e.value)"
    numbers = page.locator("#sampling-controls input[type=number]").evaluate_all(values)
    assert numbers == ["1.3", "7", "0.9", "12", "2", "42"]
    assert page.locator("#sampling-temps input[type=number]").evaluate_all(values) == ["0.3", "0.9", "1.7"]
    bars = page.locator("#sampling-next-plot .js-plotly-plot").evaluate("el => el.data.map(d => d.y)")
    assert "After temperature 1.3" in page.locator("#sampling-next-plot").inner_text()
    # the share button writes the same parameters back
    page.locator("#sampling-share button").filter(has_text="Link to this view").click()
    link = page.locator("#sampling-share textarea, #sampling-share input").first
    page.wait_for_function("document.querySelector('#sampling-share textarea, #sampling-share input').value.includes('?')")
    again = link.input_value()
    fresh = page.context.new_page()
    fresh.goto(again)
    fresh.locator("#sampling-next-plot .js-plotly-plot").wait_for(timeout=120_000)
    assert fresh.locator("#sampling-next-plot .js-plotly-plot").evaluate("el => el.data.map(d => d.y)") == bars
    checkpoint(fresh, "sampling-link")
    # The switch to Chinese redraws the distribution on screen in Chinese (no English stage title left) and relabels
    # the controls: the prompt box says 提示词 and what the model does with it, and no "Prompt" is left.
    fresh.wait_for_function("document.querySelector('#sampling-next-plot').innerText.includes('Raw softmax')", timeout=60_000)
    fresh.get_by_role("radio", name="中文", exact=True).check()
    fresh.wait_for_function(PLOTS_SAY_JS, arg=["原始 softmax", "Raw softmax"], timeout=60_000)
    fresh.wait_for_function("document.querySelector('#sampling-controls').innerText.includes('提示词')", timeout=60_000)
    controls = fresh.locator("#sampling-controls").inner_text()
    assert "提示词" in controls and "模型会接着这段文字往下写" in controls and "Prompt" not in controls
    checkpoint(fresh, "sampling-zh")
    fresh.close()


def test_temperature_top_k_and_top_p_redraw_in_the_browser_as_the_server_computes_them(page):
    """The next-token stages follow the sliders from the logits the figure brought (assets/sampling_redraw.js): no
    request, and the stage titles (entropy, tokens kept) and the summary are what the server then computes."""
    page.goto(f"{page.app_url}?tab=sampling&prompt=The+future+of+AI+is&model=smollm2-instruct")
    plot = page.locator("#sampling-next-plot .js-plotly-plot")
    plot.wait_for(timeout=120_000)
    titles = "el => el.layout.annotations.slice(0, 4).map(a => a.text)"
    sent = []
    page.on("request", lambda request: sent.append(request.url))
    sliders = page.locator("#sampling-controls input[type=range]")  # temperature, top-k, top-p
    for index, key, presses in ((0, "ArrowLeft", 6), (1, "ArrowRight", 12), (2, "ArrowLeft", 15)):
        sliders.nth(index).focus()
        for _ in range(presses):
            sliders.nth(index).press(key)
    page.wait_for_function("document.querySelector('#sampling-next-plot').innerText.includes('top-p 0.85')")
    drawn, summary = plot.evaluate(titles), page.locator("#sampling-next-area").inner_text()
    assert sent == [] and "After temperature 0.5" in drawn[1] and "After top-k 12" in drawn[2]
    print(f"sampling redraw: {page.evaluate('document.documentElement.dataset.tpRedrawMs')} ms")  # bench/RESULTS.md
    plot.evaluate("el => { window.tpDrawn = el.layout.meta.tp; }")
    page.locator("#sampling-next").click()  # the server's own stages for the same settings: a new figure
    page.wait_for_function(
        "() => { const gd = document.querySelector('#sampling-next-plot .js-plotly-plot');"
        " return gd && gd.layout.meta && gd.layout.meta.tp !== window.tpDrawn; }"
    )
    assert plot.evaluate(titles) == drawn
    assert page.locator("#sampling-next-area").inner_text() == summary
