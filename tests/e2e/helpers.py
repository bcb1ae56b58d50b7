"""Helpers for browser tests: screenshots, waiting for Gradio to settle."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


def save_screenshot(page, name: str) -> Path:
    """Full-page PNG into test-artifacts/ (for a person reading a failure). The docs' pictures are made by
    scripts/screenshots.py, never by a test run."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def open_tab(page, tab_id: str) -> None:
    """Open a tab through the share-link mechanism (`?tab=`), which also proves URL restore works."""
    page.goto(f"{page.app_url}?tab={tab_id}")
    wait_opened(page)


def wait_opened(page, timeout: int = 60_000) -> None:
    """Wait until the page-load event ended: until then a later update of the link may set an input back (a radio
    clicked too early was reset to the link's value)."""
    page.locator("html[data-tp-opened]").wait_for(state="attached", timeout=timeout)


def wait_for_tab(page, tab_id: str, timeout: int = 60_000) -> None:
    """Wait until `tab_id` is the selected tab: the page first paints the landing tab, and a share link's restore
    switches afterwards, so "some tab is visible" does not yet say which."""
    page.locator(f"button[role=tab][data-tab-id={tab_id}][aria-selected=true]").wait_for(timeout=timeout)


def recording_page(browser, app_url: str, **options):
    """A fresh context and page (English locale unless `options` say otherwise) with `page.app_url` set, and the list
    it fills with every request outside the app's origin (the caller fails the test when it is not empty)."""
    context = browser.new_context(**({"locale": "en-US"} | options))
    page = context.new_page()
    origin = urlparse(app_url).netloc
    outside: list[str] = []

    def record(request):
        parsed = urlparse(request.url)
        if parsed.scheme in ("http", "https", "ws", "wss") and parsed.netloc != origin:
            outside.append(request.url)

    page.on("request", record)
    page.app_url = app_url
    return context, page, outside
