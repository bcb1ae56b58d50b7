"""Sampling tab events and figures, on the tiny GPT-2 (the model loader is swapped for the fixture)."""

import json

import gradio as gr
import pytest

from playground.runtime import Runtime
from playground import sampling
from playground.sampling import generation
from playground.errors import InputError
from playground.figures import sampling as figs
from playground.figures.common import MUTED, PAGE_FONT, text_width
from playground.ui.common.form import Values
from playground.ui.sampling import api, run

PROMPT = "the cat sat on"


@pytest.fixture
def tiny(app_runtime, tiny_clm):
    """Every model key resolves to the tiny GPT-2 (the app's Runtime serves it: no module global is patched)."""
    app_runtime(lambda key: tiny_clm)
    return tiny_clm


FIELDS = dict(
    prompt=PROMPT, model="smollm2-instruct", temperature=1.0, top_k=5, top_p=0.9, max_new_tokens=8, samples=3, seed=0,
    t1=0.1, t2=0.8, t3=1.5, show="next",
)  # fmt: skip


def page(lang: str = "en", sampler=None, **fields) -> Values:
    """What the tab's events read: its fields by name (the defaults above, `fields` over them)."""
    return Values({**FIELDS, **fields}, lang, extra={"sampler": sampler})


def test_next_token_view(tiny):
    out = run.next_token(page())
    fig, info, kept = out["next_plot"], out["info"], out["kept"]
    files = run.build_downloads(kept, "en")
    bars = [trace for trace in fig.data if trace.type == "bar"]
    assert len(bars) == 4 and all(len(b.x) == sampling.N_SHOWN for b in bars)
    top_k_colours = bars[2].marker.color
    assert list(top_k_colours).count(MUTED) == sampling.N_SHOWN - 5  # only the top 5 stay coloured after top-k 5
    assert "tiny/tiny-gpt2" in info and len(files) == 2
    assert json.load(open(files[0]))["views"][0]["top_k"] == 5
    assert "熵" in run.next_token(page("zh"))["next_summary"]
    assert out["show"] == "next" and out["next_result"] is kept[1]  # a link reopens it; a language switch redraws it


def test_generate_view_streams_then_offers_downloads(tiny):
    updates = list(run.generate(page(top_k=0, top_p=1.0)))
    assert len(updates) > 1
    last = updates[-1]
    files = run.build_downloads(last["kept"], "en")
    assert last["generated"].count('class="tp-sample"') == 3 and "tp-token" in last["generated"]
    assert len(files) == 2 and json.load(open(files[0]))["seed"] == 0
    assert all(isinstance(u["generated"], str) and "kept" not in u for u in updates[:-1])


def test_compare_view_one_column_and_one_continuation_per_temperature(tiny):
    out = run.compare(page(top_k=0, top_p=1.0, max_new_tokens=6))
    fig, html_page = out["compare_plot"]["value"], out["compared"]
    files = run.build_downloads(out["kept"], "en")
    assert len(fig.data) == 3 and html_page.count('class="tp-sample"') == 3
    views = json.load(open(files[0]))["views"]
    assert [v["temperature"] for v in views] == [0.1, 0.8, 1.5]
    assert views[0]["entropy_bits"]["top_p"] < views[2]["entropy_bits"]["top_p"]


def test_a_link_reopens_the_view_it_was_made_from(tiny):
    """After its next-token view a link shows the samples or the comparison it was made from, and leaves the rest."""
    fields = dict(top_k=0, top_p=1.0, max_new_tokens=6)
    first, *rest = list(run.linked(page(show="generate", **fields)))
    assert first["show"] == "generate" and "next_plot" in first  # the next-token view first, in the same event
    assert rest[-1]["generated"].count('class="tp-sample"') == 3 and rest[-1]["kept"][0] == "generation"
    assert not any("compare_plot" in u for u in rest)  # the comparison box is left as it is
    first, last = list(run.linked(page(show="compare", **fields)))
    assert "generated" not in last and last["kept"][0] == "temperatures" and last["compare_plot"]["visible"] is True
    assert last["compared"].count('class="tp-sample"') == 3 and len(last["compare_plot"]["value"].data) == 3
    (only,) = list(run.linked(page(show="next", **fields)))
    assert only["show"] == "next" and "generated" not in only and "compare_plot" not in only


