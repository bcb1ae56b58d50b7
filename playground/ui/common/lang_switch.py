"""The language switch sends what the student sees: the header and the open tab, not every widget of the page.

Each tab is relabelled (and its results redrawn, `UIContext.on_lang`) when it is shown in a language it was not
yet drawn in: at the switch for the open tab, at its opening for the others. Two States remember which tab is open
and which language each tab was last drawn in, so the rule holds whatever order clicks, links and switches come in.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import gradio as gr

from playground.ui.common.i18n import normalize_lang
from playground.ui.common.links import Step, merge, run_link, LinkRun

HEADER = None  # the Localizer's tab for what sits above the tabs (title, language, status panel)


class LangSwitch:
    def __init__(self, lang: Any, loc: Any, redraws: Iterable[tuple[str | None, Any, list[Any], list[Any]]], first: str):
        self.lang, self.loc = lang, loc
        self.redraws: dict[str | None, list[Step]] = {}
        for tab, fn, inputs, outputs in redraws:
            self.redraws.setdefault(tab, []).append(Step(fn, inputs, outputs))
        self.current = gr.State(first)  # the open tab's id
        self.drawn = gr.State(None)  # {tab id or None: the language it was last drawn in}; None: all in English
        steps = [step for group in self.redraws.values() for step in group]
        self.inputs = {lang, self.current, self.drawn, *(c for step in steps for c in step.inputs)}
        self.outputs = _unique([self.drawn, *loc.components(), *(c for step in steps for c in step.outputs)])

    def bring(self, tab: str | None, lang: str, values: dict[Any, Any], drawn: dict | None) -> tuple[dict[Any, Any], dict]:
        """Updates that show `tab` (and the header) in `lang`, and the new `drawn` map; nothing if already so."""
        lang = normalize_lang(lang)
        drawn = dict(drawn or {})
        values = values | {self.lang: lang}
        out: dict[Any, Any] = {}
        for owner in (HEADER, tab):
            if drawn.get(owner, "en") == lang:
                continue
            for component, update in zip(self.loc.components(owner), self.loc.updates(lang, owner)):
                merge(out, component, update)
            for updates in run_link(LinkRun(tuple(self.redraws.get(owner, ()))), values):
                for component, update in updates.items():
                    merge(out, component, update)
            drawn[owner] = lang
        return out, drawn

    def on_switch(self, values: dict[Any, Any]) -> dict[Any, Any]:
        out, drawn = self.bring(values[self.current], values[self.lang], values, values[self.drawn])
        return out | {self.drawn: drawn}

    def opened(self, tab: str):
        def handler(values: dict[Any, Any]) -> dict[Any, Any]:
            out, drawn = self.bring(tab, values[self.lang], values, values[self.drawn])
            # `drawn` only when it changed: Gradio also fires this when a link selects the tab, and an answer that
            # crossed the link's own update must not put back an older map.
            return out | ({self.drawn: drawn} if out else {}) | {self.current: tab}

        return handler

    def scope(self, tab: str) -> tuple[set[Any], list[Any]]:
        """The inputs and outputs of what shows `tab` (and the header) in a language: `bring` touches no other.

        An event's outputs cost the server each time, whether it sends them or not: Gradio rebuilds the component
        of every output a handler leaves out (a `gr.skip()` is an update too), so one tab's events list one tab's
        widgets, not the page's.
        """
        steps = [*self.redraws.get(HEADER, ()), *self.redraws.get(tab, ())]
        inputs = {self.lang, self.current, self.drawn, *(c for step in steps for c in step.inputs)}
        outputs = [self.drawn, *self.loc.components(HEADER), *self.loc.components(tab), *(c for s in steps for c in s.outputs)]
        return inputs, _unique(outputs)

    def wire(self, tabs: dict[str, Any]) -> None:
        # the open tab is known only when the switch comes: this one event lists every tab's widgets
        self.lang.input(self.on_switch, self.inputs, self.outputs, api_visibility="private", queue=False)
        for tab_id, tab in tabs.items():
            inputs, outputs = self.scope(tab_id)
            tab.select(self.opened(tab_id), inputs, [self.current, *outputs], api_visibility="private", queue=False)


def _unique(components: list[Any]) -> list[Any]:
    seen, out = set(), []
    for component in components:
        if id(component) not in seen:
            seen.add(id(component))
            out.append(component)
    return out
