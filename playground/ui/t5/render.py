"""The text-to-text view's renderer: a `TextToTextResult` -> the value the page's script draws, in the reader's language.

The script (assets/t5_view.js) switches the step, the attention family, the layer and the head itself, from this one
value: the run as JSON (every step's distribution and cross-attention, the three families) and every text it writes,
as templates in the page's language. Tokens are set as text there, never as markup (`<extra_id_0>` stays visible).
"""

from __future__ import annotations

from typing import Any

from playground.ui.common.i18n import t
from playground.ui.common.strings import STRINGS
from playground.ui.common.widgets import provenance

PREFIX = "t5.ui."


def texts(lang: str) -> dict[str, str]:
    return {key.removeprefix(PREFIX): t(key, lang) for key in STRINGS if key.startswith(PREFIX)}


def view_model(result: Any, lang: str) -> dict[str, Any]:
    """The gr.HTML value: the run and the script's texts."""
    return {"result": result.to_dict(), "texts": texts(lang)}


def info_markdown(result: Any, lang: str) -> str:
    """Provenance, the model's shape and the run's length, and a note when the answer was cut short."""
    enc, heads = result.encoder_attention.shape[:2]
    line = t(
        "t5.info",
        lang,
        provenance=provenance(result.model_id, result.device, lang),
        enc=enc,
        dec=result.decoder_attention.shape[0],
        heads=heads,
        steps=len(result.steps),
        seconds=f"{result.seconds:.2f}",
    )
    return line if result.finished else f"{line}\n\n{t('t5.not_finished', lang)}"
