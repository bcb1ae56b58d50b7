"""What the teacher's walk-through found on the masking tab (issue 37): the grid's width, ELECTRA's rows, the span
list and the generator's name, each in both languages where it is text."""

import re
from types import SimpleNamespace

import pytest

from playground.figures.masking import cell_width, token_grid_figure
from playground.masking import OBJECTIVES, MaskingRequest, run_masking
from playground.runtime import Runtime
from playground.ui.masking import render, tab

TEXT = "The unbelievable tokenizer splits playground sentences into subword pieces."
TOKENS = ["[CLS]", "the", "unbelievable", "token", "##izer", "splits", "playground", "sentences", "into", "sub", "##word",
          "pieces", ".", "[SEP]"]  # fmt: skip


def _run(tiny_mlm, strategy, **fields):
    request = MaskingRequest(TEXT, "bert", strategy, generator="uniform", **fields)
    return run_masking(request, Runtime(load=lambda key: tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer))


def test_the_grid_asks_for_each_columns_own_width_so_the_sentence_fits_a_desktop_box():
    """Item 2: every cell was as wide as the widest token ("unbelievable"), so the default sentence asked 1,528 px
    of a 1,214 px box at 1440 px and its end (T5's dropped span, BERT's kept ".") was out of view. Each column is now
    as wide as its own token: the sentence asks the sum, which fits, and each cell still holds its text."""
    rows = [("tokens", ["none"] * len(TOKENS)), ("model input", ["none"] * len(TOKENS))]
    fig = token_grid_figure([TOKENS, TOKENS], rows, {})
    asked = fig.layout.meta["min_width"]
    assert asked < 1214 < len(TOKENS) * cell_width(TOKENS)  # the old uniform cells did not fit; these do
    edges = list(fig.data[0].x)
    assert len(edges) == len(TOKENS) + 1 and edges[-1] <= asked
    assert all(b - a >= cell_width([tok]) for a, b, tok in zip(edges, edges[1:], TOKENS))  # every token fits its cell
    # projector mode too: its fonts asked 1.4 times as much (1,236 px, a sideways scroll); the figure now says what the
    # projector's font needs, and the default sentence still fits one band
    assert [d.type for d in fig.data].count("heatmap") == 1 and fig.layout.meta["min_width_projector"] <= BOX_AT_1440


BOX_AT_1440 = 1214  # px: the grid's box in Chromium at a 1440x900 window, both languages, projector mode or not


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("strategy", sorted(OBJECTIVES))
def test_every_objectives_grid_wraps_into_bands_that_a_1440_box_holds_in_projector_mode(tiny_mlm, strategy, lang):
    """Item 2: a sentence wider than the box wraps into bands of columns (the tiny tokenizer cuts the sentence into 38
    pieces, three bands), so every cell, the masked, replaced and dropped ones at its end too, is in view without a
    sideways scroll at 1440 px, projector mode included. No cell is lost or reordered and each still holds its text."""
    from playground.figures.masking import _ORDER, _plain

    run = _run(tiny_mlm, strategy, seed=3)
    tokens, rows = render.VIEWS[run.strategy].rows(run, lang)
    fig = render.grid_figure(run, lang)
    bands = [d for d in fig.data if d.type == "heatmap"]
    assert len(bands) > 1  # the premise: one band would ask more than the box
    assert fig.layout.meta["min_width"] <= fig.layout.meta["min_width_projector"] <= BOX_AT_1440
    assert all(band.x[-1] <= fig.layout.meta["min_width"] for band in bands)
    for r, (_, actions) in enumerate(rows):
        shown = [cell for band in bands for cell in band.text[r]]
        fates = [_ORDER[z] for band in bands for z in band.z[r]]
        assert shown[: len(tokens[r])] == [_plain(t) for t in tokens[r]] and not any(shown[len(tokens[r]) :])
        assert fates[: len(actions)] == list(actions) and set(fates[len(actions) :]) <= {"pad"}
    for band in bands:  # every cell holds its texts, the rows' widest
        for c, (a, b) in enumerate(zip(band.x, band.x[1:])):
            assert b - a >= cell_width([row[c] for row in band.text if row[c]] or [""])
    ticks = list(fig.layout.yaxis.ticktext)
    assert ticks == [_plain(label) for label, _ in rows] * len(bands)  # each band's rows named


