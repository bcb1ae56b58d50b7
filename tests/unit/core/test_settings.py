"""Every PLAYGROUND_* variable is read once, into one frozen Settings; a malformed one fails naming itself."""

import dataclasses
import os
import pathlib
import re
import subprocess
import sys

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


def test_client_queue_zero_turns_the_per_address_cap_off():
    """README: `PLAYGROUND_CLIENT_QUEUE=0` turns the cap off (it used to fail as "must be at least 1")."""
    assert Settings.from_env({"PLAYGROUND_CLIENT_QUEUE": "0"}).per_client_queue == 0
    assert Settings.from_env({}).per_client_queue == Settings().queue_size // 2
    with pytest.raises(ValueError, match="PLAYGROUND_CLIENT_QUEUE"):
        Settings.from_env({"PLAYGROUND_CLIENT_QUEUE": "-1"})


@pytest.mark.parametrize("cap, status", [(0, 200), (2, 429)])
def test_the_queue_guard_lets_a_busy_address_in_when_the_cap_is_off(use_settings, cap, status):
    """Five events of one address already waiting: with the cap off the sixth is queued, with a cap of 2 refused."""
    import asyncio

    from playground.ui.server.guard import QueueGuard

    use_settings(client_queue=cap)
    sent = []

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})

    async def send(message):
        sent.append(message)

    guard = QueueGuard(app, unread_s=0)
    assert guard.per_client == cap
    guard._slots = {"10.0.0.7": [[None] for _ in range(5)]}  # five events of this address admitted, not yet queued
    scope = {"type": "http", "method": "POST", "path": "/gradio_api/queue/join", "client": ("10.0.0.7", 5), "headers": []}
    asyncio.run(guard(scope, None, send))
    assert sent[0]["status"] == status


def test_importing_any_module_reads_no_setting():
    """Settings are read on first use: with a malformed variable every playground module still imports (the error
    comes when the setting is used, naming it), and `PLAYGROUND_CLIENT_QUEUE=0` imports the sampling backend."""
    code = (
        "import importlib, pkgutil, playground\n"
        "for m in pkgutil.walk_packages(playground.__path__, 'playground.'):\n"
        "    importlib.import_module(m.name)\n"
        "from playground import settings\n"
        "assert settings._current is None, 'a setting was read at import'\n"
    )
    env = {**os.environ, "PLAYGROUND_MAX_MODELS": "three", "PLAYGROUND_CLIENT_QUEUE": "0"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=pathlib.Path(settings.__file__).parents[1])


def test_every_variable_the_readme_says_0_turns_off_accepts_0():
    """PLAYGROUND_CLIENT_QUEUE=0, documented as "off", failed at start-up ("must be at least 1"): the app never
    started. Every variable whose README row says `0` turns it off is read as 0, and the guard then lets all in."""
    readme = (pathlib.Path(settings.__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    off = re.findall(r"^\| `(PLAYGROUND_[A-Z_]+)` \|.*`0` turns it off", readme, flags=re.M)
    assert "PLAYGROUND_CLIENT_QUEUE" in off
    for name in off:
        Settings.from_env({name: "0"})  # no ValueError
    assert Settings.from_env({"PLAYGROUND_CLIENT_QUEUE": "0"}).per_client_queue == 0
