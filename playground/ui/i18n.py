"""English / Simplified Chinese: look-up of UI strings and live relabelling of widgets.

Strings live in `playground/ui/text/` (one module per tab, each a dict of
key -> (English, Chinese)). Gradio's own `gr.I18n` follows the browser locale
but has no in-page switch and does not reach strings computed on the server
(messages, figure titles), so the language is an ordinary input (`lang`) that
every event receives, and a `Localizer` rewrites the widgets when it changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground.ui.text import STRINGS

LANGS = {"en": "English", "zh": "中文"}
DEFAULT_LANG = "en"


def normalize_lang(lang: str | None) -> str:
    """'zh', 'zh-CN', 'zh_Hans' -> 'zh'; anything else -> 'en'."""
    return "zh" if str(lang or "").lower().startswith("zh") else DEFAULT_LANG


def t(key: str, lang: str | None = DEFAULT_LANG, **fmt: Any) -> str:
    """The string for `key` in `lang`, formatted with `fmt`."""
    en, zh = STRINGS[key]
    text = zh if normalize_lang(lang) == "zh" else en
    return text.format(**fmt) if fmt else text


def choices(pairs: list[tuple[str, str]], lang: str) -> list[tuple[str, str]]:
    """Dropdown/radio choices as (translated label, stable value) from (text key, value)."""
    return [(t(key, lang), value) for key, value in pairs]


@dataclass
class Localizer:
    """Remembers which widget property shows which text key, and rewrites them all on a switch."""

    entries: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)

    def add(self, component: Any, **props: Any) -> Any:
        """Register `component`; each prop value is a text key, or a callable lang -> value."""
        self.entries.append((component, props))
        return component

    def components(self) -> list[Any]:
        return [component for component, _ in self.entries]

    def updates(self, lang: str) -> list[Any]:
        lang = normalize_lang(lang)
        return [
            gr.update(**{prop: (key(lang) if callable(key) else t(key, lang)) for prop, key in props.items()})
            for _, props in self.entries
        ]


@dataclass
class UIContext:
    """What every tab's build_tab() receives: the language input, the relabeller and the session's lab menus."""

    lang: Any  # gr.Radio with value "en" / "zh"; pass it as an input to every event
    loc: Localizer
    lab: Any = None  # ui.lab_models.LabMenus: the session's MLM lab model in other tabs' menus (None: no lab)
