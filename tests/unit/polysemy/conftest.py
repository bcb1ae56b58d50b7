"""Polysemy tests hand the backend tiny models under their own keys ("tiny-bert", ...): the backend refuses any key
outside the allow-list before loading, so for these tests the tiny specs are on it (module-scoped, as some results
are computed once per module; removed again after each module)."""

import pytest

from playground.registry import registry


@pytest.fixture(scope="module", autouse=True)
def tiny_keys_allow_listed(tiny_mlm, tiny_roberta, tiny_encoder, tiny_clm, tiny_llama, tiny_glove):
    added = {lm.spec.key: lm.spec for lm in (tiny_mlm, tiny_roberta, tiny_encoder, tiny_clm, tiny_llama, tiny_glove)}
    assert not set(added) & set(registry())
    registry().update(added)
    yield
    for key in added:
        registry().pop(key, None)
