"""A gr.HTML view's script (js_on_load): the shared DOM helpers (assets/view_dom.js), then the view's own file.

Gradio runs js_on_load as one function body, with no modules to import from, so the helpers every view builds its
DOM with (`make`, `svg`, `fill`, `pct`) are written once and put in front of each view's script here.
"""

from pathlib import Path

ASSETS = Path(__file__).resolve().parents[3] / "assets"


def view_script(name: str) -> str:
    """assets/view_dom.js followed by assets/`name`."""
    return "\n".join((ASSETS / f).read_text(encoding="utf-8") for f in ("view_dom.js", name))
