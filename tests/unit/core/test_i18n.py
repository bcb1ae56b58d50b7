"""Bilingual UI: every text key the code names exists in both languages; the switch relabels widgets."""

import re
from pathlib import Path

import pytest

from playground.ui.common.i18n import Localizer, normalize_lang, t
from playground.ui.common.strings import STRINGS

UI = Path(__file__).resolve().parents[3] / "playground" / "ui"
NAMESPACES = (
    *("app", "status", "avail", "common", "error", "models"),
    *("fill_mask", "polysemy", "elmo", "masking", "sampling", "attention", "inside", "mlm_lab", "lessons"),
)
KEY = re.compile(r"""["']((?:%s)\.[A-Za-z0-9_.\-]+)["']""" % "|".join(NAMESPACES))


def test_every_literal_key_in_the_ui_code_has_both_languages():
    used = {m.group(1) for path in UI.rglob("*.py") for m in KEY.finditer(path.read_text(encoding="utf-8"))}
    assert used, "the scan found no keys: the pattern is wrong"
    files = re.compile(r"\.(csv|json|html|png)$")  # export file names share the prefixes
    missing = sorted(k for k in used if k not in STRINGS and not files.search(k))
    assert not missing, f"text keys used in playground/ui but not defined: {missing}"


@pytest.mark.parametrize(
    "raw, lang", [("zh-CN", "zh"), ("zh_Hans", "zh"), ("ZH", "zh"), ("en-US", "en"), (None, "en"), ("fr", "en")]
)
def test_browser_languages_map_to_ours(raw, lang):
    assert normalize_lang(raw) == lang


def test_localizer_relabels_every_registered_prop():
    loc = Localizer()
    loc.add(object(), label="fill_mask.text", info="fill_mask.text_info")
    loc.add(object(), value=lambda lang: t("app.title", lang) + "!")
    en, zh = loc.updates("en"), loc.updates("zh-CN")
    assert en[0]["label"] == STRINGS["fill_mask.text"][0] and zh[0]["label"] == STRINGS["fill_mask.text"][1]
    assert zh[1]["value"] == STRINGS["app.title"][1] + "!"
