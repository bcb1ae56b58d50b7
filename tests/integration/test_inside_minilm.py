"""Inside BERT on the bundled MiniLM: the input decomposition is the model's own, the heads read its real config."""

from playground.inside.embeddings_input import TOLERANCE, EmbeddingsRequest, run_embeddings
from playground.inside.heads import HeadsRequest, run_heads
from playground.inside.nsp import NspRequest, run_nsp
from playground.runtime import Runtime


def test_minilm_input_embeddings_equal_its_embedding_layer(minilm):
    run = run_embeddings(
        EmbeddingsRequest("The bank raised rates.", "She sat by the river bank.", "minilm"), Runtime(load=lambda key: minilm)
    )
    assert run.max_abs_diff <= TOLERANCE
    assert run.normed.shape == (len(run.tokens), 384)
    assert run.tokens[0] == "[CLS]" and run.token_type_ids[-1] == 1


def test_minilm_heads_from_its_config():
    run = run_heads(HeadsRequest("minilm"), Runtime())
    assert run.hidden_size == 384
    assert all(h.new_params == h.task_total - h.base_total for h in run.heads)


def test_nsp_offline_uses_minilms_tokenizer():
    run = run_nsp(NspRequest("The cat sat. It slept. Then it woke.", 0, 32), Runtime())
    assert run.layout.tokens[0] == "[CLS]" and run.probes == [] and run.unavailable
