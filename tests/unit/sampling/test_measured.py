"""A causal model trained here says, beside its text, how weak it measured: the figure of the committed weights."""

import json
from pathlib import Path
from types import SimpleNamespace

from playground.sampling.measured import measured
from playground.ui.common.i18n import t
from playground.ui.sampling import run

SUMMARY = json.loads((Path(__file__).resolve().parents[3] / "assets" / "gpt_zh" / "summary.json").read_text(encoding="utf-8"))


def result(key: str) -> SimpleNamespace:
    return SimpleNamespace(model_key=key, model_id="some/model", model_label="a model", device="cpu", no_chinese=False)


def test_the_figures_are_the_training_summarys():
    known = measured("gpt-zh")
    hsk = SUMMARY["held_out_perplexity"]["hsk_held_out"]
    assert (known.perplexity, known.bigram, known.unigram) == (hsk["gpt"], hsk["bigram"], hsk["unigram"])
    assert known.parameters == SUMMARY["parameters"]
    assert known.perplexity < known.bigram < known.unigram  # what the page's sentence takes for granted


def test_the_sampling_view_says_it_beside_the_text_in_both_languages():
    known = measured("gpt-zh")
    for lang in ("en", "zh"):
        info = run._info(result("gpt-zh"), lang)
        assert f"**{known.perplexity:.0f}**" in info and f"{known.bigram:.0f}" in info and f"{known.unigram:.0f}" in info
    assert "困惑度" in run._info(result("gpt-zh"), "zh")


def test_a_model_not_trained_here_gets_no_such_line():
    assert measured("smollm2-instruct") is None and measured("not-a-model") is None
    assert run._info(result("smollm2-instruct"), "en").count("\n- ") == 0


def test_the_lessons_note_gives_the_committed_models_size():
    assert f"{SUMMARY['parameters'] / 1e6:.1f} M parameters" in t("lessons.note.gpt_zh", "en")
    assert f"{SUMMARY['parameters'] / 1e4:.0f} 万参数" in t("lessons.note.gpt_zh", "zh")


def test_the_default_chinese_causal_model_reads_chinese():
    from playground import sampling
    from playground.registry import get_spec

    key = sampling.default_model("zh")
    assert key is not None and get_spec(key).speaks("zh")  # gpt-zh is bundled: offline there always is one
    assert sampling.default_model() is not None
