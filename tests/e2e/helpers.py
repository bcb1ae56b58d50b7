"""Helpers for browser tests: screenshots, waiting for Gradio to settle."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
# PLAYGROUND_E2E_SCREENSHOTS=1: a PNG at every checkpoint (to look at every view a run visits). Otherwise a page is
# pictured only when its test fails: a full-page picture costs 0.6-2 s of the 2-core machine, ~40 s of the tier.
EVERY_CHECKPOINT = os.environ.get("PLAYGROUND_E2E_SCREENSHOTS") == "1"
# The text of every table on the page, header and rows (Gradio 6 draws a table's body as div rows in .table-wrap).
TABLE_TEXT_JS = "() => [...document.querySelectorAll('.table-wrap')].map(t => t.innerText).join('\\n')"


def save_screenshot(page, name: str) -> Path:
    """Full-page PNG into test-artifacts/ (for a person reading a failure). The docs' pictures are made by
    scripts/screenshots.py, never by a test run."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def checkpoint(page, name: str) -> None:
    """A named point of a journey: pictured now with PLAYGROUND_E2E_SCREENSHOTS=1; otherwise the name is kept, and a
    failure later on this page is pictured as FAILED-<test>-<name> (what the page showed when it failed)."""
    page.tp_checkpoint = name
    if EVERY_CHECKPOINT:
        save_screenshot(page, name)


def picture_failure(page) -> None:
    """The page as it was when its test failed, named after the test and its last checkpoint."""
    test = os.environ.get("PYTEST_CURRENT_TEST", "test").split(" ")[0].split("::")[-1]
    name = re.sub(r"[^\w.-]+", "_", f"FAILED-{test}-{getattr(page, 'tp_checkpoint', 'start')}")[:150]
    try:
        save_screenshot(page, name)
    except Exception as err:  # a closed or crashed page: the failure itself is what matters
        print(f"no picture of the failed page: {err}", file=sys.stderr)


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


# The lesson card shows `key` in `lang`: its title is that lesson's, and the formula KaTeX drew is that lesson's
# (its TeX source, kept by KaTeX in an annotation), so no check reads the card the lesson before left.
LESSON_SHOWN_JS = """([title, tex]) => { const card = document.querySelector('#lesson-card');
  const h2 = card && card.querySelector('h2'); const drawn = card && card.querySelector('.tp-formula annotation');
  return !!h2 && h2.innerText.includes(title) && !!drawn && drawn.textContent.trim() === tex; }"""


def lesson_card(page, key: str, lang: str = "en", timeout: int = 30_000):
    """Wait until the Lessons tab's card shows lesson `key` in `lang`, formula drawn; the card's locator."""
    from playground.lessons import LESSONS
    from playground.lessons.pages import formula, lesson_label

    lesson = next(lesson for lesson in LESSONS if lesson.key == key)
    tex = formula(lesson, lang).strip("$").strip()  # a Chinese card's formula has its \text{} words in Chinese
    page.wait_for_function(LESSON_SHOWN_JS, arg=[lesson_label(lesson, lang), tex], timeout=timeout)
    return page.locator("#lesson-card")


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
    close = context.close

    def close_picturing_a_failure() -> None:
        # Journeys close their context in a `finally:`; an exception in flight there is the test failing.
        if sys.exc_info()[1] is not None:
            for open_page in context.pages:
                picture_failure(open_page)
        close()

    context.close = close_picturing_a_failure
    return context, page, outside
