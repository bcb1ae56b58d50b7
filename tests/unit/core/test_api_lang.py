"""`lang` on every API endpoint: "en" or "zh" (a locale such as "zh-CN" reads as its language); anything else is
refused with one clear error in both languages, never answered silently in English (issue 37, item 25).

The endpoints are read from the built app, so a new one is covered without editing this file.
"""

from __future__ import annotations

import inspect

import gradio as gr
import pytest

from playground import models
from tests.unit.core.test_api_bad_values import _arguments, _call, _no_lab_training, _no_load

BAD_LANGS = ["fr", "english", "", "zhx", " zh", 5, None, ["zh"], True]
GOOD_LANGS = ["en", "zh", "zh-CN", "zh_Hans", "EN", "en-GB"]


@pytest.fixture(scope="module")
def lang_endpoints(built_app):
    found = {
        fn.api_name: fn.fn
        for fn in built_app.fns.values()
        if fn.api_name
        and fn.fn is not None
        and getattr(fn, "api_visibility", "public") == "public"
        and "lang" in inspect.signature(fn.fn).parameters
    }
    assert len(found) >= 14
    return found


@pytest.fixture
def no_loads(monkeypatch, app_runtime):
    app_runtime(_no_load, load_tokenizer=_no_load)
    monkeypatch.setattr(models, "load", _no_load)
    monkeypatch.setattr(models, "load_tokenizer", _no_load)
    _no_lab_training(monkeypatch)


def _outcome(fn, kwargs) -> str:
    try:
        _call(fn, kwargs)
    except gr.Error as err:
        return err.message
    except Exception as exc:  # noqa: BLE001  (a model asked for: the request was accepted)
        return f"accepted ({type(exc).__name__})"
    return "accepted"


@pytest.mark.parametrize("bad", BAD_LANGS, ids=repr)
def test_every_endpoint_refuses_a_language_it_does_not_speak_in_both_languages(lang_endpoints, no_loads, bad):
    failures = []
    for api_name, fn in lang_endpoints.items():
        message = _outcome(fn, {**_arguments(api_name, fn), "lang": bad})
        if not ('lang must be "en" or "zh"' in message and "必须是" in message):
            failures.append(f"/{api_name} lang={bad!r}: {message[:120]!r}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("good", GOOD_LANGS)
def test_every_endpoint_takes_both_languages_and_their_locales(lang_endpoints, no_loads, good):
    refused = [
        f"/{name}: {message[:120]!r}"
        for name, fn in lang_endpoints.items()
        if "lang must be" in (message := _outcome(fn, {**_arguments(name, fn), "lang": good}))
    ]
    assert not refused, "\n".join(refused)


def test_each_app_process_has_its_own_export_folder_and_removes_it_at_exit(tmp_path):
    """Issue 37, item 25: the export folder had a fixed name in the shared temporary folder, shared and pruned by every
    app process on the machine. Two processes here: two folders, each gone when its process ends."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = "from playground.ui.common import widgets; print(widgets.EXPORT_DIR); print(widgets.export_file('a.csv', 'x'))"
    env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    runs = [subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True) for _ in "ab"]
    folders = [Path(run.stdout.split()[0]) for run in runs]
    files = [Path(run.stdout.split()[1]) for run in runs]
    assert folders[0] != folders[1] and all(f.is_relative_to(d) for f, d in zip(files, folders))
    assert all(d.parent == tmp_path for d in folders) and not any(d.exists() for d in folders)
