"""Masking figures and the tab's event, on tiny tokenizers (structure, not pixels)."""

from playground.masking import permutation as am
from playground.masking import bert as m
from playground.figures import masking as figs


def test_token_grid_has_one_row_per_row_and_legend_for_each_fate(tiny_mlm):
    r = m.dynamic_masking(tiny_mlm.tokenizer, "the cat sat on the mat today", seed=1, epochs=3, mlm_probability=0.5)
    fig = figs.token_grid_figure([r.tokens] * len(r.rows), r.rows, {}).to_dict()
    heat = fig["data"][0]
    assert heat["type"] == "heatmap" and len(heat["z"]) == 6 and len(heat["z"][0]) == len(r.tokens)
    fates = {a for _, row in r.rows for a in row}
    assert {d["name"] for d in fig["data"][1:]} == fates


def test_matrices_side_by_side(tiny_mlm):
    r = am.attention_families(tiny_mlm.tokenizer, "the cat sat", prefix_len=2)
    fig = figs.matrices_figure({k: r.details[k] for k in ("bidirectional", "causal", "prefix")}, r.tokens).to_dict()
    assert [d["type"] for d in fig["data"]] == ["heatmap"] * 3
    assert all(len(d["z"]) == len(r.tokens) for d in fig["data"])


def test_sbo_figure_draws_an_arc_from_each_boundary_to_each_masked_token(tiny_mlm):
    from playground.masking.spans import span_masking

    for seed in range(6):
        r = span_masking(tiny_mlm.tokenizer, "the cat sat on the mat today and <b>then</b> it slept", seed=seed)
        sbo = r.details["sbo"]
        fig = figs.sbo_figure(r.corrupted, r.actions, sbo, {}, "title").to_dict()
        arcs = [d for d in fig["data"] if d.get("meta")]
        for side in ("left", "right"):
            drawn = [d for d in arcs if d["meta"]["side"] == side]
            want = [s for s in sbo if s[side] is not None]
            assert len(drawn) == len(want)  # one arc per masked token from each boundary
            edges = fig["data"][0]["x"]  # the cells' edges: an arc runs between cell centres
            centre = [(a + b) / 2 for a, b in zip(edges, edges[1:])]
            for d, s in zip(drawn, want):
                assert d["x"][0] == centre[s[side]] and d["x"][-1] == centre[s["target"]]  # boundary to token
                assert d["meta"]["boundary"] == s[side]
        for span in r.details["spans"]:  # relative positions 1..len inside each span, on the span's cells
            rows = [s for s in sbo if span["start"] <= s["target"] <= span["end"]]
            assert [s["position"] for s in rows] == list(range(1, span["end"] - span["start"] + 2))
            assert all(s["left"] == span["start"] - 1 and s["right"] in (span["end"] + 1, None) for s in rows)
            cells = fig["data"][0]["text"][0]
            assert all(cells[s["target"]].endswith(f"<b>p{s['position']}</b>") for s in rows)
        assert "<b>then" not in "".join(fig["data"][0]["text"][0])  # token labels are escaped


def test_span_view_shows_the_sbo_figure_in_both_languages(tiny_mlm):
    from playground.masking.spans import span_masking
    from playground.ui.masking import render as mr

    class Run:  # only what the figure reads
        strategy = "span"

    r = span_masking(tiny_mlm.tokenizer, "the cat sat on the mat today", seed=2)
    run = Run()
    run.details, run.corrupted, run.actions, run.tokens = r.details, r.corrupted, r.actions, r.tokens
    for lang, word in (("en", "Span boundary objective"), ("zh", "片段边界目标")):
        fig = mr.matrices_figure(run, lang)
        assert word in fig.layout.title.text and "x<sub>s−1</sub>" in fig.layout.title.text


def test_token_cells_ask_for_room_for_their_widest_token_instead_of_shrinking():
    """Issue 19: T5 and a 40-token Chinese sentence got 5-7 px cells. The grid asks the page for a width at which
    every cell of its widest band holds its token (assets/plot_fit.js scrolls a narrower box), growing with the
    tokens' length; a sentence longer than a band wraps into more bands (issue 37, item 2), never into narrower cells."""
    from playground.figures.masking import MIN_CELL, cell_width, sbo_figure, token_grid_figure

    short = ["中"] * 40
    long = ["<extra_id_12>"] * 40
    rows = [("draw", ["none"] * 40)]
    width = lambda fig: fig.layout.meta["min_width"]  # noqa: E731
    cells = lambda fig: [b - a for d in fig.data if d.type == "heatmap" for a, b in zip(d.x, d.x[1:])]  # noqa: E731
    for tokens, cell in ((short, MIN_CELL), (long, cell_width(["&lt;extra_id_12&gt;"]))):
        fig = token_grid_figure([tokens], rows, {})
        assert len(cells(fig)) == 40 and min(cells(fig)) >= cell  # every token, in a cell that holds it
        widest = max(d.x[-1] for d in fig.data if d.type == "heatmap")
        assert width(fig) >= widest  # the widest band's cells, at least
    assert cell_width(["<extra_id_12>"]) >= 13 * 7.5  # the label's characters fit
    assert width(token_grid_figure([long], rows, {})) > width(token_grid_figure([short], rows, {}))
    assert width(token_grid_figure([short[:10]], [("draw", ["none"] * 10)], {})) < width(token_grid_figure([short], rows, {}))
    sbo = sbo_figure(long[:12], ["mask"] * 12, [], {})
    assert width(sbo) >= 12 * cell_width(["<extra_id_12>"])
