"""The backend never imports the UI toolkit: it must run in a notebook or a script without gradio."""

import subprocess
import sys


def test_backend_does_not_import_gradio():
    code = (
        "import sys, pkgutil, importlib, playground\n"
        "for m in pkgutil.walk_packages(playground.__path__, 'playground.'):\n"
        "    if not m.name.startswith('playground.ui'):\n"
        "        importlib.import_module(m.name)\n"
        "assert 'gradio' not in sys.modules, 'gradio imported by the backend'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_figures_never_import_torch():
    """Figure modules draw results; importing them must not pull in torch (seconds of import, and the wrong layer)."""
    code = (
        "import sys, pkgutil, importlib, playground.figures as f\n"
        "for m in pkgutil.walk_packages(f.__path__, 'playground.figures.'):\n"
        "    importlib.import_module(m.name)\n"
        "assert 'torch' not in sys.modules, 'torch imported by a figure module'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
