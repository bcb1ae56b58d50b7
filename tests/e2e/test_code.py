"""The Code panel and the notebook download through the API (the scripts' numbers: tests/integration). A show=code link
opening the panel on its run's script is checked in the browser on the masking share link's fresh page
(tests/e2e/test_masking.py::test_a_shared_link_restores_the_inputs_and_the_result)."""

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
