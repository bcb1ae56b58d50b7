"""How the UI turns backend refusals into messages: escaped, translated, one log line, no traceback."""

import json
import logging

import gradio as gr
import pytest

from playground.runtime import Runtime
from playground.errors import InputError
from playground.registry import get_spec
from playground.ui.common.widgets import escape, friendly_errors, public_reason

PAYLOAD = '<svg><a href="javascript:alert(1)"><text x=5 y=20>open</text></a></svg>'


def test_a_refusal_is_escaped_logged_once_and_prints_no_traceback(caplog):
    caplog.set_level(logging.INFO, logger="playground")
    with pytest.raises(gr.Error) as err:
        with friendly_errors("en"):
            raise InputError("polysemy_not_found", "'{word}' occurs in none of the sentences.", word=PAYLOAD)
    assert "<svg" not in err.value.message and "&lt;svg" in err.value.message
    assert err.value.print_exception is False  # Gradio prints a traceback for every error unless told not to
    assert len([r for r in caplog.records if r.name == "playground"]) == 1


def test_codes_without_a_tab_text_fall_back_to_the_common_texts():
    with pytest.raises(gr.Error) as err:
        with friendly_errors("zh"):
            raise InputError("no_models", "Choose at least one model.")
    assert err.value.message == "请至少选择一个模型。"


def test_server_paths_never_reach_users():
    reason = public_reason(OSError("no file named model.safetensors in /root/.cache/transformer-playground/smollm2"))
    assert "/root" not in reason and "model.safetensors" in reason


def test_descriptive_model_names_are_translated_in_the_chinese_menus():
    from playground.ui.common.widgets import label_in, model_choices

    zh = dict((key, label) for label, key in model_choices(["masked", "elmo"], "zh"))
    en = dict((key, label) for label, key in model_choices(["masked", "elmo"], "en"))
    for key in ("minilm-mlm", "elmo-small"):
        assert "trained here" in en[key] and "trained here" not in zh[key] and "本项目训练" in zh[key], (en[key], zh[key])
        assert zh[key].count("内置") == 1  # the bundled mark once, translated
    assert label_in("BERT base (uncased)", "zh") == "BERT base (uncased)"  # proper names stay as they are
    assert label_in(get_spec("elmo-small").label, "zh") != get_spec("elmo-small").label


def test_an_error_already_made_for_users_is_not_escaped_twice(caplog):
    # gr.Error is a ValueError: load_model's refusal inside a friendly_errors block must pass through unchanged.
    from playground.ui.common.widgets import refuse

    with caplog.at_level(logging.INFO, logger="playground"):
        with pytest.raises(gr.Error) as caught:
            with friendly_errors("en"):
                raise refuse(escape("the model's weights are damaged"))
    assert caught.value.message == "the model&#x27;s weights are damaged"
    assert len([r for r in caplog.records if r.message.startswith("refused")]) == 1


HOSTILE_TEXT = "see https://evil.example/x, www.evil.example or a@evil.example; $$\\href{x}{y}$$ and $$$"


def test_markdown_escaping_makes_no_links_and_no_formulas():
    from playground.ui.common.widgets import escape_md

    text = escape_md(HOSTILE_TEXT)
    assert "https://" not in text and "www." not in text and "a@" not in text  # no autolink can start
    assert "$$" not in text  # KaTeX runs on the page after Markdown: the delimiter itself must be gone
    assert text.replace("\u200b", "").replace("\\", "") == HOSTILE_TEXT.replace("\\", "")  # it reads as typed


def test_nsp_sentences_and_polysemy_labels_are_data_not_links_or_math():
    from dataclasses import replace as dc_replace

    import numpy as np

    from playground.inside import nsp
    from playground.ui.inside import render as inside_render
    from playground.ui.polysemy import render as polysemy_render
    from tests import tiny_models
    from tests.unit.polysemy.test_polysemy_trust import Sentence, built, view

    text = f"The cat read {HOSTILE_TEXT}. It was tired. Then it slept.\n\nStocks fell on Monday. Investors worried. Markets rose."
    tok = tiny_models.wordpiece_tokenizer()
    run = nsp.run_nsp(nsp.NspRequest(text, 0, 16), Runtime(load_tokenizer=lambda key: tok))
    markdown = inside_render.nsp_view(run, "en")[-1]
    assert "evil" in markdown and "https://" not in markdown and "$$" not in markdown

    sentences = [Sentence(i, "river" if i < 2 else HOSTILE_TEXT, f"the {i} bank", (6, 10)) for i in range(3)]
    v = view([0.5, 1.0], source="contextual", pieces=[["bank"]] * 3)
    v = dc_replace(v, rows=[0, 1, 2], similarity=np.eye(3) * 0.5 + 0.5, coords=np.arange(6.0).reshape(3, 2))
    reading = polysemy_render.reading(built(sentences, [v]), "en")  # read by the backend, worded by the renderer
    assert "evil" in reading and "https://" not in reading and "$$" not in reading


def test_api_and_mcp_clients_read_errors_as_text_and_the_page_reads_them_escaped():
    """API and MCP error messages carried HTML entities (`&lt;`, `&#x27;`): escaping is for the page's toast, which
    renders HTML; a JSON client (REST /call, gradio_client, MCP's client) gets the text as it is."""
    import urllib.request

    from gradio_client import Client

    from scripts.serve_app import free_port

    def shout(text: str) -> str:
        with friendly_errors("en"):
            raise InputError("unknown_model", "x", name=text)

    with gr.Blocks() as demo:
        box = gr.Textbox()
        gr.api(shout, api_name="shout")
        box.submit(shout, box, box, api_name="shout_page")
    demo.queue()
    port = free_port()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True)
    try:
        base, word = f"http://127.0.0.1:{port}", "<b>it's</b>"
        req = urllib.request.Request(
            f"{base}/gradio_api/call/shout", json.dumps({"data": [word]}).encode(), {"Content-Type": "application/json"}
        )
        event = json.loads(urllib.request.urlopen(req, timeout=10).read())["event_id"]
        stream = urllib.request.urlopen(f"{base}/gradio_api/call/shout/{event}", timeout=30).read().decode()
        assert word in stream and "&lt;" not in stream and "&#x27;" not in stream, stream
        for user in ("api", "mcp"):  # gradio_client's header; Gradio's MCP server calls through a gradio_client
            with pytest.raises(Exception) as caught:
                Client(base, verbose=False, headers={"x-gradio-user": user}).predict(word, api_name="/shout")
            assert word in str(caught.value) and "&lt;" not in str(caught.value), str(caught.value)
        # The page (no such header) gets it escaped: its toast renders HTML.
        with pytest.raises(gr.Error) as caught:
            with friendly_errors("en"):
                raise InputError("unknown_model", "x", name=word)
        assert "&lt;b&gt;it&#x27;s&lt;/b&gt;" in caught.value.message
    finally:
        demo.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_first_load_says_what_loads_without_a_percentage_it_never_updates(lang):
    """Issue 37 (low): a first load showed "0.0 %" until it ended; a load reports no fraction, so none is shown."""
    from playground.registry import get_spec
    from playground.ui.common.widgets import on_load_message

    said = []
    on_load_message(lang, lambda fraction, desc=None: said.append((fraction, desc)))(get_spec("minilm"))
    ((fraction, desc),) = said
    assert fraction is None and "MiniLM" in desc
