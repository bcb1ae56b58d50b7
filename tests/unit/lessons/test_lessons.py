"""The lesson table: the course's order, both languages for every text, a formula each, and links chosen by availability."""

import re
from urllib.parse import parse_qs

import pytest

from playground.lessons import LESSONS, TryIt, Variant, encode, resolve
from playground.lessons import pages as lesson_pages
from playground.ui.lessons import tab as lessons_tab
from playground.ui.common.strings import STRINGS

CONCEPTS = [
    "static", "elmo", "embeddings", "mlm", "nsp", "causal", "sampling",
    "roberta", "albert", "spanbert", "electra", "xlnet", "attention", "block", "t5", "encdec", "finetune",
]  # fmt: skip


def test_the_course_order_seventeen_concepts_then_five_exercises():
    assert [lesson.key for lesson in LESSONS if not lesson.exercise] == CONCEPTS
    assert [lesson.key for lesson in LESSONS if lesson.exercise] == [f"ex{n}" for n in range(1, 6)]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_every_lesson_has_both_languages_a_formula_and_a_try_it(lesson):
    for part in ("title", "body", "notice", "question"):
        en, zh = STRINGS[f"lessons.{lesson.key}.{part}"]
        assert en.strip() and zh.strip() and en != zh
    assert lesson.formula.startswith("$$") and lesson.formula.endswith("$$") and lesson.formula.count("$$") == 2
    assert lesson.tries
    for tryit in lesson.tries:
        assert tryit.label in STRINGS and tryit.missing in STRINGS and tryit.variants
        assert all(v.note in STRINGS for v in tryit.variants if v.note)


def test_every_lesson_renders_in_both_languages():
    for lesson in LESSONS:
        for lang in ("en", "zh"):
            assert lesson_pages.lesson_label(lesson, lang) in lesson_pages.lesson_markdown(lesson, lang)
            assert lesson_pages.discuss_markdown(lesson, lang)
    labels = [label for label, _ in lessons_tab.picker_choices("zh")]
    assert labels[0].startswith("1 · ") and labels[-1].startswith("练习 5 · ")


def _picker_event(built_app):
    """The Lessons picker's event that fills the card: (a function of (lesson key, language) -> {elem_id or output
    position: update}, the picker). One request per click: the picker's own input event, its fields read by name."""
    blocks = built_app.blocks.values()
    picker = next(block for block in blocks if getattr(block, "elem_id", None) == "lessons-picker")
    lang = next(block for block in blocks if "tp-lang" in (getattr(block, "elem_classes", None) or []))
    for fn in built_app.fns.values():
        if picker in fn.inputs and any(getattr(o, "elem_id", None) == "lesson-text" for o in fn.outputs):
            if not any(target[1] == "input" for target in fn.targets if target[0] == picker._id):
                continue

            def call(key: str, language: str, fn=fn) -> dict:
                values = {c: getattr(c, "value", None) for c in fn.inputs} | {picker: key, lang: language}
                out = fn.fn(values)
                return {getattr(c, "elem_id", None) or c: update for c, update in out.items()}

            return call, picker
    raise AssertionError("no picker event fills the lesson card")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_card_shows_the_picked_lesson_and_only_its_try_it_buttons(built_app, lang):
    """The Lessons tab has one card the picker fills (a card per lesson cost every page load ~100 components):
    each lesson's title, formula and discussion in the page's language, and exactly its own try-it buttons."""
    event, _ = _picker_event(built_app)
    from app import TABS

    links = lesson_pages.lesson_links([tab_id for tab_id, _, _ in TABS])
    for lesson in LESSONS:
        out = event(lesson.key, lang)
        assert lesson_pages.lesson_label(lesson, lang) in out["lesson-text"]
        assert lesson_pages.formula(lesson, lang) in out.values()
        assert lesson_pages.discuss_markdown(lesson, lang) in out.values()
        buttons = {key: update for key, update in out.items() if isinstance(key, str) and "-try-" in key}
        shown = {i for i, update in buttons.items() if update["visible"]}
        assert shown == {i for i in buttons if i.startswith(f"lesson-{lesson.key}-try-")}, (lesson.key, shown)
        # every lesson has a link that runs here, except where every model it needs is missing (their notes say so)
        runnable = any(link.query for link in links[lesson.key])
        assert bool(shown) == runnable, lesson.key
    assert event("not-a-lesson", lang)["lesson-text"] == lesson_pages.lesson_markdown(LESSONS[0], lang)  # a bad link's key


def test_formulas_speak_the_pages_language():
    """A Chinese page showed English words inside its formulas ("static", "random", "your corpus": issue 37, low):
    each \\text{...} of a formula is in Chinese on a Chinese page, but for names (BERT, MLM, IsNext, top-k) and the
    word under study; the English page keeps the formula as written."""
    names = {"MLM", "SBO", "BCE", "Disc", "IsNext", "BERT", "RoBERTa", "top-", "bank"}
    for lesson in LESSONS:
        assert lesson_pages.formula(lesson, "en") == lesson.formula
        words = re.findall(r"\\text\{([^{}]*)\}", lesson_pages.formula(lesson, "zh"))
        english = [w for w in words if w not in names and re.search(r"[a-z]{2,}", w)]
        assert not english, (lesson.key, english)


TRY = TryIt(
    "lessons.try.ex3",
    "fill_mask",
    (
        Variant(("bert", "roberta"), {"text": "a [MASK].", "models": ["bert", "roberta"]}, "lessons.note.ex3_online"),
        Variant(("smollm2-instruct",), {"text": "a [MASK].", "models": ["smollm2-instruct"]}, "lessons.note.ex3_causal"),
    ),
)


