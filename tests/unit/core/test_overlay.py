"""Loading weights trained here over a bundled base (MiniLM + MLM head): the overlay loader, on a tiny model."""

import pytest
import torch
from safetensors.torch import save_file
from transformers import BertConfig, BertForMaskedLM

from playground import availability
from playground.models import apply_overlay
from playground.registry import ModelSpec, get_spec

CFG = BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=2, num_attention_heads=2, intermediate_size=32)


def model(seed):
    torch.manual_seed(seed)
    return BertForMaskedLM(CFG).eval()


def test_overlay_replaces_exactly_the_tensors_it_names(tmp_path):
    trained, base = model(1), model(2)
    names = ["cls.predictions.bias", "cls.predictions.transform.dense.weight", "bert.encoder.layer.1.output.dense.weight"]
    params = dict(trained.named_parameters())
    save_file({n: params[n].detach().half().contiguous() for n in names}, str(tmp_path / "o.safetensors"))
    untouched = base.bert.encoder.layer[0].output.dense.weight.detach().clone()
    apply_overlay(base, tmp_path / "o.safetensors", missing=names[:2])
    after = dict(base.named_parameters())
    for n in names:
        assert torch.allclose(after[n], params[n].half().float())
    assert torch.equal(base.bert.encoder.layer[0].output.dense.weight, untouched)
    assert base.cls.predictions.decoder.weight.data_ptr() == base.bert.embeddings.word_embeddings.weight.data_ptr()


def test_overlay_that_does_not_fit_is_refused(tmp_path):
    base = model(0)
    save_file({"cls.predictions.bias": torch.zeros(7)}, str(tmp_path / "shape.safetensors"))
    save_file({"no.such.tensor": torch.zeros(3)}, str(tmp_path / "name.safetensors"))
    save_file({"cls.predictions.bias": torch.zeros(50)}, str(tmp_path / "partial.safetensors"))
    for name in ("shape", "name"):
        with pytest.raises(RuntimeError):
            apply_overlay(base, tmp_path / f"{name}.safetensors")
    with pytest.raises(RuntimeError, match="left out"):  # the head's transform would stay random
        apply_overlay(base, tmp_path / "partial.safetensors", missing=["cls.predictions.transform.dense.weight"])


def test_a_missing_overlay_makes_the_model_unavailable_with_a_reason():
    spec = get_spec("minilm-mlm")
    assert spec.kind == "masked" and spec.overlay
    ghost = ModelSpec(**{**spec.__dict__, "key": "ghost", "overlay": "minilm_mlm/nothing-here.safetensors"})
    state = availability.check(ghost)
    assert not state.ok and state.code == "no_overlay"


def test_a_truncated_spec_loads_only_its_first_layers_and_takes_an_overlay_for_them(tmp_path):
    """e5-mlm reads a middle layer of e5-small: num_layers keeps the first N layers, the rest are never built."""
    from playground.models import config_overrides

    full = model(3)
    full.save_pretrained(tmp_path / "base")
    spec = ModelSpec("cut", "tiny", "masked", "BERT", "tiny", num_layers=1)
    assert config_overrides(spec) == {"num_hidden_layers": 1}
    assert config_overrides(get_spec("minilm-mlm")) == {}
    cut, info = BertForMaskedLM.from_pretrained(str(tmp_path / "base"), output_loading_info=True, **config_overrides(spec))
    assert len(cut.bert.encoder.layer) == 1
    assert torch.equal(cut.bert.encoder.layer[0].output.dense.weight, full.bert.encoder.layer[0].output.dense.weight)
    trained = {"bert.encoder.layer.0.output.dense.bias": torch.ones(16), "cls.predictions.bias": torch.ones(50)}
    save_file(trained, str(tmp_path / "o.safetensors"))
    apply_overlay(cut, tmp_path / "o.safetensors", info.get("missing_keys", ()))
    assert torch.equal(cut.bert.encoder.layer[0].output.dense.bias, torch.ones(16))
    save_file({"bert.encoder.layer.1.output.dense.bias": torch.ones(16)}, str(tmp_path / "deep.safetensors"))
    with pytest.raises(RuntimeError):  # an overlay for a layer the truncated model does not have
        apply_overlay(cut, tmp_path / "deep.safetensors")


def test_a_load_whose_gaps_are_checked_here_prints_no_load_report(tmp_path):
    """MiniLM + MLM head printed transformers' "checkpoint seem corrupted" and MISSING table in every script and
    notebook; the overlay covers those keys (apply_overlay checks it), so the report is off for that load only."""
    import logging

    from transformers.utils import logging as hf_logging

    from playground.models import quiet_report

    model(4).bert.save_pretrained(tmp_path / "base")  # no MLM head: what the bundled MiniLM is
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    library = logging.getLogger("transformers")
    library.addHandler(handler)
    try:
        BertForMaskedLM.from_pretrained(str(tmp_path / "base"))
        assert any("MISSING" in r.getMessage() for r in records)  # the premise: the head it did not find is reported
        records.clear()
        before = hf_logging.get_verbosity()
        with quiet_report():
            assert not hf_logging.is_progress_bar_enabled()
            BertForMaskedLM.from_pretrained(str(tmp_path / "base"))
        assert not any("MISSING" in r.getMessage() for r in records)
        assert hf_logging.get_verbosity() == before and hf_logging.is_progress_bar_enabled()  # put back afterwards
    finally:
        library.removeHandler(handler)
