"""Links that run in place: a share link opened fresh and an in-app link (a lesson's try-it) take the same path.

One event does it all: it chooses the language (the link's `lang`, else the browser's Accept-Language), selects
the tab, fills the tab's inputs from the link (each value checked by `share.decode`) and runs the tab's view with
them -- one round trip, one run. An in-app link changes nothing else: the page is not reloaded, so the Gradio
session (the MLM lab's model, a running training, the step-by-step sampler) survives, and the address bar is
rewritten to the share link of what is now shown.

A tab says how its view runs from a link with `LinkRun` (its own run handlers, in the order its run button chains
them); a tab without one is filled and its `restored` trigger changed (its own event then runs it).

Programmatic value changes fire Gradio's `.change` listeners, which used to run a linked view a second time and
relabel the page in several more round trips; so the language switch listens to `.input` (the student's click)
and every re-run listens to user events only (`.input`, `.submit`, `.click`, `.release`).
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import gradio as gr

from playground.ui.common.i18n import LANGS, normalize_lang, t
from playground.ui.common.share import Shared, decode


@dataclass(frozen=True)
class Step:
    """One handler of a tab's run: `fn` called as its event would call it (a list of inputs: positional values;
    a set: one dict {component: value}); its return value fills `outputs`."""

    fn: Callable[..., Any]
    inputs: list[Any] | set[Any]
    outputs: list[Any]
    # A quick step (the Code panel's script, a box's visibility, the renderer of a result the step before computed)
    # joins the last update of the step before instead of making its own: every update of a link is postprocessed by
    # Gradio whole (each gr.update rebuilds its component), so one update less is most of a warm link's server time.
    joins: bool = False


@dataclass(frozen=True)
class LinkRun:
    """How a link runs a tab's view: its steps in order, then fixed updates (the hint hidden, result areas shown)."""

    steps: tuple[Step, ...]
    after: Mapping[Any, Any] = field(default_factory=dict)
    progress_on: tuple[Any, ...] = ()  # where the student looks while it runs (the tab's hint): "Loading <model>…"


def reveal(hint: Any | None, areas: list[Any]) -> dict[Any, Any]:
    """What `widgets.reveal_after` does once a run succeeded, as updates a LinkRun applies."""
    updates = {hint: gr.update(visible=False)} if hint is not None else {}
    return updates | {area: gr.update(visible=True) for area in areas}


def _value_of(update: Any) -> Any:
    """The value an output takes from a handler's return (a gr.update dict, a skip, or a plain value)."""
    if isinstance(update, dict) and update.get("__type__") == "update":
        return update.get("value", _KEEP)
    return update


_KEEP = object()


def _takes_progress(fn: Callable[..., Any]) -> bool:
    try:
        return "progress" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


def _call(step: Step, values: dict[Any, Any], progress: Any) -> Iterator[tuple[Any, ...]]:
    """Run one step on `values`; yields its outputs (once, or at each yield of a streaming handler)."""
    if isinstance(step.inputs, set):
        args = [{component: values.get(component) for component in step.inputs}]
    else:
        args = [values.get(component) for component in step.inputs]
    kwargs = {"progress": progress} if progress is not None and _takes_progress(step.fn) else {}
    result = step.fn(*args, **kwargs)
    results = result if inspect.isgenerator(result) else iter([result])
    for out in results:
        if isinstance(out, dict) and out and not any(isinstance(key, str) for key in out):  # {component: update}
            out = tuple(out.get(component, gr.skip()) for component in step.outputs)
        elif len(step.outputs) == 1:
            out = (out,)
        yield tuple(out)


