"""Every registered model the view offers is a block layout of the table and checks out on a tiny random twin of its
own architecture (tests/unit/core/test_families.py builds them); every other one is refused in words."""

from __future__ import annotations

import pytest
import torch

from playground.architectures import block_kind
from playground.capture import capture, points
from playground.errors import InputError
from playground.forward import KINDS, formulas, model_keys
from playground.registry import BUILTIN
from tests.unit.core.test_families import tiny_model

STACKED = [s for s in BUILTIN if s.kind in KINDS]


def test_the_menu_has_each_family_the_issue_names():
    keys = model_keys()
    assert {"minilm-mlm", "e5-small", "e5-mlm", "smollm2-instruct", "gpt2", "bert", "bert-chinese", "gpt2-chinese"} <= set(keys)
    assert "roberta" not in keys and "glove" not in keys and "t5-small" not in keys


@pytest.mark.parametrize("spec", STACKED, ids=lambda s: s.key)
def test_each_registered_model_is_shown_and_checked_or_refused(spec):
    model = tiny_model(spec)
    if spec.key not in model_keys():
        with pytest.raises(InputError) as refused:
            block_kind(model, spec.label)
        assert refused.value.code == "forward_unknown_architecture" and spec.label in str(refused.value)
        return
    kind = block_kind(model, spec.label)
    ids = torch.tensor([[5, 17, 42, 8, 23, 61]])
    with torch.inference_mode(), capture(model) as cache:
        model(input_ids=ids)
    ctx = formulas.context(model, kind, ids[0], torch.zeros_like(ids[0]))
    checks = formulas.verify(model, kind, points(model), cache, ctx)
    assert len(checks) == len(cache) >= 14 * model.config.num_hidden_layers
    assert max(c.relative for c in checks.values()) <= 1e-5
