"""English / Simplified Chinese: look-up of UI strings and live relabelling of widgets.

Strings live beside each tab in `playground/ui/<tab>/text.py` (and `ui/common/text*.py`), each a dict of
key -> (English, Chinese)). Gradio's own `gr.I18n` follows the browser locale
but has no in-page switch and does not reach strings computed on the server
(messages, figure titles), so the language is an ordinary input (`lang`) that
every event receives, and a `Localizer` rewrites the widgets when it changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import gradio as gr

from playground.langs import DEFAULT_LANG, LANGS, normalize_lang  # noqa: F401 (the UI's names for them)
from playground.ui.common.strings import STRINGS


def t(key: str, lang: str | None = DEFAULT_LANG, **fmt: Any) -> str:
    """The string for `key` in `lang`, formatted with `fmt`."""
    en, zh = STRINGS[key]
    text = zh if normalize_lang(lang) == "zh" else en
    return text.format(**fmt) if fmt else text


def toast_table() -> str:
    """The `toast.*` strings as a JSON list of [English, Chinese] (assets/toast_lang.js swaps Gradio's own toast texts,
    which never pass through `t`, on a Chinese page)."""
    return json.dumps([list(pair) for key, pair in STRINGS.items() if key.startswith("toast.")], ensure_ascii=False)


def choices(pairs: list[tuple[str, str]], lang: str) -> list[tuple[str, str]]:
    """Dropdown/radio choices as (translated label, stable value) from (text key, value)."""
    return [(t(key, lang), value) for key, value in pairs]


@dataclass
class Localizer:
    """Remembers which widget property shows which text key, and in which tab it sits (None: the page's header).

    A language switch relabels the header and the open tab only; another tab is relabelled when it is opened
    (`ui.common.lang_switch`), so a switch sends what the student sees instead of every widget of the page.
    """

    entries: list[tuple[Any, dict[str, Any], str | None]] = field(default_factory=list)
    tab: str | None = None  # the tab being built: set by the app around each tab's build

    def add(self, component: Any, **props: Any) -> Any:
        """Register `component`; each prop value is a text key, or a callable lang -> value."""
        self.entries.append((component, props, self.tab))
        return component

    def components(self, tab: Any = ...) -> list[Any]:
        """Every registered component, or those of one tab (None: the header's)."""
        return [component for component, _, owner in self.entries if tab is ... or owner == tab]

    def updates(self, lang: str, tab: Any = ...) -> list[Any]:
        """The relabelling updates for `lang`, of every entry or of one tab's (in `components(tab)` order)."""
        lang = normalize_lang(lang)
        return [
            gr.update(**{prop: (key(lang) if callable(key) else t(key, lang)) for prop, key in props.items()})
            for _, props, owner in self.entries
            if tab is ... or owner == tab
        ]


@dataclass
class UIContext:
    """What every tab's build_tab() receives: the language input, the relabeller and the session's lab menus."""

    lang: Any  # gr.Radio with value "en" / "zh"; pass it as an input to every event
    loc: Localizer
    lab: Any = None  # ui.lab_models.LabMenus: the session's MLM lab model in other tabs' menus (None: no lab)
    links: list[tuple[Any, str]] = field(default_factory=list)  # in-app link buttons and their share-link queries
    redraws: list[tuple[str | None, Any, list[Any], list[Any]]] = field(default_factory=list)  # (tab, fn, inputs, outputs)

    def on_lang(self, fn: Any, inputs: list[Any], outputs: list[Any]) -> None:
        """Redraw a result in the new language with `fn(*inputs) -> outputs`: when the student switches while this
        tab is open, or opens this tab after a switch (see ui.common.lang_switch); never on a link's own language."""
        self.redraws.append((self.loc.tab, fn, inputs, outputs))

    def link(self, button: Any, query: str) -> None:
        """`button` opens the share link `query` in place (no reload: the session and its models stay)."""
        self.links.append((button, query))
