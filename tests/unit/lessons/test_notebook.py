"""Lessons as notebooks: nbformat-4 structure, text in the page's language, one parsing code cell per try-it with a
script, and a clear refusal for an unknown lesson (execution: tests/notebooks)."""

from __future__ import annotations

import ast

import pytest

from playground.errors import InputError
from playground.lessons import LESSONS
from playground.lessons.notebook import code_of, lesson_notebook
from playground.lessons.pages import lesson_links

TABS = ["lessons", "fill_mask", "polysemy", "elmo", "masking", "sampling", "attention", "inside", "mlm_lab"]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_each_lesson_is_a_notebook_with_one_code_cell_per_scripted_try_it(lesson):
    nb = lesson_notebook(lesson.key, "en", TABS)
    assert nb["nbformat"] == 4 and nb["metadata"]["kernelspec"]["name"] == "python3"
    assert nb["cells"][0]["cell_type"] == "markdown" and lesson.formula in nb["cells"][0]["source"]
    codes = [cell["source"] for cell in nb["cells"] if cell["cell_type"] == "code"]
    scripted = [link for link in lesson_links(TABS)[lesson.key] if code_of(link) is not None]
    assert len(codes) == len(scripted)
    for source in codes:
        ast.parse(source)
    assert len({cell["id"] for cell in nb["cells"]}) == len(nb["cells"])


def test_the_notebook_follows_the_pages_language_and_defaults_to_the_first_lesson():
    en, zh = lesson_notebook("", "en", TABS), lesson_notebook(None, "zh", TABS)
    assert en["metadata"]["transformer_playground"] == {"lesson": LESSONS[0].key, "lang": "en"}
    assert en["cells"][0]["source"] != zh["cells"][0]["source"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in zh["cells"][0]["source"])


def test_the_five_exercises_export_too():
    exercises = [lesson for lesson in LESSONS if lesson.exercise]
    assert len(exercises) == 5
    for lesson in exercises:
        assert lesson_notebook(lesson.key, "zh", TABS)["cells"]


def test_an_unknown_lesson_is_refused_in_words():
    with pytest.raises(InputError) as refused:
        lesson_notebook("nope", "en", TABS)
    assert "lesson" in str(refused.value) and "static" in str(refused.value)  # names the choices


def test_elmo_and_every_inside_view_try_it_has_its_script():
    views = {code_of(link)[0] for link in lesson_links(TABS)["elmo"] if link.query and link.tab == "elmo"}
    assert views == {"elmo_vectors"}
    inside = {code_of(link)[0] for ls in lesson_links(TABS).values() for link in ls if link.query and link.tab == "inside"}
    assert {"inside_nsp", "inside_params", "inside_heads"} <= inside
    params = [code_of(link) for ls in lesson_links(TABS).values() for link in ls if link.query and link.tab == "inside"]
    assert ("inside_params", {"base": "bert-base", "embedding_size": 128, "share_layers": "none"}) in params


def test_exercise_5_notebook_is_the_labs_trainer_script_on_the_bundled_sample():
    nb = lesson_notebook("ex5", "en", TABS)
    (cell,) = [c["source"] for c in nb["cells"] if c["cell_type"] == "code"]
    assert "Trainer(" in cell and "TrainingArguments(" in cell and "assets/mlm_lab/medicine.txt" in cell


def test_the_docs_example_notebook_is_what_the_export_gives_today():
    """docs/examples/ex3-zh.ipynb (scripts/example_notebook.py) is shown as what a student downloads: its cells must
    not drift from the export (rerun the script after changing exercise 3 or its scripts)."""
    import json
    from pathlib import Path

    example = json.loads((Path(__file__).resolve().parents[3] / "docs" / "examples" / "ex3-zh.ipynb").read_text("utf-8"))
    fresh = lesson_notebook("ex3", "zh", TABS)
    as_text = lambda cells: [(c["cell_type"], "".join(c["source"])) for c in cells]  # noqa: E731
    assert as_text(example["cells"]) == as_text(fresh["cells"])
    assert any(out.get("text") for c in example["cells"] if c["cell_type"] == "code" for out in c["outputs"])  # executed
