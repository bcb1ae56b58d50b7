"""Shared fixtures: tiny random models (session-scoped, read-only) and tier markers.

Tiers follow the folders: tests/unit (tiny models, seconds), tests/integration
(bundled real weights, offline), tests/e2e (the running app, Chromium).
"""

import os

import pytest

from tests import tiny_models

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # tests never touch the hub
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")


def pytest_collection_modifyitems(items):
    for item in items:
        path = str(item.path)
        for tier in ("integration", "e2e"):
            if f"{os.sep}{tier}{os.sep}" in path:
                item.add_marker(getattr(pytest.mark, tier))


@pytest.fixture(scope="session")
def tiny_mlm():
    return tiny_models.tiny_bert_mlm()


@pytest.fixture(scope="session")
def tiny_roberta():
    return tiny_models.tiny_roberta_mlm()


@pytest.fixture(scope="session")
def tiny_encoder():
    return tiny_models.tiny_bert_encoder()


@pytest.fixture(scope="session")
def tiny_clm():
    return tiny_models.tiny_gpt2()


@pytest.fixture(scope="session")
def tiny_llama():
    return tiny_models.tiny_llama()


@pytest.fixture(scope="session")
def tiny_glove():
    return tiny_models.tiny_glove()


@pytest.fixture
def fresh_caches():
    """Empty shared caches around a test: results and vectors are cached by registry key, and tests hand different
    tiny models to the same key. Files that need it say `pytestmark = pytest.mark.usefixtures("fresh_caches")`."""
    from playground import cache

    cache.clear_all()
    yield
    cache.clear_all()
