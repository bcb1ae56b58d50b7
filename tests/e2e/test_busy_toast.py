"""Gradio's own toasts in the page's language (issue 37, item 23).

A full queue is worded by Gradio's client itself ("This application is currently busy. Please try again."), and the
queue guard's per-address refusal (HTTP 429) reaches the page as the guard's English text: a Chinese page showed
both in English. Here the browser's /queue/join is answered as a full queue (503) or as the guard's refusal (429),
so no real load is needed; the page must show the Chinese text on a Chinese page and Gradio's English on an English
one.
"""

from __future__ import annotations

import json

import pytest

from playground.ui.common.strings import STRINGS
from tests.e2e.helpers import checkpoint, wait_opened

JOIN = "**/gradio_api/queue/join*"
TOAST = '[data-testid="toast-body"]'
REFUSALS = {
    "busy": (503, {"detail": "Queue is full."}),
    "per_address": (
        429,
        {"detail": "Too many requests waiting from your address (32): wait for them to finish, then try again."},
    ),
}


@pytest.mark.parametrize("refusal", sorted(REFUSALS))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_refused_run_is_told_in_the_pages_language(page, refusal, lang):
    status, body = REFUSALS[refusal]
    page.goto(f"{page.app_url}?tab=attention&lang={lang}")
    wait_opened(page)
    page.locator("#attention-run").wait_for(timeout=60_000)
    page.route(JOIN, lambda route: route.fulfill(status=status, content_type="application/json", body=json.dumps(body)))
    page.locator("#attention-run").click()
    toast = page.locator(TOAST).first
    toast.wait_for(timeout=30_000)
    english, chinese = STRINGS[f"toast.{refusal}"]
    expected = chinese if lang == "zh" else english
    page.wait_for_function(
        "([sel, text]) => [...document.querySelectorAll(sel)].some(t => t.innerText.includes(text))",
        arg=[TOAST, expected],
        timeout=10_000,
    )
    shown = toast.inner_text()
    checkpoint(page, f"toast-{refusal}-{lang}")
    if lang == "zh":
        assert english not in shown and "Error" not in shown, shown