def test_the_first_variant_that_can_run_is_offered():
    online = resolve(TRY, {"bert", "roberta", "smollm2-instruct"}, {"fill_mask"}, {"bert", "roberta"})
    assert online.params["models"] == ["bert", "roberta"] and online.note == "lessons.note.ex3_online"
    offline = resolve(TRY, {"smollm2-instruct"}, {"fill_mask"}, {"bert", "roberta"})
    assert offline.note == "lessons.note.ex3_causal"
    query = parse_qs(offline.query)
    assert query == {"tab": ["fill_mask"], "text": ["a [MASK]."], "models": ['["smollm2-instruct"]']}


def test_no_variant_says_why():
    assert resolve(TRY, set(), {"fill_mask"}, {"bert", "roberta"}).note == "lessons.missing.models"  # models exist, not here
    assert resolve(TRY, set(), {"fill_mask"}, set()).note == TRY.missing  # the model is not in this app at all
    assert resolve(TRY, {"bert", "roberta"}, set(), {"bert", "roberta"}).query == ""  # the tab is not in this app


def test_elmo_and_mlm_lab_say_they_are_coming_until_they_exist():
    links = {lesson.key: lesson for lesson in LESSONS}
    mix, words, probes = links["elmo"].tries
    assert resolve(mix, {"minilm", "glove"}, {"polysemy"}, {"minilm", "glove"}).note == "lessons.missing.elmo"
    elmo = resolve(words, {"minilm", "glove"}, {"polysemy"}, {"minilm", "glove"})
    assert elmo.query == "" and elmo.note == "lessons.missing.elmo"
    elmo = resolve(words, {"elmo-small", "glove"}, {"polysemy"}, {"elmo-small", "glove"})
    assert parse_qs(elmo.query)["models"] == ['["elmo-small", "glove"]']
    assert parse_qs(resolve(mix, {"elmo-small"}, {"elmo"}, {"elmo-small"}).query)["s2"] == ["2.0"]
    # the lesson's claim "syntax low, semantics high" links to the probes that test it (the Look-inside tab's view)
    probed = parse_qs(resolve(probes, {"elmo-small"}, {"insight"}, {"elmo-small"}).query)
    assert probed["view"] == ["probes"] and probed["probe_model"] == ["elmo-small"] and probed["probe_lang"] == ["en"]
    lab = links["ex5"].tries[0]
    assert resolve(lab, set(), {"fill_mask"}, set()).note == "lessons.missing.mlm_lab"
    assert resolve(lab, set(), {"mlm_lab"}, set()).query == "tab=mlm_lab"


def test_values_are_encoded_as_share_links_carry_them():
    assert encode(True) == "true" and encode(False) == "false" and encode(0.8) == "0.8" and encode(6) == "6"
    assert encode(["bert-chinese"]) == '["bert-chinese"]' and encode("银行") == "银行"


def test_the_notes_name_the_tab_and_the_variant():
    lesson = next(lesson for lesson in LESSONS if lesson.key == "ex2")
    links = [
        resolve(tryit, {"smollm2-instruct"}, {"sampling"}, {"gpt2-chinese", "smollm2-instruct"})
        for tryit in lesson.tries
        if tryit.tab == "sampling"  # the four sampling buttons (its "Ask the class" opens the Class tab)
    ]
    queries = [parse_qs(link.query) for link in links]
    assert [(q["temperature"], q["show"]) for q in queries[:3]] == [
        (["0.1"], ["generate"]),
        (["0.8"], ["generate"]),
        (["1.5"], ["generate"]),
    ]
    assert queries[3]["show"] == ["compare"] and [queries[3][k] for k in ("t1", "t2", "t3")] == [["0.1"], ["0.8"], ["1.5"]]
    en, zh = lessons_tab.notes_markdown(links, "en"), lessons_tab.notes_markdown(links, "zh")
    assert en.count("- ") == 1 and "Sampling" in en and "not GPT-2" in en  # one note for the four buttons
    assert "采样" in zh and "不是 GPT-2" in zh


def test_previous_and_next_step_through_the_course_and_stop_at_its_ends():
    keys = [lesson.key for lesson in LESSONS]
    assert lessons_tab.step(keys[0], 1) == keys[1] and lessons_tab.step(keys[0], -1) == keys[0]
    assert lessons_tab.step(keys[-1], 1) == keys[-1] and lessons_tab.step("not-a-lesson", 1) == keys[1]


# KaTeX commands the formulas may use (each checked in KaTeX's function list); the browser test
# tests/e2e/test_lessons.py::test_landing_page_is_the_lessons_tab_with_every_formula_rendered_offline renders them all.
KATEX = set(
    "Big approx arg ast begin big cdot cos dots end exp frac gamma ge hat in infty lVert lambda le ll log longrightarrow "
    "mathbb mathcal mathrm max mid min oplus prod qquad quad rVert setminus sim sin sqrt sum text texttt theta tilde times "
    "top".split()
)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_every_formula_uses_only_known_commands(lesson):
    """Adjacent raw strings glue a command to the next word (`\\quad` + `M_{ij}` = `\\quadM_{ij}`, red in KaTeX)."""
    import re

    unknown = set(re.findall(r"\\([A-Za-z]+)", lesson.formula)) - KATEX
    assert not unknown, unknown
