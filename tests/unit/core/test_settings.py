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


def test_every_variable_the_readme_says_0_turns_off_accepts_0():
    """PLAYGROUND_CLIENT_QUEUE=0, documented as "off", failed at start-up ("must be at least 1"): the app never
    started. Every variable whose README row says `0` turns it off is read as 0, and the guard then lets all in."""
    readme = (pathlib.Path(settings.__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    off = re.findall(r"^\| `(PLAYGROUND_[A-Z_]+)` \|.*`0` turns it off", readme, flags=re.M)
    assert "PLAYGROUND_CLIENT_QUEUE" in off
    for name in off:
        Settings.from_env({name: "0"})  # no ValueError
    assert Settings.from_env({"PLAYGROUND_CLIENT_QUEUE": "0"}).per_client_queue == 0
