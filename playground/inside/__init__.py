"""Inside BERT: the views the lessons need that look inside the architecture rather than at its predictions.

- `embeddings_input`: BERT's input = token + segment + position embeddings, summed and normalised.
- `params`: ALBERT's savings, counted on models built from published configs on the meta device.
- `nsp`: next-sentence prediction, how its training pairs are built, RoBERTa's packing, ALBERT's sentence order.
- `heads`: which encoder outputs feed each fine-tuning head, and how many parameters the head adds.
"""

from playground.inside.embeddings_input import EmbeddingsRequest, EmbeddingsRun, run_embeddings
from playground.inside.heads import HeadsRequest, HeadsRun, run_heads
from playground.inside.nsp import NspRequest, NspRun, run_nsp
from playground.inside.params import ParamsRequest, ParamsRun, run_params

__all__ = [
    "EmbeddingsRequest",
    "EmbeddingsRun",
    "HeadsRequest",
    "HeadsRun",
    "NspRequest",
    "NspRun",
    "ParamsRequest",
    "ParamsRun",
    "run_embeddings",
    "run_heads",
    "run_nsp",
    "run_params",
]
