"""The polysemy tab's example sets (assets/polysemy/presets.json): the menu, which set some inputs are, and the
Chinese reader a Chinese set needs."""

from __future__ import annotations

import json
from typing import Any

import gradio as gr

from playground import availability
from playground.polysemy import KINDS
from playground.text_units import has_cjk
from playground.ui.common.i18n import t

ALL_KINDS = (*KINDS, "elmo", "static")  # every kind with a row in embeddings.VECTORS
PRESETS = json.loads((availability.ASSETS / "polysemy" / "presets.json").read_text(encoding="utf-8"))
DEFAULT_MODELS = ("minilm", "glove")
CUSTOM = "custom"  # the example-set menu's entry for sentences that are no preset


def _readable(preset: dict) -> bool:
    """Whether some available model can read the preset's language (English needs nothing special)."""
    lang = preset.get("lang", "en")
    return lang == "en" or any(s.speaks(lang) for s in availability.available_specs(*KINDS))


def preset_choices(lang: str) -> list[tuple[str, str]]:
    """The example sets, those no available model can read marked as such (offline: the Chinese ones); and "your own"."""
    out = []
    for key, preset in PRESETS.items():
        name = t(f"polysemy.preset.{key}", lang)
        out.append((name if _readable(preset) else t("polysemy.preset_unreadable", lang, name=name), key))
    return out + [(t("polysemy.preset.custom", lang), CUSTOM)]


def preset_of(word: Any, sentences: Any) -> str:
    """The example set these inputs are (what the menu shows after a link or an edit), or CUSTOM."""
    lines = [line.strip() for line in str(sentences or "").splitlines() if line.strip()]
    for key, preset in PRESETS.items():
        if str(word or "").strip() == preset["word"] and lines == preset["sentences"]:
            return key
    return CUSTOM


def chinese_models(keys: Any) -> Any:
    """The chosen models plus the available ones that read Chinese, when none of the chosen does (a Chinese preset).

    An encoder first, then a masked LM, a causal one last (KINDS' order): a left-to-right model's vector of a word
    cannot see what follows it, which is what tells 打 (hit) from 打 (call) in 给妈妈打了个电话 (the registry lists
    the classroom GPT before e5-small, and it was the one added)."""
    chosen = [k for k in keys or [] if isinstance(k, str)]
    order = {kind: n for n, kind in enumerate(KINDS)}
    readers = sorted((s for s in availability.available_specs(*KINDS) if s.speaks("zh")), key=lambda s: order.get(s.kind, 9))
    speakers = [s.key for s in readers]
    if not speakers or any(k in speakers for k in chosen):
        return gr.update()
    return chosen + speakers[:1]


def preset_note(key: str, lang: str) -> str:
    """What the page says when a preset is chosen: where its HSK sentences come from (and that their labels are
    hand-made), then whether a Chinese reader is missing."""
    preset = PRESETS.get(key) or {}
    hsk = preset.get("hsk", [])
    source = t("polysemy.preset_hsk", lang, n=len(hsk), total=len(preset["sentences"])) if hsk else ""
    return "\n\n".join(part for part in (source, _chinese_note(preset.get("word", ""), lang)) if part)


def _chinese_note(word: str, lang: str) -> str:
    """Say, before anyone runs it, that Chinese needs a model that is not bundled (unless one is available)."""
    if not has_cjk(word):
        return ""
    speaks = [s for s in availability.available_specs(*KINDS) if s.speaks("zh")]
    return "" if speaks else t("polysemy.zh_needs_model", lang)