def run_link(link: LinkRun, values: dict[Any, Any], progress: Any = None) -> Iterator[dict[Any, Any]]:
    """The updates of a linked run as they come (a streaming step yields several times); `link.after` with the first.

    Each step reads the values the earlier steps produced (a State the first step filled, a slider it narrowed).
    A step that `joins` adds its outputs to the last update of the step before, which waits for it.
    """
    values = dict(values)
    opened = False
    held: dict[Any, Any] | None = None  # the last update of a step whose next step joins it

    def opening(updates: dict[Any, Any]) -> dict[Any, Any]:
        nonlocal opened
        if not opened:
            # The result areas open with the first result (a plot drawn into a hidden box stays blank).
            for component, update in link.after.items():
                merge(updates, component, update)
            opened = True
        return updates

    for index, step in enumerate(link.steps):
        holds = index + 1 < len(link.steps) and link.steps[index + 1].joins
        for outs in _call(step, values, progress):
            updates: dict[Any, Any] = {}
            for component, out in zip(step.outputs, outs):
                if out is gr.skip() or (isinstance(out, dict) and out.get("__type__") == "update" and len(out) == 1):
                    continue
                updates[component] = out
                value = _value_of(out)
                if value is not _KEEP:
                    values[component] = value
            if step.joins and held is not None:
                for component, update in updates.items():
                    merge(held, component, update)
                continue
            if held is not None:  # a streaming step's earlier yield: the next one is the one that may be held
                yield opening(held)
                held = None
            if holds:
                held = updates
            elif updates or not opened:
                updates = opening(updates)
                if updates:
                    yield updates
        if held is not None and not holds:
            updates = opening(held)
            held = None
            if updates:
                yield updates
    if not opened and link.after:
        yield dict(link.after)


# After the page-load link event ended (also on an error): the page is shown, and `data-tp-opened` says the link's
# updates are all in, so nothing the load sends can still overwrite what a student (or a browser test) changes.
SHOWN = "() => { const root = document.documentElement; root.classList.remove('tp-lang-pending'); root.dataset.tpOpened = '1'; }"


# How long a link's later updates keep repeating what an earlier one sent (see `cumulative`): longer than the browser
# can plausibly stall (its messages then arrive in one chunk and one frame), short enough that a student who clicks
# another tab or edits an input while a link still streams (a generation) is not put back.
REPEAT_S = 10.0
# Where the student goes (the tab) and what they type (the link's inputs) repeat for a second only: the stream's
# last update is applied again when the event completes, and a tab selection repeated there took back the click
# of a teacher who had moved on the moment the result showed (the teacher's-path bench, a warm link).
NAVIGATION_REPEAT_S = 1.0


def cumulative(
    updates: Iterator[dict[Any, Any]],
    first: dict[Any, Any],
    clock: Callable[[], float] = time.monotonic,
    navigation: frozenset[Any] = frozenset(),
) -> Iterator[dict[Any, Any]]:
    """Each update of a link with what the link sent in the last REPEAT_S seconds folded in (`first` from the start).

    Gradio streams a generator's outputs as diffs against its previous yield, and a component a yield leaves out
    becomes "no change" there; when two yields reach the browser in one tick, the frontend applies only the later,
    so a plot (or a relabel) sent by the earlier one was lost and the view stayed blank. Re-sending what was
    already sent costs nothing on the wire (the diff of an unchanged value is empty) and makes each yield whole.
    Only for a while, though: repeated for a whole generation, the tab selection and the link's inputs put a student
    who had moved on back on the link's tab (the teacher's-path bench found the lesson's next try-it hidden).

    Each yield holds fresh update dicts: Gradio's postprocessing pops "value" out of the update dict it is given
    (`blocks.postprocess_update_dict`), so a dict yielded twice came back the second time without its value, the
    stream then deleted the plot's value, and a plot whose messages landed in one tick was blank again.
    """
    start = clock()
    shown, sent_at = dict(first), dict.fromkeys(first, start)
    for update in updates:
        now = clock()
        for component, value in update.items():
            merge(shown, component, value)
            sent_at[component] = now
        yield {
            component: dict(value) if _is_update(value) else value
            for component, value in shown.items()
            if now - sent_at[component] <= (NAVIGATION_REPEAT_S if component in navigation else REPEAT_S)
        }


