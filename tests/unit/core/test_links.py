"""Links run in place (ui.common.links) and the language switch sends only what is in view (ui.common.lang_switch):
built on a two-tab page of plain components, the handlers called as Gradio calls them (one dict of values)."""

from types import SimpleNamespace

import gradio as gr
import pytest

from playground.ui.common.i18n import Localizer, UIContext
from playground.ui.common.lang_switch import LangSwitch
from playground.ui.common.links import LinkRun, Navigator, Step, browser_lang, parse_query, reveal, run_link
from playground.ui.common.share import share_link_row


def _page():
    """Header + tab "a" (a number and a word, its run counting calls) + tab "b" (a label only)."""
    calls = []
    loc = Localizer()
    with gr.Blocks() as demo:
        lang = gr.Radio([("English", "en"), ("中文", "zh")], value="en")
        ui = UIContext(lang, loc)
        title = loc.add(gr.Markdown("x"), value="app.title")
        with gr.Tabs() as tabs:
            loc.tab = "a"
            with gr.Tab("A", id="a"):
                number = loc.add(gr.Number(3, precision=0, minimum=0, maximum=9, label="n"), label="common.run")
                word = gr.Textbox("hello")
                hint = loc.add(gr.Markdown("press"), value="common.run")
                result = gr.Markdown()
                kept = gr.State(None)

                def run(n, w, language):
                    calls.append((n, w, language))
                    return f"{w}×{n} ({language})", (n, w)

                ui.on_lang(lambda k, language: f"redrawn {k} {language}", [kept, lang], [result])
                shared_a = share_link_row("a", {"n": number, "w": word}, ui).running(
                    LinkRun((Step(run, [number, word, lang], [result, kept]),), reveal(hint, []))
                )
            loc.tab = "b"
            with gr.Tab("B", id="b"):
                other = loc.add(gr.Markdown("b"), value="common.share")
                shared_b = share_link_row("b", {}, ui)
        loc.tab = None
        switch = LangSwitch(lang, loc, ui.redraws, "a")
        nav = Navigator(tabs, {"a": shared_a, "b": shared_b}, lang, switch, "a")
    names = SimpleNamespace(**{k: v for k, v in locals().items() if k not in ("names",)})
    return names


def _values(page, overrides=None):
    values = {c: getattr(c, "value", None) for c in page.nav.inputs}
    values[page.switch.current], values[page.switch.drawn] = "a", None
    return values | (overrides or {})


def _request(query: str, accept: str = ""):
    return SimpleNamespace(query_params=parse_query(query), headers={"accept-language": accept} if accept else {})


def _sent(out, component):
    """The value a link sent for `component` (a plain value, or the value of a relabel update)."""
    update = out[component]
    return update["value"] if isinstance(update, dict) and update.get("__type__") == "update" else update


def _last(updates):
    merged = {}
    for update in updates:
        merged |= update
    return merged


def test_an_in_app_link_fills_the_tab_runs_it_once_in_the_reader_language_and_rewrites_the_address():
    page = _page()
    values = _values(page, {page.lang: "zh", page.word: "typed before"})
    out = _last(page.nav.follow("tab=a&n=7")(values, progress=None))
    assert page.calls == [(7, "hello", "zh")]  # one run; the word the link leaves out is the fresh page's
    assert out[page.tabs]["selected"] == "a" and _sent(out, page.number) == 7 and _sent(out, page.word) == "hello"
    assert out[page.result] == "hello×7 (zh)" and out[page.kept] == (7, "hello")
    assert out[page.hint]["visible"] is False  # the hint is gone once the result is there
    assert out[page.nav.address] == "?tab=a&n=7&lang=zh"  # the address bar: the share link of the view now shown
    assert page.lang not in out  # the language stays the reader's


def test_a_fresh_link_takes_its_language_from_the_link_then_the_browser_and_draws_only_what_is_shown():
    page = _page()
    out = _last(page.nav.on_load(_values(page), request=_request("tab=a&n=2", "zh-CN,zh;q=0.9"), progress=None))
    assert out[page.lang] == "zh" and page.calls == [(2, "hello", "zh")]
    assert out[page.title]["value"] != "x" and out[page.number]["label"] == "运行" and out[page.number]["value"] == 2
    assert page.other not in out  # tab b is relabelled when it is opened, not now
    assert out[page.switch.drawn] == {None: "zh", "a": "zh"}
    en = _last(page.nav.on_load(_values(page), request=_request("tab=a&n=2&lang=en", "zh-CN"), progress=None))
    assert page.lang not in en and page.title not in en  # the link's lang wins over the browser's; English is drawn
    assert browser_lang(_request("", "en-GB,zh;q=0.5")) == "en" and browser_lang(_request("")) is None


