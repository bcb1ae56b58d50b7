"""Every lesson's try-it link, against the app as built: its tab exists, its parameters are that tab's share parameters,
and each value is one the component accepts (playground.ui.common.share.decode). Offline (bundled models) and with every
registered model available (what a server that reaches the hub offers)."""

import pytest

import app
from playground import availability
from playground.lessons import LESSONS, encode
from playground.lessons import pages as lesson_pages
from playground.ui.common.share import decode


def _check_links(demo) -> list[str]:
    tab_ids = [tab_id for tab_id, _, _ in app.TABS]
    links = lesson_pages.lesson_links(tab_ids)
    checked = []
    for lesson in LESSONS:
        for link in links[lesson.key]:
            if not link.query:
                continue
            assert link.tab in tab_ids and link.tab in demo.shared_links, (lesson.key, link.tab)
            params = demo.shared_links[link.tab].params
            assert set(link.params) <= set(params), (lesson.key, set(link.params) - set(params))
            for name, value in link.params.items():
                restored = decode(encode(value), params[name])
                assert restored == (list(value) if isinstance(value, (list, tuple)) else value), (lesson.key, name)
            checked.append(f"{lesson.key}:{link.tab}")
    return checked


def test_offline_links_fill_their_tab():
    demo = app.build_app()
    checked = _check_links(demo)
    # offline, every concept but ELMo (not built yet) and every exercise but the MLM lab has a link; the two T5
    # lessons run on the bundled classroom T5 (docs/models.md), Chinese <-> English
    assert {key.split(":")[0] for key in checked} >= {lesson.key for lesson in LESSONS} - {"elmo", "ex5"}
    links = lesson_pages.lesson_links([tab_id for tab_id, _, _ in app.TABS])
    offline_t5 = [link.params for link in links["encdec"] if link.query]
    assert offline_t5 and all(params["model"] == "t5-classroom" for params in offline_t5)
    assert any("茶" in params["text"] for params in offline_t5)  # the training sentence it translates (its note says so)


def test_offline_exercise_1_runs_in_chinese_on_the_bundled_multilingual_encoder():
    links = lesson_pages.lesson_links([tab_id for tab_id, _, _ in app.TABS])
    first = links["ex1"][0]
    assert first.params["models"] == ["e5-small"] and first.params["word"] == "银行" and "银行存钱" in first.params["sentences"]


@pytest.fixture
def everything_available(monkeypatch):
    monkeypatch.setattr(availability, "check", lambda spec: availability.Availability(True, "hub", ""))


def test_online_links_fill_their_tab(everything_available):
    demo = app.build_app()
    checked = _check_links(demo)
    links = lesson_pages.lesson_links([tab_id for tab_id, _, _ in app.TABS])
    # with the hub, the exercises run the course's own models
    assert links["ex1"][0].params["models"] == ["bert-chinese"]
    assert links["ex2"][0].params["model"] == "gpt2-chinese"
    assert links["ex3"][0].params["models"] == ["bert", "roberta"]
    assert checked


def test_offline_links_pick_the_bundled_masked_lm_and_run_the_statistics():
    """Lesson 6's fill-mask and lesson 11's ELECTRA generator use minilm-mlm (bundled, MiniLM's tokenizer), not only
    SmolLM2; lesson 4 opens the 80/10/10 statistics it talks about (issue 19)."""
    links = lesson_pages.lesson_links([tab_id for tab_id, _, _ in app.TABS])
    fill = next(link for link in links["causal"] if link.tab == "fill_mask")
    assert "minilm-mlm" in fill.params["models"]
    (electra,) = links["electra"]
    assert electra.params["generator"] == "masked:minilm-mlm" and electra.params["model"] == "minilm"
    mlm, ask = links["mlm"]  # the masking view, then "Ask the class" (the Class tab)
    assert ask.tab == "classroom" and ask.params["model"] == "minilm-mlm"
    assert mlm.params["stats"] is True and mlm.params["draws"] >= 1000
