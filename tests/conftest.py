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
def tiny_t5():
    return tiny_models.tiny_t5()


@pytest.fixture(scope="session")
def tiny_glove():
    return tiny_models.tiny_glove()


@pytest.fixture(scope="session")
def built_app():
    """The app's Blocks, built once for the tests that read its structure (events, config, API info): a build is
    several seconds of the unit tier. Read it, never change it."""
    import app

    return app.build_app()


@pytest.fixture
def use_settings(monkeypatch):
    """`use_settings(cache_dir=...)`: this test runs under these settings (playground.settings, restored after)."""
    import dataclasses

    from playground import settings

    def use(**changes):
        monkeypatch.setattr(settings, "_current", dataclasses.replace(settings.current(), **changes))

    return use


@pytest.fixture
def app_runtime(monkeypatch):
    """`app_runtime(models)`: the page's and the API's events run on a fresh Runtime serving `models` (a dict by key,
    or a `load(key)`), with empty caches of its own; returned, so a test can look at its caches. Nothing global is
    wiped: the app's own runtime is put back after the test."""
    from playground.runtime import Runtime
    from playground.serve import runtime as app

    def use(models, load_tokenizer=None) -> Runtime:
        get = models.__getitem__ if isinstance(models, dict) else models
        runtime = Runtime(
            load=lambda key, **_: get(key),
            load_tokenizer=load_tokenizer or (lambda key: get(key).tokenizer),
        )
        monkeypatch.setattr(app, "APP", runtime)
        return runtime

    return use
