"""Shareable views: a tab's inputs encoded in the page URL, and restored from it on load.

Each tab returns the inputs worth sharing as {url parameter: component}; the
link is `?tab=<tab id>&<param>=<value>...`, so a teacher can paste one link that
opens the class on the same sentence, models and settings.
"""

from __future__ import annotations

import json
from typing import Any

import gradio as gr

from playground.ui.i18n import Localizer, t

ShareParams = dict[str, Any]  # url parameter -> gr component


def _decode(raw: str, component: Any) -> Any:
    if isinstance(component, (gr.Textbox, gr.Radio)) or (isinstance(component, gr.Dropdown) and not component.multiselect):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def share_link_row(tab_id: str, params: ShareParams, loc: Localizer) -> None:
    """A button that writes a link to the current view of this tab into a copyable box."""
    names, components = list(params), list(params.values())
    with gr.Row():
        button = loc.add(gr.Button(t("common.share"), size="sm", scale=0), value="common.share")
        link = gr.Textbox(show_label=False, buttons=["copy"], interactive=False, scale=4, container=False)

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


def restore_from_url(demo: gr.Blocks, tabs: gr.Tabs, shared: dict[str, ShareParams]) -> None:
    """On page load, select `?tab=` and fill that tab's inputs from the query string."""
    flat = [(tab_id, name, comp) for tab_id, params in shared.items() for name, comp in params.items()]

    def restore(request: gr.Request) -> list[Any]:
        query = dict(request.query_params) if request is not None else {}
        tab_id = query.get("tab")
        updates = [gr.update(selected=tab_id) if tab_id in shared else gr.update()]
        for owner, name, comp in flat:
            updates.append(gr.update(value=_decode(query[name], comp)) if owner == tab_id and name in query else gr.update())
        return updates

    demo.load(restore, None, [tabs] + [comp for _, _, comp in flat], api_visibility="private", queue=False)
