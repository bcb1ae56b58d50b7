"""The fields of a MaskingRequest, checked through the one set of validators (playground/checks.py): whatever arrives
through the API (None, lists, inf, NaN, fractions, lone surrogates, huge integers) is refused with a clear InputError,
never passed on to numpy or torch to fail with a library message ("Overflow when unpacking long long").
"""

from __future__ import annotations

from dataclasses import replace

from playground import checks
from playground.masking.encoding import MAX_TOKENS
from playground.masking.stats import MAX_DRAWS

MAX_TEXT = 2000  # characters: a sentence (only the first 64 tokens are used anyway)
MAX_EPOCHS = 20
MAX_KEY = 200  # characters of a model, objective or generator key


def validate(request):
    """The request with its numbers normalised (ints as int, probabilities as float), or InputError."""
    return replace(
        request,
        text=checks.text(request.text, "text", MAX_TEXT),
        model=checks.text(request.model, "model", MAX_KEY),
        strategy=checks.text(request.strategy, "strategy", MAX_KEY),
        seed=checks.seed(request.seed),
        mlm_probability=checks.probability(request.mlm_probability, "mlm_probability"),
        mask_replace_prob=checks.probability(request.mask_replace_prob, "mask_replace_prob"),
        random_replace_prob=checks.probability(request.random_replace_prob, "random_replace_prob"),
        epochs=checks.whole(request.epochs, "epochs", 1, MAX_EPOCHS),
        prefix_len=None if request.prefix_len is None else checks.whole(request.prefix_len, "prefix_len", 1, MAX_TOKENS),
        generator=checks.text(request.generator, "generator", MAX_KEY),
        draws=checks.whole(request.draws, "draws", 0, MAX_DRAWS),
    )
