"""One declaration per tab: a tab's fields and outputs named once, and one handler per action answering in one request.

A tab declares each input once, `form.field(name, component)`: the name is the Request's field, the share link's
parameter and the Code panel's parameter. From that one table come the event inputs (a set: the handler gets
{component: value}, never positions), the share link, the Code panel's request and the link run. Outputs are named
too (`form.output`), so a module-level handler reads `Values` by name and returns {output name: update}.

`form.action(handler, triggers)` wires every trigger to the handler, and the same answer carries everything a run
changes: the result, the hint hidden, the result areas shown, the "shown" flag (a language switch redraws only a
view that is on screen) and the Code panel's script. Before, each of these was a follow-up request chained on the
run (`.success`), 3-4 requests a click; now a click is one request, and a link runs the same handler (`link_run`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import gradio as gr

from playground.ui.common.i18n import normalize_lang
from playground.ui.common.lab_models import token_of
from playground.ui.common.links import LinkRun, Step
from playground.ui.common.share import Shared, share_link_row

# A handler: (values by name, progress or None) -> {output name: value or gr.update}
Handler = Callable[..., Mapping[str, Any]]
# The Code panel's request of a run: values -> (view, the /code endpoint's parameters), or None (no script)
CodeRequest = Callable[["Values"], "tuple[str, dict] | None"]


@dataclass(frozen=True)
class Field:
    name: str  # the Request's field, the share link's parameter, the Code panel's parameter
    component: Any
    link: bool = True  # written to and restored from a share link
    code: bool = True  # handed to the Code panel's request


@dataclass(frozen=True)
class Values(Mapping[str, Any]):
    """What an event read from the page, by field name; `lang` and the MLM lab `token` beside them."""

    fields: Mapping[str, Any]
    lang: str = "en"
    token: str | None = None  # this page session's lab token (None: an API call, no session)
    extra: Mapping[str, Any] = field(default_factory=dict)  # what the event brought besides the fields (a selection)

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]

    def __iter__(self):
        return iter(self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def code_params(self, form: Form) -> dict[str, Any]:
        return {name: self.fields[name] for name, f in form.fields.items() if f.code}


class Form:
    """A tab's fields and outputs, declared once (see the module docstring)."""

    def __init__(self, ui: Any, tab_id: str):
        self.ui, self.tab_id = ui, tab_id
        self.fields: dict[str, Field] = {}
        self.outputs: dict[str, Any] = {}
        self.states: dict[str, Any] = {}  # per-session values a handler reads and writes (a kept result)
        self.hint: Any = None
        self.areas: list[Any] = []  # boxes hidden until the first result
        self.shown = gr.State(False)  # True once this session has a result on screen
        self.panel: Any = None  # the tab's CodePanel (ui.common.code_panel)
        self.code: CodeRequest | None = None
        self.handlers: list[Handler] = []  # the first is the one a link and a language switch run
        self.codes: list[CodeRequest | None] = []  # each handler's own Code-panel request (None: the form's)

    # ---- declaration ---------------------------------------------------------------------------------------------
    def field(self, name: str, component: Any, *, link: bool = True, code: bool = True, **labels: Any) -> Any:
        """Declare an input; `labels` are the Localizer's props (label="attention.text", info=...)."""
        if labels:
            self.ui.loc.add(component, **labels)
        self.fields[name] = Field(name, component, link, code)
        return component

    def output(self, name: str, component: Any, **labels: Any) -> Any:
        """Declare an output; `labels` as for `field`."""
        if labels:
            self.ui.loc.add(component, **labels)
        self.outputs[name] = component
        return component

    def state(self, name: str, initial: Any = None, **kwargs: Any) -> Any:
        """A per-session value (e.g. the last result, redrawn on a language switch): read as `values.extra[name]`,
        written by returning {name: value}; `kwargs` go to gr.State (time_to_live)."""
        self.states[name] = self.output(name, gr.State(initial, **kwargs))
        return self.states[name]

    def result(self, hint: Any, *areas: Any) -> None:
        """The hint shown before a first result and the boxes hidden until one. The boxes are marked `tp-result`: a
        lesson's try-it scrolls the first one into view once it shows (assets/follow_link.js); set before the
        page's config is written (when the app's Blocks closes), so the mark reaches the browser."""
        self.hint, self.areas = hint, list(areas)
        for area in self.areas:
            classes = getattr(area, "elem_classes", None) or []
            area.elem_classes = [*([classes] if isinstance(classes, str) else classes), "tp-result"]

    def code_panel(self, panel: Any, request: CodeRequest) -> None:
        self.panel, self.code = panel, request

    # ---- reading and answering -----------------------------------------------------------------------------------
    @property
    def inputs(self) -> set[Any]:
        fields = (f.component for f in self.fields.values())
        return {*fields, *self.states.values(), self.ui.lang, self.shown, *token_of(self.ui)}

    def read(self, v: Mapping[Any, Any]) -> Values:
        token = next((v.get(c) for c in token_of(self.ui)), None)
        fields = {name: v.get(f.component) for name, f in self.fields.items()}
        kept = {name: v.get(state) for name, state in self.states.items()}
        return Values(fields, normalize_lang(v.get(self.ui.lang)), token, kept)

    def all_outputs(self) -> list[Any]:
        extra = [self.hint, *self.areas, self.shown] if self.hint is not None else [*self.areas, self.shown]
        panel = [self.panel.box, self.panel.offline, self.panel.info] if self.panel is not None else []
        return _unique([*self.outputs.values(), *extra, *panel])

    def answer(self, named: Mapping[str, Any], values: Values, code: CodeRequest | None = None) -> dict[Any, Any]:
        """A handler's named updates as the event's {component: update}, with the run's other effects; `code`: this
        action's own Code-panel request (a tab whose actions show different views: sampling's next token, samples,
        comparison, step), else the form's."""
        out = {self.outputs[name]: update for name, update in named.items()}
        if self.hint is not None:
            out[self.hint] = gr.update(visible=False)
        out |= {area: gr.update(visible=True) for area in self.areas}
        out[self.shown] = True
        if self.panel is not None:
            try:
                out |= self.panel.updates(self._code_request(values, code), values.lang)
            except gr.Error:  # no script for these values: the run itself still shows
                out |= self.panel.updates(None, values.lang)
        return out

    def _code_request(self, values: Values, code: CodeRequest | None = None) -> tuple[str, dict] | None:
        code = code or self.code
        try:
            return code(values) if code is not None else None
        except ValueError:
            return None

    def respond(self, handler: Handler, select: bool = False, code: CodeRequest | None = None) -> Callable[..., Any]:
        """The Gradio function of `handler`: {component: value} in, every update of the run out. `select`: the event
        is a selection (a click on an image), handed to the handler as `values.extra["select"]`. A generator handler
        streams (samples growing token by token): its first answer carries the run's other effects (the result areas
        open as it starts, the Code panel), the later ones its own outputs only."""
        if inspect.isgeneratorfunction(handler):

            def streamed(v: dict[Any, Any], progress=gr.Progress()):
                values = self.read(v)
                for n, named in enumerate(handler(values, progress)):
                    yield self.answer(named, values, code) if n == 0 else {self.outputs[k]: u for k, u in named.items()}

            return streamed

        def event(v: dict[Any, Any], progress=gr.Progress()) -> dict[Any, Any]:
            values = self.read(v)
            return self.answer(handler(values, progress), values, code)

        def selected(v: dict[Any, Any], evt: gr.SelectData, progress=gr.Progress()) -> dict[Any, Any]:
            values = self.read(v)
            values = replace(values, extra={**values.extra, "select": evt})
            return self.answer(handler(values, progress), values, code)

        return selected if select else event

    def files(self, build: Callable[..., list[str]]) -> Callable[..., list[str]]:
        """A download button's function: `build(values, progress)` makes the files from what the page shows."""

        def event(v: dict[Any, Any], progress=gr.Progress()) -> list[str]:
            return build(self.read(v), progress)

        return event

    # ---- wiring --------------------------------------------------------------------------------------------------
    def action(
        self, handler: Handler, triggers: Iterable[Any], select: bool = False, code: CodeRequest | None = None, **kwargs: Any
    ) -> list[Any]:
        """Each trigger (e.g. `run.click`) runs `handler` in one request; returns the events. `code`: this action's
        own Code-panel request (default: the form's)."""
        self.handlers.append(handler)
        self.codes.append(code)
        watch = dict(api_visibility="private", show_progress_on=[self.hint] if self.hint is not None else None)
        fn = self.respond(handler, select, code)
        return [trigger(fn, self.inputs, self.all_outputs(), **(watch | kwargs)) for trigger in triggers]

    def redraw_on_lang(self, handler: Handler | None = None) -> None:
        """A language switch redraws the result on screen with `handler` (default: the first action's, from the
        caches), never a view not yet run."""
        main = self.respond(handler or self.handlers[0])
        self.ui.on_lang(lambda v: main(v, progress=None) if v.get(self.shown) else {}, self.inputs, self.all_outputs())

    def link_run(self) -> LinkRun:
        """A link runs the first action's handler with the link's values: one event, one run."""
        step = Step(self.respond(self.handlers[0], code=self.codes[0]), self.inputs, self.all_outputs())
        return LinkRun((step,), progress_on=(self.hint,) if self.hint is not None else ())  # a tab may have no hint

    def share(self) -> Shared:
        """The share-link row of the fields that go into a link, running the first action when a link opens."""
        params = {name: f.component for name, f in self.fields.items() if f.link}
        return share_link_row(self.tab_id, params, self.ui).running(self.link_run())


def _unique(components: list[Any]) -> list[Any]:
    seen, out = set(), []
    for component in components:
        if id(component) not in seen:
            seen.add(id(component))
            out.append(component)
    return out
