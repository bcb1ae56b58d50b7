"""Every lesson and exercise exports as a notebook that runs headless (nbclient, a local ipykernel) against the bundled
models, offline, within its time budget, and each code cell prints what the app returns for that try-it.

Slow (one fresh kernel per lesson, each loading its models): its own tier, `-m notebooks`.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from app import TABS
from playground.lessons import LESSONS
from playground.ui.lessons.notebook import code_of, lesson_notebook
from playground.ui.lessons.tab import lesson_links
from tests.integration.test_code_snippets import check_printout

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

pytestmark = pytest.mark.notebooks

REPO = Path(__file__).resolve().parents[2]
TAB_IDS = [tab for tab, _, _ in TABS]
CELL_TIMEOUT_S = 300  # one cell: a model's first load plus its forward passes, on a slow shared CPU
NOTEBOOK_BUDGET_S = 900  # measured 21-146 s per lesson on the shared 2-core machine (load ~25)


def _stdout(cell: dict) -> str:
    return "".join(out.get("text", "") for out in cell.get("outputs", []) if out.get("name") == "stdout")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_notebooks_are_valid_nbformat_4_in_the_pages_language(lang):
    for lesson in LESSONS:
        nb = nbformat.from_dict(lesson_notebook(lesson.key, lang, TAB_IDS))
        nbformat.validate(nb)
        assert nb.nbformat == 4 and nb.cells[0].cell_type == "markdown" and lesson.formula in nb.cells[0].source
    assert "静态向量" in lesson_notebook("", "zh", TAB_IDS)["cells"][0]["source"]  # the first lesson, in Chinese


@pytest.mark.parametrize("key", [lesson.key for lesson in LESSONS])
def test_notebook_runs_offline_and_prints_the_apps_results(key):
    nb = nbformat.from_dict(lesson_notebook(key, "en", TAB_IDS))
    asked = [code for link in lesson_links(TAB_IDS)[key] if (code := code_of(link)) is not None]
    code_cells = [cell for cell in nb.cells if cell.cell_type == "code"]
    assert len(code_cells) == len(asked)
    if not code_cells:
        pytest.skip(f"lesson {key} has no try-it with a script yet")
    os.environ["HF_HUB_OFFLINE"] = "1"  # the kernel inherits it: nothing may come from the hub
    client = nbclient.NotebookClient(
        nb, timeout=CELL_TIMEOUT_S, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}
    )
    start = time.perf_counter()
    client.execute()
    took = time.perf_counter() - start
    print(f"\nnotebook {key}: {len(code_cells)} code cells in {took:.1f} s")
    assert took < NOTEBOOK_BUDGET_S
    for cell, (view, request) in zip(code_cells, asked):
        assert not [out for out in cell.outputs if out.output_type == "error"], cell.outputs
        check_printout(view, request, _stdout(cell))
