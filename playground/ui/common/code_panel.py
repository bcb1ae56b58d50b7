"""The Code panel of every tab and the /code endpoint: the script that reproduces the last run, from the backend.

The tab names its view and turns its inputs into that endpoint's parameters; `playground.code.code_for` does
the rest (the UI writes no code itself). The script's comments are in both languages; the panel's note follows
the page's.
"""

from __future__ import annotations

from typing import Any, Callable

import gradio as gr

from playground import checks
from playground.code import MAX_REQUEST_CHARS, code_for
from playground.ui.common.i18n import t
from playground.ui.common.links import Step
from playground.ui.common.widgets import friendly_errors

EMPTY = "# Run the view first: its code appears here. · 先运行这个视图，代码会显示在这里。\n"

# A tab's inputs -> (view, that endpoint's parameters); None when the run has no script (e.g. a session's own model).
ToRequest = Callable[..., tuple[str, dict] | None]


def code_api(view: str, request: str = "{}", lang: str = "en") -> dict:
    """The runnable Python script that reproduces a view, and whether it runs offline: {"code": str, "runs_offline": bool}.

    Args:
        view: the endpoint's name without the slash (fill_mask, polysemy, masking, next_token, generate, attention,
            mlm_lab: the Trainer script, with an optional corpus_file), or a sub-view: compare, step (sampling),
            attention_<view> (head, layer, overview, tokens, mean, rollout, special, entropy, compare, step,
            positional), masking_<objective> (bert, wwm, dynamic, span, permutation, electra, t5, attention).
        request: a JSON object, as text, with that endpoint's parameters (e.g. '{"text": "The capital of France is
            [MASK].", "models": ["minilm-mlm"], "top_k": 5}'); omitted ones take the endpoint's defaults.
        lang: "en" or "zh", the language of error messages (the script's comments are in both).
    """
    with friendly_errors(lang):
        request = checks.text(request, "request", MAX_REQUEST_CHARS, allow_none=True)  # the API sends text, never a dict
        return code_for(view, request).to_dict()


def register_api() -> None:
    """The /code endpoint (inside the app's Blocks)."""
    gr.api(code_api, api_name="code")


def note(offline: bool | None, lang: str) -> str:
    if offline is None:
        return ""
    return t("code.info", lang, where=t("code.offline" if offline else "code.hub", lang))


class CodePanel:
    """A closed "Code" accordion: the script of the tab's last successful run (`after` wires the runs)."""

    def __init__(self, ui: Any):
        self.ui = ui
        with ui.loc.add(gr.Accordion(t("code.title"), open=False, elem_classes="tp-code"), label="code.title") as panel:
            self.info = gr.Markdown(elem_classes="tp-code-note")
            self.box = gr.Code(EMPTY, language="python", interactive=False, lines=8, max_lines=40, buttons=["copy", "download"])
        self.panel = panel  # a share link's show=code opens it (assets/show_code.js, by its class)
        self.offline = gr.State(None)
        ui.lang.change(note, [self.offline, ui.lang], self.info, api_visibility="private", queue=False)

    def updates(self, asked: tuple[str, dict] | None, lang: str) -> dict[Any, Any]:
        """The panel showing the script of `asked` (view, parameters), or "no script" for None."""
        if asked is None:
            return {self.box: t("code.none", lang) + "\n", self.offline: None, self.info: ""}
        with friendly_errors(lang):
            snippet = code_for(*asked)
        return {self.box: snippet.code, self.offline: snippet.runs_offline, self.info: note(snippet.runs_offline, lang)}

    def after(self, runs: list[Any], inputs: list[Any], to_request: ToRequest) -> CodePanel:
        """Refresh after each successful event of `runs`: `to_request(*values of inputs)` is (view, parameters)."""

        def refresh(*values):
            *values, lang = values
            try:
                asked = to_request(*values)
            except ValueError:
                asked = None
            return tuple(self.updates(asked, lang).values())

        outputs = [self.box, self.offline, self.info]
        for event in runs:
            event.success(refresh, [*inputs, self.ui.lang], outputs, api_visibility="private", queue=False)

        def after_link(*values):  # a link's view ran in the link's own event: its script too, never failing the link
            try:
                return refresh(*values)
            except gr.Error:
                return EMPTY, None, ""

        # The last step of the tab's LinkRun (ui.common.links): a link runs the view without these events.
        self.link_step = Step(after_link, [*inputs, self.ui.lang], outputs, joins=True)  # sent with the view's result
        return self


def code_panel(ui: Any, runs: list[Any], inputs: list[Any], to_request: ToRequest) -> CodePanel:
    """A tab's Code panel refreshed after `runs` (one view); tabs with several views call `CodePanel(ui).after` per view."""
    return CodePanel(ui).after(runs, inputs, to_request)
