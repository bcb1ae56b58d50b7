"""The running app, offline: a subprocess on a free port, a gradio_client, and Debian Chromium.

Every page fails its test if it requested anything outside the app's own origin
(fonts, analytics, CDNs): the classroom may have no internet, and nothing should leak.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from scripts.serve_app import CHROMIUM, CHROMIUM_ARGS, OFFLINE_ENV
from scripts.serve_app import free_port as _free_port
from tests.e2e.helpers import picture_failure, recording_page

ROOT = Path(__file__).resolve().parents[2]
APP_LOG: list[Path] = []  # the running app's log, once it started


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing browser test shows what the app logged while it ran (CI keeps no other copy of the log)."""
    report = (yield).get_result()
    if report.when == "call":
        item.tp_failed = report.failed  # the `page` fixture pictures a failed test's page before closing it
    if not APP_LOG or not APP_LOG[0].exists():
        return
    if report.when == "setup":
        item.app_log_start = APP_LOG[0].stat().st_size
    elif report.when == "call" and report.failed:
        with open(APP_LOG[0], "rb") as log:
            log.seek(getattr(item, "app_log_start", 0))
            text = log.read().decode("utf-8", errors="replace")
        report.sections.append(("app log during the test", text[-6000:] or "(nothing)"))


@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    port = _free_port()
    log = tmp_path_factory.mktemp("app") / "app.log"
    env = os.environ | OFFLINE_ENV | {"PORT": str(port), "PYTHONUNBUFFERED": "1"}
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    APP_LOG[:] = [log]
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 180
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            break
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()
                pytest.fail(f"app did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def client(app_url):
    from gradio_client import Client

    return Client(app_url, verbose=False)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(request, browser, app_url):
    """A fresh page (English locale) that records every request and fails on any outside the app's origin. Blank:
    every test opens the address it is about (a link, a tab), so the app is loaded once per test, not twice (the
    landing page loaded first cost a page load per test, and a test's own goto could abort it mid-restore)."""
    context, page, outside = recording_page(browser, app_url, viewport={"width": 1400, "height": 1000})
    yield page
    if getattr(request.node, "tp_failed", False):
        picture_failure(page)
    context.close()
    assert not outside, f"the page requested outside its origin: {outside[:10]}"
