"""The attention demo's JSON endpoint (/attention): one head's matrix and the summaries."""

from __future__ import annotations

from playground import attention as att
from playground.attention import AttentionRequest, run_attention
from playground.serialize import jsonable
from playground.ui.common.widgets import for_request
from playground.ui.common.widgets import friendly_errors


def attention_api(
    model: str, text: str, text_b: str = "", layer: int = 0, head: int = 0, row_start: int = 0, lang: str = "en"
) -> dict:
    """Attention of one layer and head (tokens, T x T matrix in row windows) and the summaries, as JSON.

    Args:
        model: a registry key of a Transformer (e.g. "minilm", "bert", "gpt2", "smollm2-instruct").
        text: the sentence, at most 5,000 characters and 512 tokens.
        text_b: a second sentence for sentence-pair models ("" for none), at most 5,000 characters.
        layer: a whole number from 0 to the model's layers - 1.
        head: a whole number from 0 to the model's heads - 1.
        row_start: the first query row of the window returned, from 0 to the tokens - 1; the window holds at most
            40,000 cells, so 40,000 // T rows (79 rows at 506 tokens; the page draws 256 at a time).
        lang: "en" or "zh", the language of messages and labels in the result.
    """
    request = AttentionRequest(model, text, text_b, layer, head, row_start)  # the backend checks every type
    with friendly_errors(lang):
        shown = run_attention(request, for_request(lang))
        return jsonable(att.attention_json(shown, shown.row_start))
