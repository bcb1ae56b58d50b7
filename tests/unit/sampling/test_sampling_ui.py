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
from playground.ui.sampling import run

PROMPT = "the cat sat on"


@pytest.fixture
def tiny(app_runtime, tiny_clm):
    """Every model key resolves to the tiny GPT-2 (the app's Runtime serves it: no module global is patched)."""
    app_runtime(lambda key: tiny_clm)
    return tiny_clm


def test_next_token_view(tiny):
    fig, summary, info, kept, result = run.next_token_view(PROMPT, "smollm2-instruct", 1.0, 5, 0.9, "en")
    files = run.build_downloads(kept, "en")
    bars = [trace for trace in fig.data if trace.type == "bar"]
    assert len(bars) == 4 and all(len(b.x) == sampling.N_SHOWN for b in bars)
    top_k_colours = bars[2].marker.color
    assert list(top_k_colours).count(MUTED) == sampling.N_SHOWN - 5  # only the top 5 stay coloured after top-k 5
    assert "tiny/tiny-gpt2" in info and len(files) == 2
    assert json.load(open(files[0]))["views"][0]["top_k"] == 5
    assert "熵" in run.next_token_view(PROMPT, "smollm2-instruct", 1.0, 5, 0.9, "zh")[1]


def test_generate_view_streams_then_offers_downloads(tiny):
    updates = list(run.generate_view(PROMPT, "smollm2-instruct", 1.0, 0, 1.0, 8, 3, 0, "en"))
    assert len(updates) > 1
    page, info, kept = updates[-1]
    files = run.build_downloads(kept, "en")
    assert page.count('class="tp-sample"') == 3 and "tp-token" in page
    assert len(files) == 2 and json.load(open(files[0]))["seed"] == 0
    assert all(isinstance(u[0], str) for u in updates[:-1])


def test_compare_view_one_column_and_one_continuation_per_temperature(tiny):
    fig, page, info, kept = run.compare_view(PROMPT, "smollm2-instruct", 0.1, 0.8, 1.5, 0, 1.0, 6, 0, "en")
    files = run.build_downloads(kept, "en")
    assert len(fig.data) == 3 and page.count('class="tp-sample"') == 3
    views = json.load(open(files[0]))["views"]
    assert [v["temperature"] for v in views] == [0.1, 0.8, 1.5]
    assert views[0]["entropy_bits"]["top_p"] < views[2]["entropy_bits"]["top_p"]


def test_a_link_reopens_the_view_it_was_made_from(tiny):
    """After its next-token view a link shows the samples or the comparison it was made from, and leaves the rest."""
    args = (PROMPT, "smollm2-instruct", 1.0, 0, 1.0, 6, 3, 0, 0.1, 0.8, 1.5, "en")
    samples, compare_plot, compared, info, kept = list(run.linked_extra("generate", *args))[-1]
    assert samples.count('class="tp-sample"') == 3 and kept[0] == "generation"
    assert compare_plot is gr.skip() or compare_plot == gr.skip()  # the comparison box is left as it is
    samples, compare_plot, compared, info, kept = list(run.linked_extra("compare", *args))[-1]
    assert samples == gr.skip() and kept[0] == "temperatures" and compare_plot["visible"] is True
    assert compared.count('class="tp-sample"') == 3 and len(compare_plot["value"].data) == 3
    assert list(run.linked_extra("next", *args)) == [(gr.skip(),) * 5]


def test_step_view_advances_and_restarts(tiny):
    sampler = None
    for step in range(1, 4):
        sampler, fig, page, status, info = run.step_view(sampler, PROMPT, "smollm2-instruct", 1.0, 0, 1.0, 10, 3, "en")
        assert sampler.steps == step and f"Step {step}" in status
        highlighted = any(figs.CHOSEN in list(trace.marker.color) for trace in fig.data)
        assert highlighted == (sampler.choices[0][-1].rank <= sampling.N_SHOWN)
    first = sampler
    same = generation.generate(tiny, PROMPT, sampling.settings(1.0, 0, 1.0), 10, 1, 3).samples[0].tokens[:3]
    assert [c.token_id for c in first.choices[0]] == [c.token_id for c in same]
    sampler, *_ = run.step_view(first, "a new prompt", "smollm2-instruct", 1.0, 0, 1.0, 10, 3, "en")
    assert sampler is not first and sampler.steps == 1


def test_step_view_says_when_finished(tiny):
    sampler = None
    for _ in range(3):
        sampler, fig, page, status, info = run.step_view(sampler, PROMPT, "smollm2-instruct", 1.0, 0, 1.0, 2, 0, "en")
    assert sampler.done and "Finished" in status


def test_bad_settings_become_gr_error(tiny):
    with pytest.raises(gr.Error):
        run.next_token_view(PROMPT, "smollm2-instruct", 3.0, 0, 1.0, "en")
    with pytest.raises(gr.Error):
        list(run.generate_view(PROMPT, "smollm2-instruct", 1.0, 0, 1.0, 500, 1, 0, "en"))


def test_non_causal_model_refused_before_loading():
    def never(key):
        raise AssertionError("no model may load")

    with pytest.raises(InputError) as err:
        sampling.causal_model("minilm", Runtime(load=never))
    assert err.value.code == "input_model_kind"
    with pytest.raises(gr.Error):
        run.next_token_view(PROMPT, "minilm", 1.0, 0, 1.0, "en")
    with pytest.raises(InputError):
        sampling.causal_model("no-such-model", Runtime(load=never))
    with pytest.raises(gr.Error):
        run.next_token_view(PROMPT, "not-a-model", 1.0, 0, 1.0, "en")


def test_chinese_prompt_on_english_model_says_so(tiny):
    assert "GPT-2 Chinese" in run.next_token_view("人工智能的未来是", "smollm2-instruct", 0.8, 0, 1.0, "en")[2]
    assert "GPT-2 Chinese" not in run.next_token_view(PROMPT, "smollm2-instruct", 0.8, 0, 1.0, "en")[2]


def test_api_functions_return_json(tiny):
    views = run.next_token_api(PROMPT, temperatures=[0.1, 1.5])["views"]
    assert len(views) == 2 and json.dumps(views)
    out = run.generate_api(PROMPT, max_new_tokens=5, n_samples=2, seed=1)
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
        _, _, _, _, result = run.next_token_view(PROMPT, "smollm2-instruct", 1.0, i % 7, 0.9, lang)
        run.render_next_token(result, lang)  # a language switch
        if i % 10 == 0:
            list(run.generate_view(PROMPT, "smollm2-instruct", 1.0, 0, 1.0, 3, 1, i, lang))
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
    stages = run.next_token_view(PROMPT, "smollm2-instruct", 1.0, 5, 0.9, "en")[0]
    temperatures = run.compare_view(PROMPT, "smollm2-instruct", 0.1, 0.8, 1.5, 0, 1.0, 6, 0, "en")[0]
    for fig in (stages, temperatures):
        gaps = _closest_ticks(fig.to_dict(), width=700)  # a 1024-px laptop's plot area, less the token labels
        assert len(gaps) == len(fig.data) - 1
        assert all(room >= need + 4 for room, need in gaps), gaps
