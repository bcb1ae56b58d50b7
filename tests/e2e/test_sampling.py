"""The Sampling tab through its `/next_token` and `/generate` APIs and in Chromium, offline on SmolLM2."""

from tests.e2e.helpers import open_tab, save_screenshot

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
    save_screenshot(page, "sampling-generate")
    for step in (1, 2):
        page.locator("#sampling-step").click()
        page.wait_for_function(
            f"(document.querySelector('#sampling-step-status') || {{}}).innerText?.includes('Step {step}')", timeout=120_000
        )
    page.locator("#sampling-step-plot .js-plotly-plot").wait_for(timeout=60_000)
    assert page.locator("#sampling-step-text .tp-token").count() >= 1
    save_screenshot(page, "sampling-step")
    page.locator("#sampling-compare").click()
    page.locator("#sampling-compare-plot .js-plotly-plot").wait_for(timeout=180_000)
    page.wait_for_function("document.querySelectorAll('#sampling-compared .tp-sample').length === 3", timeout=60_000)
    save_screenshot(page, "sampling-temperatures")
