"""An attacker's link and text in Chromium.

Script injection: the payload goes into every share-link parameter of every tab and into every text box, the
view is run, and every link in every toast is clicked: no dialog may fire and no `javascript:` link may exist.
(Every tab read in Chinese after a run is checked on the Space app's one-page walk: tests/e2e/test_hosting.py.)
"""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.e2e.helpers import wait_for_tab

PAYLOAD = '<svg><a href="javascript:alert(1)"><text x=5 y=20>open</text></a></svg>'
TABS = [tab_id for tab_id, _, _ in __import__("app").TABS]
# Tabs whose main button starts minutes of work (the MLM lab trains a model): their own e2e runs them on tiny budgets.
NO_RUN = {"mlm_lab"}
# The first primary button of a tab runs its main view.
RUNNING = ".progress-text, .eta-bar, .progress-level"


@pytest.fixture(scope="module")
def share_params():
    import app

    return {tab: list(shared.params) for tab, shared in app.build_app().shared_links.items()}


def settle(page, timeout=120_000):
    """Wait until no component shows Gradio's progress indicator (a run that already ended passes at once)."""
    page.wait_for_function(f"() => !document.querySelector({RUNNING!r})", timeout=timeout)


def _javascript_links(page) -> list[str]:
    return page.evaluate(
        """() => [...document.querySelectorAll('a, [href], [*|href]')].flatMap(el =>
               [el.getAttribute('href'), el.getAttribute('xlink:href')]).filter(h => h && /^\\s*javascript:/i.test(h))"""
    )


@pytest.mark.parametrize("tab", TABS)
def test_a_script_payload_in_every_link_parameter_and_text_box_never_runs(page, share_params, tab):
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"{page.app_url}?{urlencode({'tab': tab, **{name: PAYLOAD for name in share_params[tab]}})}")
    wait_for_tab(page, tab)
    settle(page)
    for box in page.locator(".tabitem:visible textarea:not([disabled]), .tabitem:visible input[type=text]:not([disabled])").all():
        if box.is_editable():
            box.fill(PAYLOAD)
    if tab not in NO_RUN:
        page.locator(".tabitem:visible button.primary").first.click()
    settle(page)
    for link in page.locator(".toast-body a, .toast-body [href]").all():
        link.click(force=True, timeout=5_000)
    assert not dialogs, f"a script ran: {dialogs}"
    assert not _javascript_links(page)
