"""The Code panel and the notebook download, as a person and a script see them (the scripts' numbers: tests/integration)."""

import json

import pytest


def test_code_and_lesson_notebook_endpoints(client):
    from gradio_client.exceptions import AppError

    request = {"text": "The capital of France is [MASK].", "models": ["minilm-mlm"], "top_k": 5}
    out = client.predict("fill_mask", json.dumps(request), "en", api_name="/code")
    assert out["runs_offline"] is True and 'pipeline("fill-mask"' in out["code"] and "top_k=5" in out["code"]
    with pytest.raises(AppError, match="view 必须是以下之一"):
        client.predict("nope", "{}", "zh", api_name="/code")
    notebook = client.predict("", "zh", api_name="/lesson_notebook")
    assert notebook["nbformat"] == 4 and notebook["metadata"]["transformer_playground"]["lesson"] == "static"


def test_a_show_code_link_opens_the_panel_with_the_runs_script(page):
    page.goto(f"{page.app_url}?tab=masking&text=The+cat+sat+on+the+mat.&model=minilm&strategy=wwm&seed=2&show=code")
    script = "() => [...document.querySelectorAll('.tp-code .cm-content')].find(e => e.offsetParent)?.innerText || ''"
    page.wait_for_function(f"() => ({script})().includes('whole_word_mask=True')", timeout=240_000)
    code = page.evaluate(script)
    assert "seed=2" in code and "The cat sat on the mat." in code
    header = [h for h in page.locator(".tp-code button.label-wrap").all() if h.is_visible()][0]
    assert "open" in header.get_attribute("class")
