"""What the registry and the model card say about ELMo's sizes is what the files build (issue 19)."""

import re
from pathlib import Path

import pytest
import torch

from playground.elmo.model import ElmoBiLm
from playground.elmo.options import ElmoOptions
from playground.registry import get_spec

ROOT = Path(__file__).resolve().parents[3]
# AllenNLP's published char CNN (every published ELMo): widths 1..7, 2048 filters in all
FILTERS = [[1, 32], [2, 32], [3, 64], [4, 128], [5, 256], [6, 512], [7, 1024]]


def published_options(name: str) -> ElmoOptions:
    """Options from AllenNLP's file name, elmo_<layers>x<cells>_<projection>_<filters>cnn_<n>xhighway."""
    layers, cells, projection, filters, highway = map(int, re.search(r"(\d)x(\d+)_(\d+)_(\d+)cnn_(\d)xhighway", name).groups())
    assert filters == sum(n for _, n in FILTERS)
    lstm = dict(use_skip_connections=True, projection_dim=projection, cell_clip=3, proj_clip=3, dim=cells, n_layers=layers)
    cnn = dict(activation="relu", filters=FILTERS, n_highway=highway, embedding={"dim": 16}, n_characters=262)
    return ElmoOptions.from_dict({"lstm": lstm, "char_cnn": cnn | {"max_characters_per_token": 50}})


@pytest.mark.parametrize("key", ["elmo-allennlp-original", "elmo-allennlp-small"])
def test_the_registry_label_states_the_parameters_the_published_options_build(key):
    spec = get_spec(key)
    with torch.device("meta"):
        model = ElmoBiLm(published_options(spec.hf_id))
    stated = float(re.search(r"([\d.]+)M parameters", spec.label).group(1))
    assert round(sum(p.numel() for p in model.parameters()) / 1e6, 1) == stated


def test_the_bundled_softmax_has_8000_rows_including_the_three_specials():
    rows = (ROOT / "assets/elmo/vocab.txt").read_text().splitlines()
    assert len(rows) == 8000 and rows[:3] == ["<S>", "</S>", "<UNK>"]
    card = (ROOT / "docs/models.md").read_text()  # the bundled ELMo's model card
    assert "8,000 rows" in card and f"{len(rows) - 3:,} most frequent" in card