def test_each_view_has_its_script_and_a_link_gets_the_one_it_names(tiny):
    """The Code panel said "Run the view first" after any link (issue 37, item 3): the link's answer now carries the
    script of the view it names, from the same table as the buttons'."""
    for show, view in (("next", "next_token"), ("generate", "generate"), ("compare", "compare")):
        asked, params = run.shown_code(page(show=show))
        assert asked == view and params["prompt"] == PROMPT
    assert run.shown_code(page(show="compare"))[1]["temperatures"] == [0.1, 0.8, 1.5]
    assert run.STEP_CODE(page())[0] == "step"


def test_step_view_advances_and_restarts(tiny):
    sampler = None
    for step in range(1, 4):
        out = run.step(page(sampler=sampler, top_k=0, top_p=1.0, max_new_tokens=10, seed=3))
        sampler, fig, status = out["sampler"], out["step_plot"]["value"], out["step_status"]
        assert sampler.steps == step and f"Step {step}" in status
        highlighted = any(figs.CHOSEN in list(trace.marker.color) for trace in fig.data)
        assert highlighted == (sampler.choices[0][-1].rank <= sampling.N_SHOWN)
    first = sampler
    same = generation.generate(tiny, PROMPT, sampling.settings(1.0, 0, 1.0), 10, 1, 3).samples[0].tokens[:3]
    assert [c.token_id for c in first.choices[0]] == [c.token_id for c in same]
    sampler = run.step(page(sampler=first, prompt="a new prompt", top_k=0, top_p=1.0, max_new_tokens=10, seed=3))["sampler"]
    assert sampler is not first and sampler.steps == 1


def test_step_view_says_when_finished(tiny):
    sampler = None
    for _ in range(3):
        out = run.step(page(sampler=sampler, top_k=0, top_p=1.0, max_new_tokens=2, seed=0))
        sampler, status = out["sampler"], out["step_status"]
    assert sampler.done and "Finished" in status


def test_bad_settings_become_gr_error(tiny):
    with pytest.raises(gr.Error):
        run.next_token(page(temperature=3.0, top_k=0, top_p=1.0))
    with pytest.raises(gr.Error):
        list(run.generate(page(top_k=0, top_p=1.0, max_new_tokens=500, samples=1)))


def test_non_causal_model_refused_before_loading():
    def never(key):
        raise AssertionError("no model may load")

    with pytest.raises(InputError) as err:
        sampling.causal_model("minilm", Runtime(load=never))
    assert err.value.code == "input_model_kind"
    with pytest.raises(gr.Error):
        run.next_token(page(model="minilm"))
    with pytest.raises(InputError):
        sampling.causal_model("no-such-model", Runtime(load=never))
    with pytest.raises(gr.Error):
        run.next_token(page(model="not-a-model"))


def test_chinese_prompt_on_english_model_says_so(tiny):
    assert "GPT-2 Chinese" in run.next_token(page(prompt="人工智能的未来是", temperature=0.8, top_k=0, top_p=1.0))["info"]
    assert "GPT-2 Chinese" not in run.next_token(page(temperature=0.8, top_k=0, top_p=1.0))["info"]


def test_api_functions_return_json(tiny):
    views = api.next_token_api(PROMPT, temperatures=[0.1, 1.5])["views"]
    assert len(views) == 2 and json.dumps(views)
    out = api.generate_api(PROMPT, max_new_tokens=5, n_samples=2, seed=1)
    assert len(out["samples"]) == 2 and json.dumps(out)
    tok = out["samples"][0]["tokens"][0]
    assert {"token_id", "text", "prob", "raw_prob", "rank", "alternatives"} <= set(tok)


