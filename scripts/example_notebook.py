"""Write the example notebook the docs show: exercise 3 in Chinese, exported by /lesson_notebook and executed.

    python scripts/example_notebook.py        # writes docs/examples/ex3-zh.ipynb (offline, the bundled models)

The exercise the course starts with (我[MASK]自然语言处理。 through masked LMs) as a student downloads it, with the
outputs a kernel printed here. tests/unit/lessons/test_notebook.py keeps its cells equal to a fresh export.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "examples" / "ex3-zh.ipynb"
sys.path.insert(0, str(REPO))


def main() -> int:
    os.environ["HF_HUB_OFFLINE"] = "1"  # the kernel inherits it: nothing may come from the hub
    import nbclient
    import nbformat

    from app import TABS
    from playground.lessons.notebook import lesson_notebook

    nb = nbformat.from_dict(lesson_notebook("ex3", "zh", [tab for tab, _, _ in TABS]))
    nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}).execute()
    for cell in nb.cells:  # what a reader needs: the printout, not the kernel's timings or this machine's warnings
        cell.get("metadata", {}).pop("execution", None)  # (tqdm's "IProgress not found": no ipywidgets in CI's kernel)
        if cell.cell_type == "code":
            cell.outputs = [out for out in cell.outputs if out.get("name") != "stderr"]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, OUT)
    print(f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
