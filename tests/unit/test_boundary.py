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