def merge(into: dict[Any, Any], component: Any, update: Any) -> None:
    """Add `update` for `component` to `into`, combined with what is there: a property update (a relabel) and a
    value make one update; a later value replaces an earlier one."""
    if component not in into:
        into[component] = update
        return
    old, new = _as_update(into[component]), _as_update(update)
    into[component] = old | new if _is_update(update) or _is_update(into[component]) else update


def _is_update(value: Any) -> bool:
    return isinstance(value, dict) and value.get("__type__") == "update"


def _as_update(value: Any) -> dict[str, Any]:
    return value if _is_update(value) else gr.update(value=value)


def browser_lang(request: gr.Request | None) -> str | None:
    """'zh' or 'en' from the browser's Accept-Language (its first language), or None without one."""
    header = (request.headers.get("accept-language") if request is not None else None) or ""
    first = header.split(",")[0].split(";")[0].strip()
    return normalize_lang(first) if first else None


def parse_query(query: str) -> dict[str, str]:
    """A link's query string (as `urllib.parse.urlencode` wrote it) as {name: value}."""
    return dict(parse_qsl(query, keep_blank_values=True))


class Navigator:
    """Opens a view from a link: on page load (the address) and from in-app link buttons, one event each."""

    def __init__(self, tabs: Any, shared: dict[str, Shared], lang: Any, switch: Any, landing: str) -> None:
        self.tabs, self.shared, self.lang, self.switch, self.landing = tabs, shared, lang, switch, landing
        self.address = gr.Textbox(visible=False)  # the query of the view an in-app link opened (for the address bar)
        runs = [s.run for s in shared.values() if s.run is not None]
        step_inputs = [c for link in runs for step in link.steps for c in step.inputs]
        step_outputs = [c for link in runs for step in link.steps for c in step.outputs] + [
            c for link in runs for c in link.after
        ]
        params = [c for s in shared.values() for c in s.params.values()]
        triggers = [s.restored for s in shared.values()]
        self.inputs = set(_unique([lang, *params, *step_inputs, *switch.inputs]))
        self.outputs = _unique([tabs, lang, self.address, switch.current, *params, *triggers, *step_outputs, *switch.outputs])
        self.defaults = {c: getattr(c, "value", None) for c in params}  # what a fresh page shows
        self.navigation = frozenset([tabs, switch.current, *params])  # what the student changes (see `cumulative`)
        self.progress_on = _unique([c for link in runs for c in link.progress_on]) or None

    def scope(self, tab_id: str | None) -> tuple[set[Any], list[Any]]:
        """The inputs and outputs of an in-app link to `tab_id` (in the page's language): that tab's and the header's.

        Gradio rebuilds the component of every output an update leaves out (see `LangSwitch.scope`): with the whole
        page as outputs, each update of a link cost the server ~0.3 s before anything it sent (bench/link_server.py).
        """
        shared = self.shared.get(tab_id) if tab_id else None
        if shared is None:
            return self.inputs, self.outputs
        run_steps = shared.run.steps if shared.run is not None else ()
        after = list(shared.run.after) if shared.run is not None else []
        lang_inputs, lang_outputs = self.switch.scope(tab_id)
        params = list(shared.params.values())
        inputs = {self.lang, *params, *(c for step in run_steps for c in step.inputs), *lang_inputs}
        outputs = [self.tabs, self.lang, self.address, self.switch.current, *params, shared.restored]
        outputs += [*(c for step in run_steps for c in step.outputs), *after, *lang_outputs]
        return inputs, _unique(outputs)

    def updates(self, query: Mapping[str, str], values: dict[Any, Any], lang: str, progress: Any) -> Iterator[dict]:
        """Everything a link changes: the language, the tab, its inputs (at once), then its view's result."""
        tab_id = query.get("tab")
        shared = self.shared.get(tab_id) if tab_id else None
        # The language first, in the same response: the header and the tab that will show are drawn in it.
        shown = tab_id if shared is not None else values.get(self.switch.current) or self.landing
        out, drawn = self.switch.bring(shown, lang, values, values.get(self.switch.drawn))
        out[self.switch.drawn] = drawn
        if lang != normalize_lang(values.get(self.lang)):
            out[self.lang] = lang
        values = values | {self.lang: lang}
        if shared is None:
            yield out
            return
        out[self.tabs] = gr.update(selected=tab_id)
        out[self.switch.current] = tab_id
        ignored, filled = [], False
        for name, component in shared.params.items():
            value = self.defaults[component]
            if name in query:
                try:
                    value, filled = decode(query[name], component), True
                except (ValueError, TypeError):
                    ignored.append(name)  # a known parameter name, never the value that came with it
            if value != values.get(component):  # a value the page already shows is not sent: a student's click
                # while the page loads is not undone by the link; a plain value, not gr.update(value=...): Gradio
                # rebuilds the component for every update dict it is sent (see Step.joins)
                merge(out, component, value)
            values[component] = value
        if ignored:
            gr.Warning(t("common.link_ignored", lang, names=", ".join(ignored)))
        if filled and shared.run is None:  # the tab's own `restored.change` event runs it
            out[shared.restored] = time.time()
        yield out
        if filled and shared.run is not None:
            yield from run_link(shared.run, values, progress)

    def on_load(self, values: dict[Any, Any], request: gr.Request, progress=gr.Progress()) -> Iterator[dict]:
        query = dict(request.query_params) if request is not None else {}
        raw = query.get("lang")
        lang = raw if raw in LANGS else (browser_lang(request) or "en")
        # "-": drawn, the address stays as it is
        yield from cumulative(self.updates(query, values, lang, progress), {self.address: "-"}, navigation=self.navigation)

    def follow(self, query: str) -> Callable[..., Iterator[dict]]:
        """The handler of an in-app link to `query` (a share link's query, without `lang`): in the current language."""
        params = parse_query(query)

        def go(values: dict[Any, Any], progress=gr.Progress()) -> Iterator[dict]:
            lang = normalize_lang(values.get(self.lang))
            # The address bar shows the share link of the view now open (no reload, no history entry).
            first = {self.address: f"?{query}&lang={lang}"}
            yield from cumulative(self.updates(params, values, lang, progress), first, navigation=self.navigation)

        return go

    def wire(self, demo: gr.Blocks, buttons: list[tuple[Any, str]]) -> None:
        """Run links on page load and on each in-app link button; keep the address bar on the view shown."""
        # Progress ("Loading MiniLM…") shows on each tab's hint, where the student looks, not on every output.
        events = dict(api_visibility="private", show_progress_on=self.progress_on)
        loaded = demo.load(self.on_load, self.inputs, self.outputs, **events)
        loaded.then(None, None, None, js=SHOWN)  # also in case the first update did not come (an error)
        for button, query in buttons:
            tab_id = parse_query(query).get("tab")
            inputs, outputs = self.scope(tab_id)
            shared = self.shared.get(tab_id) if tab_id else None
            on = list(shared.run.progress_on) if shared is not None and shared.run is not None else []
            button.click(self.follow(query), inputs, outputs, **(events | {"show_progress_on": on or self.progress_on}))
        # The first update of a link sets `address`: the page is then drawn in its language (assets/lang_first.html
        # hid a Chinese page until now), and the address bar shows the share link of the view (no reload).
        replace = (
            "(q) => { if (q && q !== '-') history.replaceState(null, '', window.location.pathname + q);"
            " document.documentElement.classList.remove('tp-lang-pending'); }"
        )
        self.address.change(None, self.address, None, js=replace, api_visibility="private", queue=False)


def _unique(components: list[Any]) -> list[Any]:
    seen, out = set(), []
    for component in components:
        if id(component) not in seen:
            seen.add(id(component))
            out.append(component)
    return out
