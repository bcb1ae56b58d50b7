"""The forward-pass view's renderer: a `ForwardResult` -> the value the page's script draws, in the reader's language.

The script (assets/forward_view.js) switches stage, layer, head and temperature itself, from this one value: the
result as JSON (every stage at the chosen token, every layer's attention, norms, lens, compact logits) and every
text it writes, as templates in the page's language.
"""

from __future__ import annotations

from typing import Any

from playground.serialize import jsonable
from playground.ui.common.i18n import t
from playground.ui.common.strings import STRINGS
from playground.ui.common.widgets import escape_md, provenance

PREFIX = "forward."
# the texts the script writes: its own labels, and one title and one sentence per stage
SCRIPT_TEXTS = ("forward.ui.", "forward.stage.", "forward.what.", "forward.kind.")


def texts(lang: str) -> dict[str, str]:
    return {key.removeprefix(PREFIX): t(key, lang) for key in STRINGS if key.startswith(SCRIPT_TEXTS)}


def view_model(result: Any, lang: str) -> dict[str, Any]:
    """The gr.HTML value: the result and the script's texts (the script sets them as text, never as markup)."""
    return {"result": jsonable(result), "texts": texts(lang)}


def info_markdown(result: Any, lang: str) -> str:
    """Provenance, and how closely every stage matched its formula (the view's claim, measured on this pass)."""
    check = t("forward.checked", lang, error=f"{result.max_error:.1e}", seconds=f"{result.seconds:.2f}")
    kind = f"forward.kind.{result.block_kind}"
    label = t(kind, lang) if kind in STRINGS else escape_md(result.block_label)  # a kind added to the table, unworded
    return f"{provenance(result.model_id, result.device, lang)} · {label}\n\n{check}"
