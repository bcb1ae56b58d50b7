"""Share-link values are checked against their component before they are restored."""

import gradio as gr
import pytest

from playground.ui.common.share import MAX_TEXT, decode

PAYLOAD = '<svg><a href="javascript:alert(1)"><text x=5 y=20>open</text></a></svg>'


@pytest.mark.parametrize(
    "component",
    [
        gr.Dropdown([("MiniLM", "minilm")], value="minilm"),
        gr.Radio([("2-D", "2"), ("3-D", "3")]),
        gr.CheckboxGroup([("MiniLM", "minilm"), ("GloVe", "glove")]),
        gr.Number(0, precision=0, minimum=0, maximum=10),
        gr.Slider(0, 11, step=1),
        gr.Checkbox(),
    ],
    ids=lambda c: type(c).__name__,
)
def test_a_script_payload_is_refused_by_every_choice_or_number_component(component):
    with pytest.raises((ValueError, TypeError)):
        decode(PAYLOAD, component)


def test_valid_values_are_restored_with_their_types():
    assert decode("3", gr.Slider(0, 11, step=1)) == 3
    assert decode("0.15", gr.Slider(0.0, 1.0, step=0.01)) == 0.15
    assert decode('["glove"]', gr.CheckboxGroup([("GloVe", "glove"), ("MiniLM", "minilm")])) == ["glove"]
    assert decode("minilm", gr.Dropdown([("MiniLM", "minilm")])) == "minilm"
    assert decode("true", gr.Checkbox()) is True
    assert decode(PAYLOAD, gr.Textbox()) == PAYLOAD  # text stays text; it is escaped wherever it is shown


@pytest.mark.parametrize("raw", ["abc", "1.5", "nan", "inf", "-1", "99"])
def test_malformed_numbers_are_refused(raw):
    with pytest.raises(ValueError):
        decode(raw, gr.Number(0, precision=0, minimum=0, maximum=10))


def test_over_long_text_is_refused():
    with pytest.raises(ValueError):
        decode("x" * (MAX_TEXT + 1), gr.Textbox())
