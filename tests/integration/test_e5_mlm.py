"""e5-mlm (multilingual-E5 small's first 6 layers + an MLM head trained here) fills Chinese blanks, offline.

The probes are assets/e5_mlm/probes.json, the file scripts/train_e5_mlm.py reports hit@5 on; none of them
occurs in the training text (scripts/e5_mlm_data.assert_probes_held_out).
"""

import json
import re
from pathlib import Path

import pytest

from playground import models
from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.runtime import Runtime

ROOT = Path(__file__).resolve().parents[2]
PROBES = json.loads((ROOT / "assets" / "e5_mlm" / "probes.json").read_text(encoding="utf-8"))
# Floors a little under what was measured (docs/models-chinese.md, assets/e5_mlm/summary.json), so a worse head fails.
HIT5_FLOOR = {"zh": 3, "en": 3}  # measured zh 6/16, en 5/13 (summary.json; run 4: 4/16, 4/13)
FUNCTION = set("的了是在和有我你他她它们这那不也就都而及与或一个。，、！？") | {"▁", ""}


@pytest.fixture(scope="module")
def e5_mlm():
    return models.load("e5-mlm")


def top5(text: str) -> list[str]:
    run = run_fill_mask(FillMaskRequest(text.replace("<mask>", "[MASK]"), ("e5-mlm",), 5), Runtime())
    return [p.word.replace("▁", "").strip() for p in run.fills[0].readings[0].predictions[0]]


def test_e5_mlm_is_the_truncated_encoder_with_its_decoder_tied(e5_mlm):
    m = e5_mlm.model
    assert type(m).__name__ == "BertForMaskedLM" and len(m.bert.encoder.layer) == 6
    assert m.cls.predictions.decoder.weight.data_ptr() == m.bert.embeddings.word_embeddings.weight.data_ptr()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_e5_mlm_reaches_its_reported_hit_at_5(e5_mlm, lang):
    assert len(PROBES["zh"]) >= 12
    shown = [(p["text"], top5(p["text"])) for p in PROBES[lang]]
    hits = sum(bool({w.lower() for w in top} & {a.lower() for a in p["answers"]}) for p, (_, top) in zip(PROBES[lang], shown))
    assert hits >= HIT5_FLOOR[lang], f"hit@5 {hits}/{len(shown)}: {shown}"


def test_e5_mlm_chinese_guesses_are_not_only_function_characters(e5_mlm):
    """The failure the first heads had: 的 / 在 / 。 for every blank."""
    guesses = [w for p in PROBES["zh"] for w in top5(p["text"])]
    content = [w for w in guesses if w not in FUNCTION and re.search(r"[\u4e00-\u9fff]", w)]
    assert len(content) >= 0.6 * len(guesses), guesses
