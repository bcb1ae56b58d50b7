"""Issue 37 low items: the fill-mask table showed raw vocabulary pieces (`ĠParis`), and bars read `<0xE5>` or "�"
with no word of what a byte piece is. The table and the hover show the piece as a reader reads it ("␣Paris"); a
lone byte shows as its byte and a note says what it is, in both languages."""

import pytest
import torch

from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.models import LoadedModel
from playground.runtime import Runtime
from playground.text_units import piece_bytes
from playground.ui.fill_mask import render


class _Pushed(torch.nn.Module):
    def __init__(self, model, bias):
        super().__init__()
        self.inner, self.bias = model, bias

    def forward(self, **kwargs):
        out = self.inner(**kwargs)
        out.logits = out.logits + self.bias
        return out


def _run(lm, text="the river [MASK] was muddy ."):
    return run_fill_mask(FillMaskRequest(text, ("bert",), 5), Runtime(load=lambda key: lm))


def _lone_bytes(tok) -> list[int]:
    """Byte-level pieces that are one byte of a multi-byte character (0x80-0xFF): never a character alone."""
    return [i for raw, i in tok.get_vocab().items() if (b := piece_bytes(raw)) is not None and len(b) == 1 and b[0] >= 0x80]


def test_the_table_shows_a_byte_level_piece_as_read_not_as_the_vocabulary_spells_it(tiny_roberta):
    bias = torch.zeros(len(tiny_roberta.tokenizer))
    bias[[i for raw, i in tiny_roberta.tokenizer.get_vocab().items() if raw.startswith("Ġ") and len(raw) > 2]] = 8.0
    lm = LoadedModel(tiny_roberta.spec, _Pushed(tiny_roberta.model, bias).eval(), tiny_roberta.tokenizer, "cpu")
    _, rows = render.table(_run(lm), "en")
    tokens = [row[5] for row in rows]
    assert tokens and not any("Ġ" in x for x in tokens) and all(x.startswith("␣") for x in tokens), tokens


@pytest.mark.parametrize("lang, words", [("en", "one byte alone is not a character"), ("zh", "单独一个字节不是一个字符")])
def test_a_lone_byte_among_the_answers_shows_as_its_byte_and_is_explained(tiny_roberta, lang, words):
    bias = torch.zeros(len(tiny_roberta.tokenizer))
    bias[_lone_bytes(tiny_roberta.tokenizer)] = 12.0
    lm = LoadedModel(tiny_roberta.spec, _Pushed(tiny_roberta.model, bias).eval(), tiny_roberta.tokenizer, "cpu")
    run = _run(lm)
    (note,) = [n for n in run.notes if n.code == "byte_pieces"]
    assert all(p.startswith("<0x") for p in note.params["pieces"])
    labels = [y for trace in render.figure(run, lang).data for y in trace.y]
    assert any("&lt;0x" in y or "<0x" in y for y in labels) and not any("\ufffd" in y for y in labels), labels
    assert words in render.info(run, lang) and "⚠️" in render.info(run, lang)


def test_the_table_names_a_model_by_its_key_so_the_words_fit_a_phone(tiny_mlm):
    """On a 390 px phone the model column (a full id, "sentence-transformers/all-MiniLM-L6-v2 + MLM head trained
    here") took the width and pushed the words and probabilities out of sight."""
    _, rows = render.table(_run(tiny_mlm), "zh")
    assert rows and all(row[0] == "bert" for row in rows)  # the key asked for; the id stays in the provenance line
