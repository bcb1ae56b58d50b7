"""Shareable views: a tab's inputs encoded in the page URL, and restored from it on load.

Each tab returns the inputs worth sharing as {url parameter: component}; the
link is `?tab=<tab id>&<param>=<value>...`, so a teacher can paste one link that
opens the class on the same sentence, models and settings.
Opening a link (fresh, or in place from a lesson) is `ui.common.links.Navigator`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from typing import Any

import gradio as gr

from playground.ui.common.i18n import t

ShareParams = dict[str, Any]  # url parameter -> gr component


MAX_TEXT = 5000  # characters a shared text box may carry


def _choice_values(component: Any) -> set[str]:
    return {str(value) for _, value in (component.choices or [])}


def _number(raw: str, component: Any) -> float | int:
    value = float(raw)  # ValueError on "abc"
    if not math.isfinite(value):
        raise ValueError("not finite")
    low, high = getattr(component, "minimum", None), getattr(component, "maximum", None)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError("out of range")
    step = float(component.step) if isinstance(component, gr.Slider) else None
    if getattr(component, "precision", None) == 0 or (step is not None and step.is_integer()):
        if not value.is_integer():
            raise ValueError("not a whole number")
        return int(value)
    return value


def decode(raw: str, component: Any) -> Any:
    """The value a link parameter restores into `component`, or ValueError when the component would refuse it.

    A value that is not one of a menu's choices is never passed on: Gradio would echo it in an error
    toast, and a toast renders markup (an SVG `javascript:` link survives its sanitiser).
    """
    if isinstance(component, (gr.Number, gr.Slider)):
        return _number(raw, component)
    if isinstance(component, gr.Checkbox):
        if raw not in ("true", "false"):
            raise ValueError("not a boolean")
        return raw == "true"
    if isinstance(component, gr.CheckboxGroup) or (isinstance(component, gr.Dropdown) and component.multiselect):
        values = json.loads(raw)
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise ValueError("not a list of choices")
        if not set(values) <= _choice_values(component):
            raise ValueError("not among the choices")
        return values
    if isinstance(component, (gr.Dropdown, gr.Radio)):
        if raw not in _choice_values(component):
            raise ValueError("not among the choices")
        return raw
    if len(raw) > MAX_TEXT:
        raise ValueError("too long")
    return raw


@dataclass(frozen=True)
class Shared:
    """What a tab hands to the link restorer: its shareable inputs, and a hidden trigger to run the view."""

    params: ShareParams
    restored: Any  # hidden gr.Number; a link that filled this tab's inputs changes it, and the tab runs on .change
    run: Any = None  # ui.common.links.LinkRun: how a link runs the view in the link's own event (one round trip)

    def running(self, run: Any) -> Shared:
        """This tab's link runs its view with `run` (a LinkRun) instead of through the `restored` trigger."""
        return replace(self, run=run)


def share_link_row(tab_id: str, params: ShareParams, ui: Any) -> Shared:
    """A button that writes a link to the current view of this tab (inputs and language) into a copyable box.

    The tab returns `shared.running(LinkRun(...))` (or wires `shared.restored.change`), so opening a link shows the
    result, not just the inputs.
    """
    names, components = list(params) + ["lang"], list(params.values()) + [ui.lang]
    with gr.Row():
        button = ui.loc.add(gr.Button(t("common.share"), size="sm", scale=0), value="common.share")
        link = gr.Textbox(show_label=False, buttons=["copy"], interactive=False, scale=4, container=False)
    restored = gr.Number(0, visible=False)

    # Built in the browser: only the page knows the address the student sees (proxies, Spaces).
    js = f"""(...values) => {{
        const names = {json.dumps(names)};
        const query = new URLSearchParams({{tab: {json.dumps(tab_id)}}});
        values.forEach((v, i) => {{
            if (v === null || v === undefined || v === "" || (Array.isArray(v) && !v.length)) return;
            query.set(names[i], typeof v === "string" ? v : JSON.stringify(v));
        }});
        return window.location.origin + window.location.pathname + "?" + query.toString();
    }}"""
    button.click(None, components, link, js=js, api_visibility="private", queue=False)
    return Shared(params, restored)