def test_electra_original_row_colours_each_piece_by_its_own_fate():
    """Item 5: with "token" replaced and "##izer" kept, the original row coloured the whole word replaced while the
    row under it and the labels said ##izer was original."""
    run = SimpleNamespace(
        tokens=["[CLS]", "key", "##izer", "[SEP]"],
        actions=["special", "replaced", "original", "special"],
        word_ids=[-1, 0, 0, -1],
        details={"original_tokens": ["[CLS]", "token", "##izer", "[SEP]"], "original_word_ids": [-1, 0, 0, -1]},
    )
    (top, bottom), ((_, top_actions), (_, bottom_actions)) = render._electra_rows(run, "en")
    assert top == ["[CLS]", "token", "##izer", "[SEP]"] and top_actions == bottom_actions == run.actions
    # a word whose piece count changed keeps one colour for the whole word (no piece lines up with another)
    longer = SimpleNamespace(
        tokens=["[CLS]", "a", "##b", "##c", "[SEP]"], actions=["special", "replaced", "replaced", "replaced", "special"],
        word_ids=[-1, 0, 0, 0, -1],
        details={"original_tokens": ["[CLS]", "token", "##izer", "[SEP]"], "original_word_ids": [-1, 0, 0, -1]},
    )  # fmt: skip
    (top, _), ((_, top_actions), _) = render._electra_rows(longer, "en")
    assert top == ["[CLS]", "token", "##izer", "", "[SEP]"] and top_actions[1:4] == ["replaced", "replaced", "pad"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_span_list_says_what_its_numbers_are(tiny_mlm, lang):
    """Low: SpanBERT's "7–8 (2; 4)" was unexplained: each span now names its positions, words and drawn length."""
    run = _run(tiny_mlm, "span")
    line = next(line for line in render._spans(run, lang) if str(run.details["spans"][0]["drawn_length"]) in line)
    first = run.details["spans"][0]
    assert f"{first['start']}–{first['end']}" in line and not re.search(r"\(\d+; \d+\)", line)
    assert ("抽到的长度" if lang == "zh" else "drawn length") in line


def test_the_generator_is_named_in_the_readers_language(tiny_mlm):
    """Low: on a Chinese page ELECTRA's generator read "uniform" / "... + MLM head trained here" in English."""
    run = _run(tiny_mlm, "electra")
    (zh,) = render._generator(run, "zh")
    assert "均匀随机词元" in zh and "uniform" not in zh
    assert "uniform random tokens" in render._generator(run, "en")[0]


def test_objectives_are_table_rows_and_the_menu_follows_the_table():
    """A new objective (T5 with real sentinels, say) is a row of OBJECTIVES: the menu, the statistics box and the
    renderer read the table, never a name."""
    assert [key for _, key in tab.strategy_choices("en")] == list(OBJECTIVES) == list(render.VIEWS)
    assert {key: tab.has_statistics(key) for key in OBJECTIVES} == {k: row.stats is not None for k, row in OBJECTIVES.items()}


def test_spanberts_boundary_figure_fits_the_default_sentence_at_1440_in_projector_mode():
    """Item 2, "SpanBERT's p2 cut": the span boundary figure under the grid gave every cell the widest token's width
    (1,460 px asked of 1,214 at 1440 px), so a span at the sentence's end (its p2 cell) was out of view. Each cell is
    now as wide as its own text (token and p-label), the arcs between cell centres."""
    from playground.figures.masking import sbo_figure

    actions = ["special", *["none"] * 9, "mask", "mask", "none", "special"]
    sbo = [{"target": 10, "left": 9, "right": 12, "position": 1}, {"target": 11, "left": 9, "right": 12, "position": 2}]
    fig = sbo_figure(TOKENS, actions, sbo, {})
    texts = fig.data[0].text[0]
    assert len(TOKENS) * cell_width(texts) + 60 > BOX_AT_1440  # the old uniform cells did not fit
    assert fig.layout.meta["min_width"] <= fig.layout.meta["min_width_projector"] <= BOX_AT_1440
    edges = list(fig.data[0].x)
    assert all(b - a >= cell_width([text]) for a, b, text in zip(edges, edges[1:], texts))  # every cell holds its text
    assert texts[11].endswith("<b>p2</b>") and edges[-1] <= fig.layout.meta["min_width"]
