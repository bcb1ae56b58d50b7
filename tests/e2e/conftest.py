"""The running app, offline: a subprocess on a free port, a gradio_client, and Debian Chromium.

Every page fails its test if it requested anything outside the app's own origin
(fonts, analytics, CDNs): the classroom may have no internet, and nothing should leak.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Callable

import pytest

from scripts import serve_app
from scripts.serve_app import CHROMIUM, CHROMIUM_ARGS, stop
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


def start_app(log: Path, env: dict | None = None) -> tuple[subprocess.Popen, str]:
    """`python app.py` offline on a free port (scripts/serve_app.start), with `env` added, its output in `log`."""
    with open(log, "w") as out:
        return serve_app.start(env=env, log=out)


def wait_answering(url: str, log: Path, alive: Callable[[], bool] = lambda: True, timeout_s: float = 180) -> None:
    serve_app.wait_answering(url, timeout_s, alive, log.read_text)


# Under pytest-xdist (scripts/test.sh runs this tier on two workers), the controller starts one app for every worker:
# {"proc", "url", "log"}. A worker's tests then share its loaded models, as a class shares one server; two apps, one
# per worker, loaded every model twice and made the tier slower than one worker.
SHARED: dict = {}


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """xdist's controller, as each worker starts: the shared app (started with the first worker, so it loads while the
    workers import and collect), its address and log handed to the worker."""
    if not SHARED:
        log = Path(tempfile.mkdtemp(prefix="tp-e2e-app-")) / "app.log"
        proc, url = start_app(log)
        SHARED.update(proc=proc, url=url, log=log)
    node.workerinput["tp_app_url"] = SHARED["url"]
    node.workerinput["tp_app_log"] = str(SHARED["log"])


# The longest journeys' files (35-45 s each), scheduled first: xdist hands out whole files in collection order, and the
# lab's journey collected late ran alone on one worker for its last 40 s while the other had finished.
LONGEST_FIRST = ("test_lab_model.py", "test_hosting.py", "test_classroom.py")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.path.name not in LONGEST_FIRST)  # stable: the order within each part is kept


def pytest_unconfigure(config):
    if SHARED:
        stop(SHARED.pop("proc"))
        shutil.rmtree(SHARED.pop("log").parent, ignore_errors=True)  # a failed test's report already holds its part


@pytest.fixture(scope="session")
def app_url(request, tmp_path_factory):
    shared = getattr(request.config, "workerinput", {})
    if "tp_app_url" in shared:  # an xdist worker: the controller's app (its log then shows every worker's requests)
        log, url = Path(shared["tp_app_log"]), shared["tp_app_url"]
        APP_LOG[:] = [log]
        wait_answering(url, log)  # an app that dies at start: its log after the deadline
        yield url
        return
    log = tmp_path_factory.mktemp("app") / "app.log"
    proc, url = start_app(log)
    APP_LOG[:] = [log]
    try:
        wait_answering(url, log, alive=lambda: proc.poll() is None)
        yield url
    finally:
        stop(proc)


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
