"""Every PLAYGROUND_* variable is read once, into one frozen Settings; a malformed one fails naming itself."""

import dataclasses
import pathlib
import re

import pytest

from playground import settings
from playground.settings import Settings


def test_defaults_and_parsing():
    assert Settings.from_env({}) == Settings()
    s = Settings.from_env(
        {
            "PLAYGROUND_DEVICE": "cpu",
            "PLAYGROUND_CACHE_DIR": "/tmp/x",
            "PLAYGROUND_MAX_MODELS": "5",
            "PLAYGROUND_QUEUE_SIZE": " 9 ",
        }
    )
    assert (s.device, s.cache_dir, s.max_models, s.queue_size) == ("cpu", pathlib.Path("/tmp/x"), 5, 9)
    assert Settings.from_env({"PLAYGROUND_MAX_MODELS": ""}).max_models == Settings().max_models  # empty = unset


@pytest.mark.parametrize(
    "name, raw", [("PLAYGROUND_MAX_MODELS", "three"), ("PLAYGROUND_QUEUE_SIZE", "0"), ("PLAYGROUND_GENERATION_TIME_LIMIT", "x")]
)
def test_a_malformed_variable_fails_naming_itself(name, raw):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: raw})


def test_settings_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().max_models = 9  # type: ignore[misc]


def test_every_playground_variable_is_a_field_and_read_only_in_settings():
    """grep: no other module reads a PLAYGROUND_* variable, and each one named in settings.py is parsed."""
    root = pathlib.Path(settings.__file__).parent
    source = (root / "settings.py").read_text(encoding="utf-8")
    named = set(re.findall(r'"(PLAYGROUND_[A-Z_]+)"', source))
    assert len(named) == len(dataclasses.fields(Settings))
    for path in [*root.rglob("*.py"), root.parent / "app.py"]:
        if path.name != "settings.py":
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"environ(?:\.get)?\(\s*[\"']PLAYGROUND_|environ\[\s*[\"']PLAYGROUND_", text), path
