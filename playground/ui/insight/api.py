"""The endpoints of "Look inside a prediction": one per view, each the backend's Result as JSON."""

from __future__ import annotations

from playground.insight import (
    AttributionRequest,
    KnockoutRequest,
    LensRequest,
    PatchRequest,
    run_attribution,
    run_knockout,
    run_lens,
    run_patching,
)
from playground.probes import ProbeRequest, run_probes
from playground.serialize import jsonable
from playground.ui.common.widgets import for_request, friendly_errors


def insight_lens_api(text: str, model: str = "minilm-mlm", top_k: int = 5, lang: str = "en") -> dict:
    """Layer by layer (the logit lens): the model's own output head on every layer's hidden state at the prediction.

    Args:
        text: the sentence, at most 2,000 characters and 128 tokens; a masked LM predicts its [MASK], a causal LM the
            token after it.
        model: a registry key of a masked or causal LM with a block layout the playground knows (bert, gpt2, llama:
            e.g. "minilm-mlm", "e5-mlm", "smollm2-instruct", "gpt-zh").
        top_k: predictions per layer, a whole number from 1 to 10.
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        return jsonable(run_lens(LensRequest(model, text, top_k), for_request(lang)))


def insight_attribution_api(
    text: str, model: str = "minilm-mlm", layer: int = -1, head: int = 0, steps: int = 32, lang: str = "en"
) -> dict:
    """Attribution beside attention: Integrated Gradients and gradient × input per token for log p(answer), one head's
    attention and the attention rollout at the prediction, and IG's completeness (its sum against f(x) − f(baseline)).

    Args:
        text: the sentence (as for /insight_lens).
        model: a masked or causal LM's registry key (as for /insight_lens).
        layer: the shown head's layer, a whole number from -1 (the last) to the model's layers - 1.
        head: the shown head, a whole number from 0 to the model's heads - 1.
        steps: IG's interpolation steps (Gauss-Legendre), a whole number from 2 to 256.
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        return jsonable(run_attribution(AttributionRequest(model, text, layer, head, steps), for_request(lang)))


def insight_knockout_api(text: str, model: str = "minilm-mlm", heads: str = "", top_k: int = 5, lang: str = "en") -> dict:
    """Knock out heads (forward hooks zero their part of W^O's input; head_mask is ignored by transformers 5.23):
    the top-k before and after, and every head alone ranked by how much it changes p(answer).

    Args:
        text: the sentence (as for /insight_lens).
        model: a masked or causal LM's registry key (as for /insight_lens).
        heads: which heads to silence, at most 400 characters: "3.7" (layer.head), "3.7, 4.1", "3" or "3.*" (a
            whole layer), "*" or "all" (every head); "" for none.
        top_k: predictions shown before and after, a whole number from 1 to 10.
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        return jsonable(run_knockout(KnockoutRequest(model, text, heads, top_k), for_request(lang)))


def insight_patching_api(
    text: str,
    model: str = "minilm-mlm",
    source: str = "The capital of Italy is [MASK].",
    layer: int = 0,
    position: int = -1,
    lang: str = "en",
) -> dict:
    """Activation patching: the hidden state entering block `layer` at `position` copied from sentence `source` (A)
    into `text` (B); per position of B, how far its output distribution moved. Causal models: only to the right.

    Args:
        text: sentence B, which runs and receives the patch (as for /insight_lens).
        model: a masked or causal LM's registry key (as for /insight_lens).
        source: sentence A, where the hidden state comes from (at most 2,000 characters).
        layer: the block the patched state enters, a whole number from 0 to the model's layers - 1.
        position: the token position, a whole number from -1 (the first position where A and B differ) to the
            shorter sentence's tokens - 1.
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        return jsonable(run_patching(PatchRequest(model, text, source, layer, position), for_request(lang)))


def insight_probes_api(model: str = "elmo-small", data: str = "en", lang: str = "en") -> dict:
    """Probes per layer: held-out accuracy of linear probes for part of speech and word sense on the same tokens, each
    beside its control task (Hewitt & Liang 2019), selectivity = accuracy - control, and readings computed from the
    curves ("syntax low, semantics high"?, the ELMo papers' layers). Precomputed on fixed data (docs/probes.md).

    Args:
        model: "elmo-small", "minilm" or "e5-small" (Chinese data: "e5-small" only, the one of them trained on Chinese).
        data: "en" (WordNet 3.0's example sentences) or "zh" (HSK sentences tagged by jieba; the polysemy presets).
        lang: "en" or "zh", the language of messages.
    """
    with friendly_errors(lang):
        return jsonable(run_probes(ProbeRequest(model, data), for_request(lang)))
