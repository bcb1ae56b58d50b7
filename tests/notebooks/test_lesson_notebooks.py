"""Every lesson and exercise exports as a notebook that runs headless (nbclient, a local ipykernel) against the bundled
models, offline, each cell within its timeout, and each code cell prints what the app returns for that try-it.

Slower than the others (a kernel, every bundled model loaded): its own tier, `-m notebooks`. One lesson runs as
exported in a kernel of its own; all of them run in one more kernel, the namespace emptied between lessons.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app import TABS
from playground.lessons import LESSONS
from playground.lessons.notebook import code_of, lesson_notebook
from playground.lessons import pages as lesson_pages
from playground.lessons.pages import lesson_links
from tests.integration.test_code_snippets import check_printout

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

pytestmark = pytest.mark.notebooks

REPO = Path(__file__).resolve().parents[2]
TAB_IDS = [tab for tab, _, _ in TABS]
CELL_TIMEOUT_S = 300  # one cell: a model's first load plus its forward passes, on a slow shared CPU


def _stdout(cell: dict) -> str:
    return "".join(out.get("text", "") for out in cell.get("outputs", []) if out.get("name") == "stdout")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_notebooks_are_valid_nbformat_4_in_the_pages_language(lang):
    for lesson in LESSONS:
        nb = nbformat.from_dict(lesson_notebook(lesson.key, lang, TAB_IDS))
        nbformat.validate(nb)
        formula = lesson_pages.formula(lesson, lang)  # its \text{...} words in the page's language
        assert nb.nbformat == 4 and nb.cells[0].cell_type == "markdown" and formula in nb.cells[0].source
    assert "静态向量" in lesson_notebook("", "zh", TAB_IDS)["cells"][0]["source"]  # the first lesson, in Chinese


def _asked(key: str) -> list[tuple[str, dict]]:
    return [code for link in lesson_links(TAB_IDS)[key] if (code := code_of(link)) is not None]


@pytest.fixture
def workdir(tmp_path, monkeypatch) -> Path:
    """Where a kernel runs: a bare folder outside the repository, as a student's own (issue 37, item 10: the notebooks
    ran only with the repository importable and its assets/ beside them). No PYTHONPATH and no copy of assets/: each
    cell finds the playground through PLAYGROUND_HOME (its first lines), reads the lab's sample from there, and the
    lab's Trainer script writes its run and model folders here, not into the checkout."""
    monkeypatch.delenv("PYTHONPATH", raising=False)
    monkeypatch.setenv("PLAYGROUND_HOME", str(REPO))
    from playground.folders import configured_cache_dir

    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(configured_cache_dir()))  # the conversions made already
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/transformer-playground to fall back on
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the kernel inherits it: nothing may come from the hub
    return tmp_path


def _execute(nb, workdir: Path) -> float:
    client = nbclient.NotebookClient(
        nb, timeout=CELL_TIMEOUT_S, kernel_name="python3", resources={"metadata": {"path": str(workdir)}}
    )
    start = time.perf_counter()
    client.execute()
    return time.perf_counter() - start


def _check(key: str, cells: list, asked: list[tuple[str, dict]]) -> None:
    assert len(cells) == len(asked), key
    for cell, (view, request) in zip(cells, asked):
        assert not [out for out in cell.outputs if out.output_type == "error"], (key, cell.outputs)
        check_printout(view, request, _stdout(cell))


WHOLE = "ex3"  # run as exported in its own kernel, so not again in the shared one


def test_one_lesson_notebook_runs_as_exported_in_a_fresh_kernel(workdir):
    """The file a student downloads, whole, in its own kernel (exercise 3: two masked LMs, Chinese, the e5 conversion)."""
    nb = nbformat.from_dict(lesson_notebook(WHOLE, "en", TAB_IDS))
    took = _execute(nb, workdir)
    print(f"\nnotebook {WHOLE} in {took:.1f} s")
    _check(WHOLE, [cell for cell in nb.cells if cell.cell_type == "code"], _asked(WHOLE))


def test_every_lesson_notebook_runs_offline_and_prints_the_apps_results(workdir):
    """Every lesson's code cells, in ONE kernel: before each lesson `%reset -f` empties the namespace, so a cell that
    leans on another lesson's variables fails as it would in its own notebook; what stays is what a fresh kernel
    would load again anyway (imported modules). One kernel start and one torch/transformers import instead of 21
    (the tier took 230 s with a kernel per lesson). Exercise 3 ran whole in a kernel of its own (the test above)."""
    lessons = [(lesson.key, _asked(lesson.key)) for lesson in LESSONS]
    lessons = [(key, asked) for key, asked in lessons if asked and key != WHOLE]
    cells, owner = [], []
    for key, asked in lessons:
        cells.append(nbformat.v4.new_code_cell("%reset -f"))
        owner.append(None)
        exported = nbformat.from_dict(lesson_notebook(key, "en", TAB_IDS))
        for cell in exported.cells:
            if cell.cell_type == "code":
                cells.append(cell)
                owner.append(key)
    nb = nbformat.v4.new_notebook(
        cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    )
    took = _execute(nb, workdir)
    print(f"\n{len(lessons)} lessons' notebooks, {len(cells) - len(lessons)} code cells, in {took:.1f} s")
    for key, asked in lessons:
        _check(key, [cell for cell, who in zip(nb.cells, owner) if who == key], asked)
