"""ELMo in plain PyTorch: AllenNLP-format weights, layer vectors, scalar mix, biLM predictions.

Backend only (no gradio). Modules: chars (character ids), options (sizes),
charcnn / lstm / model (the network), weights (HDF5 load/save), mix (scalar
mix), api (embed, bilm_predictions), bundled (the small model in assets/elmo), views (the ELMo tab's three
entries: run_elmo_mix, run_elmo_bilm, run_elmo_oov, and their requests and results).
"""

from .api import (
    BilmPredictions,
    DirectionPrediction,
    ElmoLayers,
    TokenPrediction,
    bilm_predictions,
    bilm_predictions_batch,
    embed,
)
from .bundled import BUNDLED_DIR, load_bundled
from .chars import batch_char_ids, word_char_ids
from .mix import ScalarMix, scalar_mix
from .model import ElmoBiLm, ElmoModel
from .options import ElmoOptions, load_options
from .views import (
    ElmoBilmRequest,
    ElmoBilmResult,
    ElmoMixRequest,
    ElmoMixResult,
    ElmoOovRequest,
    ElmoOovResult,
    run_elmo_bilm,
    run_elmo_mix,
    run_elmo_oov,
)
from .weights import load_elmo, save_weights

__all__ = [
    "BUNDLED_DIR",
    "BilmPredictions",
    "DirectionPrediction",
    "ElmoBiLm",
    "ElmoLayers",
    "ElmoModel",
    "ElmoOptions",
    "ScalarMix",
    "TokenPrediction",
    "batch_char_ids",
    "bilm_predictions",
    "bilm_predictions_batch",
    "embed",
    "load_bundled",
    "load_elmo",
    "load_options",
    "save_weights",
    "scalar_mix",
    "word_char_ids",
    "ElmoBilmRequest",
    "ElmoBilmResult",
    "ElmoMixRequest",
    "ElmoMixResult",
    "ElmoOovRequest",
    "ElmoOovResult",
    "run_elmo_bilm",
    "run_elmo_mix",
    "run_elmo_oov",
]