def test_a_link_value_the_component_refuses_is_dropped_and_named_and_the_view_still_runs(monkeypatch):
    page = _page()
    warned = []
    monkeypatch.setattr(gr, "Warning", lambda message: warned.append(message))
    values = _values(page, {page.number: 5})  # what a student set before following an in-app link
    out = _last(page.nav.follow("tab=a&n=99&w=hi")(values, progress=None))
    assert _sent(out, page.number) == 3 and _sent(out, page.word) == "hi" and page.calls == [(3, "hi", "en")]
    assert len(warned) == 1 and "n" in warned[0] and "99" not in warned[0]


def test_a_link_sends_no_value_the_page_already_shows():
    # A page-load link's update once set every input of its tab, defaults included: a lesson a student picked while
    # the page loaded snapped back to the first one when the update came.
    page = _page()
    out = _last(page.nav.on_load(_values(page), request=_request("tab=a", "en"), progress=None))
    assert page.tabs in out and page.number not in out and page.word not in out and page.calls == []
    moved = _last(page.nav.follow("tab=a")(_values(page, {page.word: "typed"}), progress=None))
    assert _sent(moved, page.word) == "hello" and page.number not in moved  # an in-app link resets what differs


def test_a_page_without_a_tab_link_runs_nothing():
    page = _page()
    out = _last(page.nav.on_load(_values(page), request=_request("", "en"), progress=None))
    assert page.calls == [] and page.tabs not in out


def test_the_switch_relabels_the_header_and_the_open_tab_and_the_other_tab_when_opened():
    page = _page()
    values = _values(page, {page.lang: "zh", page.kept: (1, "w")})
    out = page.switch.on_switch(values)
    assert page.title in out and out[page.number]["label"] == "运行" and out[page.result] == "redrawn (1, 'w') zh"
    assert page.other not in out and out[page.switch.drawn] == {None: "zh", "a": "zh"}
    opened = page.switch.opened("b")(values | {page.switch.drawn: out[page.switch.drawn]})
    assert page.other in opened and page.title not in opened and page.number not in opened
    again = page.switch.opened("b")(values | {page.switch.drawn: opened[page.switch.drawn]})
    assert set(again) == {page.switch.current}  # already drawn in Chinese: nothing is sent (not even the map)


def test_a_streaming_step_reaches_the_page_at_each_yield_and_later_steps_read_earlier_outputs():
    with gr.Blocks():
        a, b, state = gr.Textbox(), gr.Textbox(), gr.State(None)

    def first(x):
        return x + 1

    def second(s):
        yield f"partial {s}"
        yield f"done {s}"

    run = LinkRun((Step(first, [a], [state]), Step(second, [state], [b])), {a: gr.update(visible=True)})
    out = list(run_link(run, {a: 1}))
    assert out == [{state: 2, a: gr.update(visible=True)}, {b: "partial 2"}, {b: "done 2"}]  # areas open with a result


def test_a_quick_step_joins_the_update_of_the_step_before_and_a_stream_still_streams():
    # Gradio postprocesses every update of a link whole (each gr.update rebuilds its component), so the Code panel's
    # script, sent as its own update, made the server handle the view's plots and sliders twice.
    with gr.Blocks():
        a, b, code, state = gr.Textbox(), gr.Textbox(), gr.Code(), gr.State(None)

    def view(x):
        return x + 1

    def streamed(s):
        yield f"partial {s}"
        yield f"done {s}"

    script = Step(lambda s: f"script {s}", [state], [code], joins=True)
    once = list(run_link(LinkRun((Step(view, [a], [state]), script), {a: gr.update(visible=True)}), {a: 1}))
    assert once == [{state: 2, a: gr.update(visible=True), code: "script 2"}]  # one update, the result areas with it
    stream = list(run_link(LinkRun((Step(view, [a], [state]), Step(streamed, [state], [b]), script)), {a: 1}))
    assert stream == [{state: 2}, {b: "partial 2"}, {b: "done 2", code: "script 2"}]  # the stream is not held back


def test_a_link_sends_its_inputs_as_plain_values_and_only_a_relabel_as_an_update():
    # A plain value is postprocessed alone; an update dict makes Gradio build the component anew.
    page = _page()
    out = _last(page.nav.follow("tab=a&n=7&w=hi")(_values(page), progress=None))
    assert out[page.number] == 7 and out[page.word] == "hi"
    zh = _last(page.nav.on_load(_values(page), request=_request("tab=a&n=2", "zh-CN"), progress=None))
    assert zh[page.number]["label"] == "运行" and zh[page.number]["value"] == 2  # relabelled: one update


