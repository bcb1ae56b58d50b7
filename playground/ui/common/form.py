"""One declaration per tab: a tab's fields and outputs named once, and one handler per action answering in one request.

A tab declares each input once, `form.field(name, component)`: the name is the Request's field, the share link's
parameter and the Code panel's parameter. From that one table come the event inputs (a set: the handler gets
{component: value}, never positions), the share link, the Code panel's request and the link run. Outputs are named
too (`form.output`), so a module-level handler reads `Values` by name and returns {output name: update}.

`form.action(handler, triggers)` wires every trigger to the handler, and the same answer carries everything a run
changes: the result, the hint hidden, the result areas shown, the "shown" flag (a language switch redraws only a
view that is on screen) and the Code panel's script. Before, each of these was a follow-up request chained on the
run (`.success`), 3-4 requests a click; now a click is one request, and a link runs the same handler (`link_run`).

A tab of several views, each with its own button, hint and Code panel (ELMo), gives an action its `Place`; a
handler that streams (the MLM lab's training) is wired with `stream`; a control that is not a run (Stop, a try-it
box beside a result) with `on`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping
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


class Partial(dict):
    """A handler's answer that changes only its named outputs: nothing ran (a control before any session or result),
    so the hint, the hidden areas, the "shown" flag and the Code panel stay as they are."""


@dataclass(frozen=True)
class Place:
    """Where one action's result shows when a tab has several (ELMo's views): the hint it hides, the areas it shows,
    its Code panel and that panel's request. `Place()`: nowhere (a language switch redraws what is already shown)."""

    hint: Any = None
    areas: tuple[Any, ...] = ()
    panel: Any = None
    code: CodeRequest | None = None


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
        self.places: list[Place] = []  # the views' own places (`place`), beside the tab's (`result`, `code_panel`)
        self.handler_places: list[Place | None] = []  # where each action's result shows (None: the tab's own)

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

    def state(self, name: str, initial: Any = None, component: Any = None, **kwargs: Any) -> Any:
        """A per-session value (e.g. the last result, redrawn on a language switch): read as `values.extra[name]`,
        written by returning {name: value}. `component`: a gr.State made elsewhere (the lab's session token);
        `kwargs` go to gr.State (time_to_live)."""
        self.states[name] = self.output(name, gr.State(initial, **kwargs) if component is None else component)
        return self.states[name]

    def result(self, hint: Any, *areas: Any) -> None:
        """The hint shown before a first result and the boxes hidden until one. The boxes are marked `tp-result`: a
        lesson's try-it scrolls the first one into view once it shows (assets/follow_link.js); set before the
        page's config is written (when the app's Blocks closes), so the mark reaches the browser."""
        self.hint, self.areas = hint, list(areas)
        _mark_results(areas)

    def code_panel(self, panel: Any, request: CodeRequest) -> None:
        self.panel, self.code = panel, request

    def place(self, hint: Any, *areas: Any, panel: Any = None, code: CodeRequest | None = None) -> Place:
        """A view's own place (its hint, areas, Code panel), for `action(..., place=)`."""
        _mark_results(areas)
        self.places.append(Place(hint, tuple(areas), panel, code))
        return self.places[-1]

    def _default(self) -> Place:
        return Place(self.hint, tuple(self.areas), self.panel, self.code)

    # ---- reading and answering -----------------------------------------------------------------------------------
    @property
    def inputs(self) -> set[Any]:
        fields = (f.component for f in self.fields.values())
        return {*fields, *self.states.values(), self.ui.lang, self.shown, *token_of(self.ui)}

    def read(self, v: Mapping[Any, Any], request: Any = None) -> Values:
        """The event's values by name; `request` (the client's gr.Request: its address, the page's URL) in
        `extra["request"]` when the event has one (a link run and a language switch have none)."""
        token = next((v.get(c) for c in token_of(self.ui)), None)
        fields = {name: v.get(f.component) for name, f in self.fields.items()}
        kept = {name: v.get(state) for name, state in self.states.items()}
        extra = kept | ({"request": request} if request is not None else {})
        return Values(fields, normalize_lang(v.get(self.ui.lang)), token, extra)

    def all_outputs(self) -> list[Any]:
        shown = []
        for place in (self._default(), *self.places):
            panel = [place.panel.box, place.panel.offline, place.panel.info] if place.panel is not None else []
            shown += [place.hint, *place.areas, *panel] if place.hint is not None else [*place.areas, *panel]
        return _unique([*self.outputs.values(), *shown, self.shown])

    def answer(self, named: Mapping[str, Any], values: Values, place: Place | None = None) -> dict[Any, Any]:
        """A handler's named updates as the event's {component: update}, with the run's other effects (in `place`,
        by default the tab's own)."""
        place = place or self._default()
        out = {self.outputs[name]: update for name, update in named.items()}
        if isinstance(named, Partial):  # nothing ran: the hint, the areas and the "shown" flag stay as they are
            return out
        if place.hint is not None:
            out[place.hint] = gr.update(visible=False)
        out |= {area: gr.update(visible=True) for area in place.areas}
        out[self.shown] = True
        if place.panel is not None:
            try:
                out |= place.panel.updates(_code_request(place, values), values.lang)
            except gr.Error:  # no script for these values: the run itself still shows
                out |= place.panel.updates(None, values.lang)
        return out

    def respond(self, handler: Handler, select: bool = False, place: Place | None = None) -> Callable[..., Any]:
        """The Gradio function of `handler`: {component: value} in, every update of the run out. `select`: the event
        is a selection (a click on an image), handed to the handler as `values.extra["select"]`. A generator handler
        streams (samples growing token by token): its first answer carries the run's other effects (the result areas
        open as it starts, the Code panel), the later ones its own outputs only."""
        if inspect.isgeneratorfunction(handler):

            def streamed(v: dict[Any, Any], request: gr.Request = None, progress=gr.Progress()):
                values = self.read(v, request)
                for n, named in enumerate(handler(values, progress)):
                    yield self.answer(named, values, place) if n == 0 else {self.outputs[k]: u for k, u in named.items()}

            return streamed

        def event(v: dict[Any, Any], request: gr.Request = None, progress=gr.Progress()) -> dict[Any, Any]:
            values = self.read(v, request)
            return self.answer(handler(values, progress), values, place)

        def selected(v: dict[Any, Any], evt: gr.SelectData, request: gr.Request = None, progress=gr.Progress()):
            values = self.read(v, request)
            values = replace(values, extra={**values.extra, "select": evt})
            return self.answer(handler(values, progress), values, place)

        return selected if select else event

    def files(self, build: Callable[..., list[str]]) -> Callable[..., list[str]]:
        """A download button's function: `build(values, progress)` makes the files from what the page shows."""

        def event(v: dict[Any, Any], progress=gr.Progress()) -> list[str]:
            return build(self.read(v), progress)

        return event

    # ---- wiring --------------------------------------------------------------------------------------------------
    def action(
        self,
        handler: Handler,
        triggers: Iterable[Any],
        select: bool = False,
        place: Place | None = None,
        code: CodeRequest | None = None,
        **kwargs: Any,
    ) -> list[Any]:
        """Each trigger (e.g. `run.click`) runs `handler` in one request; returns the events. `place`: where its
        result shows, when not the tab's own (a view of several); `code`: this action's own Code-panel request in the
        tab's place (a tab whose actions show different views: sampling's next token, samples, comparison, step)."""
        if code is not None:
            place = replace(place or self._default(), code=code)
        self.handlers.append(handler)
        self.handler_places.append(place)
        hint = (place or self._default()).hint
        watch = dict(api_visibility="private", show_progress_on=[hint] if hint is not None else None)
        fn = self.respond(handler, select, place)
        return [trigger(fn, self.inputs, self.all_outputs(), **(watch | kwargs)) for trigger in triggers]

    def stream(self, handler: Callable[..., Iterator[Mapping[str, Any]]], triggers: Iterable[Any], **kwargs: Any) -> list[Any]:
        """Each trigger runs the generator `handler(values)` in one request, every yield an update (the lab's live
        curve). The first yield is the run's answer (hint hidden, areas shown, Code panel); the rest carry only the
        handler's outputs. The client's gr.Request is `values.extra["request"]` (its address, its stream)."""

        def event(v: dict[Any, Any], request: gr.Request) -> Iterator[dict[Any, Any]]:
            values = self.read(v)
            values = replace(values, extra={**values.extra, "request": request})
            for i, named in enumerate(handler(values)):
                yield self.answer(named, values) if i == 0 else {self.outputs[k]: u for k, u in named.items()}

        watch = dict(api_visibility="private", show_progress_on=[self.hint] if self.hint is not None else None)
        return [trigger(event, self.inputs, self.all_outputs(), **(watch | kwargs)) for trigger in triggers]

    def on(self, handler: Handler, triggers: Iterable[Any], **kwargs: Any) -> list[Any]:
        """Each trigger runs `handler(values, progress)` for its named outputs alone: a control that is not a run
        (nothing revealed, no Code panel, no "shown" flag)."""

        def event(v: dict[Any, Any], progress=gr.Progress()) -> dict[Any, Any]:
            return {self.outputs[k]: u for k, u in handler(self.read(v), progress).items()}

        outputs = _unique(list(self.outputs.values()))
        return [trigger(event, self.inputs, outputs, **(dict(api_visibility="private") | kwargs)) for trigger in triggers]

    def redraw_on_lang(self, handler: Handler | None = None, place: Place | None = None) -> None:
        """A language switch redraws the result on screen with `handler` (default: the first action's, from the
        caches), never a view not yet run. `place`: as for `action` (`Place()`: reveal nothing)."""
        main = self.respond(handler or self.handlers[0], place=place)
        self.ui.on_lang(lambda v: main(v, progress=None) if v.get(self.shown) else {}, self.inputs, self.all_outputs())

    def link_run(self) -> LinkRun:
        """A link runs the first action's handler with the link's values: one event, one run."""
        hints = (self.hint,) if self.hint is not None else ()  # a tab whose views hold their own hints (Inside) has none
        place = self.handler_places[0] if self.handler_places else None  # a tab that wires its own events (the class)
        step = Step(self.respond(self.handlers[0], place=place), self.inputs, self.all_outputs())
        return LinkRun((step,), progress_on=hints)

    def share(self) -> Shared:
        """The share-link row of the fields that go into a link, running the first action when a link opens."""
        params = {name: f.component for name, f in self.fields.items() if f.link}
        return share_link_row(self.tab_id, params, self.ui).running(self.link_run())


def _code_request(place: Place, values: Values) -> tuple[str, dict] | None:
    try:
        return place.code(values) if place.code is not None else None
    except ValueError:
        return None


def _mark_results(areas: Iterable[Any]) -> None:
    for area in areas:
        classes = getattr(area, "elem_classes", None) or []
        area.elem_classes = [*([classes] if isinstance(classes, str) else classes), "tp-result"]


def _unique(components: list[Any]) -> list[Any]:
    seen, out = set(), []
    for component in components:
        if id(component) not in seen:
            seen.add(id(component))
            out.append(component)
    return out