def test_generation_html_escapes_text(tiny):
    result = generation.generate(tiny, "<b>x</b>", sampling.settings(1.0, 0, 1.0), 4, 1, 0)
    page = figs.generation_html(result, "S{n}", "p={p} {raw} {rank} {alternatives}", "key", "end")
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert figs.probability_colour(0.0) != figs.probability_colour(1.0)


def test_repeated_runs_write_no_files(tiny, tmp_path, monkeypatch):
    from playground.ui.common import widgets

    exports = tmp_path / "exports"  # this test's own: a parallel test's download cannot look like a leak
    monkeypatch.setattr(widgets, "EXPORT_DIR", exports)
    for i in range(14):  # every top-k below 7 in both languages and two generations; a file would show at once
        lang = ("en", "zh")[i % 2]
        result = run.next_token(page(lang, top_k=i % 7))["next_result"]
        run.render_next_token(result, lang)  # a language switch
        if i % 10 == 0:
            list(run.generate(page(lang, top_k=0, top_p=1.0, max_new_tokens=3, samples=1, seed=i)))
    assert not exports.exists() or not any(exports.rglob("*"))


def _closest_ticks(fig: dict, width: float, size: float = PAGE_FONT) -> list[tuple[float, float]]:
    """For each pair of neighbouring panels in a figure `width` px wide (its plot area): (px between the left panel's
    last tick label and the right panel's first, px their half-widths at font `size` need); plotly's own ticks at
    0 / 50 % / 100 % where the figure sets none."""
    axes = sorted((a for k, a in fig["layout"].items() if k.startswith("xaxis")), key=lambda a: a["domain"][0])
    out = []
    for left, right in zip(axes, axes[1:]):

        def px(axis, value):
            (d0, d1), (r0, r1) = axis["domain"], axis["range"]
            return (d0 + (value - r0) / (r1 - r0) * (d1 - d0)) * width

        last = (left.get("tickvals") or [0, 0.5, 1])[-1], (left.get("ticktext") or ["0%", "50%", "100%"])[-1]
        first = (right.get("tickvals") or [0, 0.5, 1])[0], (right.get("ticktext") or ["0%", "50%", "100%"])[0]
        out.append((px(right, first[0]) - px(left, last[0]), (text_width(last[1], size) + text_width(first[1], size)) / 2))
    return out


def test_side_by_side_panels_keep_their_tick_labels_apart_at_projector_size(tiny):
    """Projector mode sets every tick label to 16 px: one panel's "100%" ran into the next panel's "0%"."""
    stages = run.next_token(page())["next_plot"]
    temperatures = run.compare(page(top_k=0, top_p=1.0, max_new_tokens=6))["compare_plot"]["value"]
    for fig in (stages, temperatures):
        gaps = _closest_ticks(fig.to_dict(), width=700)  # a 1024-px laptop's plot area, less the token labels
        assert len(gaps) == len(fig.data) - 1
        assert all(room >= need + 4 for room, need in gaps), gaps


def test_a_link_fills_the_code_panel_in_its_own_answer(built_app):
    """Issue 37, item 3: after a link, a try-it or `&show=code`, the Code panel said "Run the view first" until the
    button was pressed again (the link ran the views, not the panel). The link's one step now answers the panel too."""
    import gradio as gr

    run_link = built_app.shared_links["sampling"].run
    outputs = [c for step in run_link.steps for c in step.outputs]
    assert any(isinstance(c, gr.Code) for c in outputs)


def test_the_chinese_example_runs_on_the_model_that_reads_chinese(monkeypatch):
    """Issue 36: the Chinese example kept the English default model (SmolLM2's byte pieces); it now brings the first
    available model that reads Chinese (offline, the classroom GPT), the English ones the page's default."""
    from playground.ui.sampling import tab

    monkeypatch.setattr(run, "default_model", lambda lang=None: {"zh": "gpt-zh"}.get(lang, "smollm2-instruct"))
    rows = {text: model for text, model in tab.example_rows()}
    assert rows["人工智能的未来是"] == "gpt-zh" and rows["The future of AI is"] == "smollm2-instruct"