def test_an_in_app_link_lists_only_its_tab_and_the_header_and_runs_within_them():
    # Gradio rebuilds every output an update leaves out: a link listing the whole page cost ~0.3 s per update.
    page = _page()
    inputs, outputs = page.nav.scope("a")
    assert page.other not in outputs and page.result in outputs and page.number in outputs and page.title in outputs
    assert len(outputs) < len(page.nav.outputs)
    values = {c: v for c, v in _values(page, {page.lang: "zh"}).items() if c in inputs}  # what Gradio sends it
    updates = list(page.nav.follow("tab=a&n=4")(values, progress=None))
    assert all(set(update) <= set(outputs) for update in updates)
    assert _sent(_last(updates), page.number) == 4 and page.calls == [(4, "hello", "zh")]
    assert page.nav.scope("b")[1] != outputs and page.nav.scope(None) == (page.nav.inputs, page.nav.outputs)


def test_every_update_of_a_link_repeats_what_earlier_ones_sent():
    # Gradio diffs a stream against its previous yield; a component left out is "no change" there, and when two
    # yields land in one tick the browser applies only the later: the plot sent first was lost (a blank view).
    page = _page()
    updates = list(page.nav.on_load(_values(page), request=_request("tab=a&n=2", "zh-CN"), progress=None))
    assert len(updates) >= 2
    first, last = updates[0], updates[-1]
    assert page.title in first and page.tabs in first  # the relabel and the tab come first ...
    assert all(component in last for component in first)  # ... and still stand in the last update
    assert last[page.result] == "hello×2 (zh)" and last[page.hint]["visible"] is False
    assert last[page.number]["label"] == "运行" and last[page.number]["value"] == 2  # relabel and value, one update


def test_a_link_stops_repeating_what_it_sent_once_the_browser_has_long_applied_it():
    # Repeated for a whole generation, the link's tab selection put a student who had gone back to the lessons on
    # the sampling tab again at each streamed token.
    from playground.ui.common.links import REPEAT_S, cumulative

    now = [0.0]
    streamed = ({"tabs": "sampling", "text": f"token {i}"} if i == 0 else {"text": f"token {i}"} for i in range(3))
    out = []
    for update in cumulative(streamed, {"address": "?tab=sampling"}, clock=lambda: now[0]):
        out.append(update)
        now[0] += REPEAT_S * 0.75
    assert out[0] == {"address": "?tab=sampling", "tabs": "sampling", "text": "token 0"}
    assert out[1] == {"address": "?tab=sampling", "tabs": "sampling", "text": "token 1"}  # within the window: repeated
    assert out[2] == {"text": "token 2"}  # long applied: the student's own click is left alone
    now[0] = 0.0
    streamed = ({"tabs": "sampling", "text": f"token {i}"} if i == 0 else {"text": f"token {i}"} for i in range(2))
    quick = list(cumulative(streamed, {}, clock=lambda: now.__setitem__(0, now[0] + 2.0) or now[0], navigation={"tabs"}))
    assert quick[1] == {"text": "token 1"}  # the tab, sent 2 s before: not repeated (the teacher has moved on)


def test_each_update_of_a_link_still_holds_its_values_after_gradio_postprocessed_the_earlier_ones():
    # Gradio pops "value" out of every update dict it postprocesses; a dict a link yielded twice came back empty the
    # second time, the stream deleted the values it had sent (CI: a polysemy link's plot never drew).
    from gradio.blocks import postprocess_update_dict

    page = _page()
    last = None
    for update in page.nav.on_load(_values(page), request=_request("tab=a&n=2", "zh-CN"), progress=None):
        last = {c: dict(v) if isinstance(v, dict) else v for c, v in update.items()}  # as yielded
        for component, value in update.items():  # what Gradio does with each yield before sending it
            if isinstance(value, dict) and value.get("__type__") == "update":
                postprocess_update_dict(component, value)
    assert last[page.number]["value"] == 2 and last[page.number]["label"] == "运行"


@pytest.mark.parametrize("query", ["tab=a&n=1&w=%E4%BA%BA+%26+x", "tab=a&w=a%3Db"])
def test_a_lesson_query_reads_back_as_its_parameters(query):
    from urllib.parse import parse_qs

    assert parse_query(query) == {k: v[0] for k, v in parse_qs(query).items()}


def test_a_download_box_is_shown_only_with_files_and_keeps_the_builder_signature():
    from playground.ui.common.widgets import shown_files

    def build(kept, lang, progress=None):
        return [] if kept is None else [f"/tmp/{kept}.{lang}.json"]

    shown = shown_files(build)
    assert shown(None, "en") == gr.update(value=[], visible=False)
    assert shown("run", "zh") == gr.update(value=["/tmp/run.zh.json"], visible=True)
    import inspect

    assert "progress" in inspect.signature(shown).parameters  # Gradio still finds (and fills) the progress parameter
