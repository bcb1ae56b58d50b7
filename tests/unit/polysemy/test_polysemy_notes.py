"""Every note the backend can attach renders in both languages with the parameters the backend really sends (issue 19:
a word GloVe lacks crashed the renderer with KeyError 'model', and the whole tab showed a bare "Error")."""

import pytest

from playground.alignment import Target
from playground.runtime import Runtime
from playground.polysemy import PolysemyRequest, contextual_vectors, run_polysemy
from playground.ui.polysemy import render
from playground.ui.common.strings import STRINGS


BANK = "money | the bank paid .\nmoney | she put money in the bank .\nriver | he sat on the bank .\nriver | the bank was muddy ."
UNKNOWN = "money | the ξψ paid ω .\nmoney | the ξψ sat .\nriver | the ξψ paid φ .\nriver | the ξψ was there ."
CODES = {key.removeprefix("polysemy.note.") for key in STRINGS if key.startswith("polysemy.note.")}


def run(lms, word, sentences):
    by_key = {lm.spec.key: lm for lm in lms}
    return run_polysemy(PolysemyRequest(word, sentences, tuple(by_key)), Runtime(load=by_key.__getitem__))


def rendered(result, lang):
    """Everything the tab draws from a result (what crashed: the notes), so a failing format shows as an exception."""
    return render.reading(result, lang), render.notes(result, lang), render.figures(result, lang)


@pytest.fixture
def produced(tiny_encoder, tiny_glove):
    """Each note code, as the backend itself attaches it (no hand-made params)."""
    found = {}
    typo = run([tiny_encoder, tiny_glove], "transformr", BANK.replace("bank", "transformr"))  # GloVe lacks the word
    unknown = run([tiny_encoder], "ξψ", UNKNOWN)  # the word is [UNK]; sentences 1 and 3 are the same input
    for result in (typo, unknown):
        for view in result.models:
            found.update({n.code: (result, n) for n in view.notes})
    # "no_piece": a sentence where the word was found but no token covers its characters (here: a span on spaces)
    targets = [Target("a", "the bank paid .", (4, 8)), Target("b", "the  bank", (3, 4))]
    contextual, _ = contextual_vectors(tiny_encoder, targets)
    found.update({n.code: (None, n) for n in contextual.notes})
    return found


def test_the_backend_attaches_every_note_code_the_text_knows(produced):
    assert set(produced) == CODES  # a new code needs a case here; a text without a producer is dead


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_note_renders_with_the_backend_parameters(produced, lang):
    for code, (result, note) in produced.items():
        if result is not None:
            reading, notes, figures = rendered(result, lang)
            assert len(figures) >= 1
        text = render.note_text(note, lang)
        assert text and "{" not in text, code
        assert all(str(v) in text for k, v in note.params.items() if k in ("word", "n")), code


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_word_glove_lacks_is_said_and_the_other_models_still_draw(tiny_encoder, tiny_glove, lang):
    result = run([tiny_encoder, tiny_glove], "transformr", BANK.replace("bank", "transformr"))
    reading, notes, figures = rendered(result, lang)
    assert "transformr" in notes and "GloVe" in notes
    assert [v.source for v in result.models if v.rows] == ["contextual", "input"]  # the transformer's panels stay


# --- exercise 1: two sentences (issue 19: the projection put them in opposite corners whatever their cosine) ------

PAIR = "money | I deposited money at the bank .\nriver | I took a walk along the bank ."


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_two_sentences_show_the_cosine_per_layer_and_say_why_the_rest_is_absent(tiny_encoder, tiny_glove, lang):
    result = run([tiny_encoder, tiny_glove], "bank", PAIR)
    assert render.few(result)
    main, heatmap, curve = render.figures(result, lang)
    assert curve is None  # no empty "where the senses come apart" axes
    data = main.to_dict()
    contextual = next(v for v in result.models if v.source == "contextual")
    line = next(tr for tr in data["data"] if tr["mode"] == "lines+markers")
    assert line["y"] == pytest.approx(contextual.pair_cosines[0]["by_layer"])  # the cosine between the uses, per layer
    assert contextual.pair_cosines[0]["by_layer"][contextual.layer] == pytest.approx(contextual.similarity[0, 1])
    low, high = data["layout"]["yaxis"]["range"]
    assert low <= 0 and high >= 1  # a fixed scale: 0.89 and 0.99 look as different as they are
    assert all(tr["type"] == "scatter" for tr in data["data"])  # no projection drawn
    heat = heatmap.to_dict()["data"][0]
    assert heat["zmin"] <= 0 and heat["zmax"] == 1 and heat["texttemplate"]  # 0.89 is not white; each cell says its value
    headers, rows = render.score_headers(lang, result), render.score_rows(result, lang)
    assert len(headers) == len(rows[0]) and all(cell not in ("", None, "—") for cell in rows[0])  # no blank columns
    assert "#1–#2" in headers[2]
    said = render.notes(result, lang)
    assert ("2-D projection" if lang == "en" else "二维投影") in said  # why the absent charts are absent


def test_enough_sentences_keep_the_projection_and_the_curve(tiny_encoder):
    result = run([tiny_encoder], "bank", BANK)
    assert not render.few(result)
    scatter, _, curve = render.figures(result, "en")
    assert curve is not None and scatter.to_dict()["data"][0]["mode"] == "markers"
    for axis in ("xaxis", "yaxis"):
        low, high = scatter.to_dict()["layout"][axis]["range"]
        values = [x for tr in scatter.to_dict()["data"] for x in tr[axis[0]]]
        assert low < min(values) and max(values) < high  # every marker fully inside its panel
