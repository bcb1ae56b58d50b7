"""An attacker's link and text, and a Chinese reader's page, in Chromium.

Script injection: the payload goes into every share-link parameter of every tab and into every text box, the
view is run, and every link in every toast is clicked: no dialog may fire and no `javascript:` link may exist.
Language: every tab in Chinese shows none of the UI's English strings and no literal Markdown markers.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from playground.ui.common.i18n import t
from playground.ui.common.strings import STRINGS
from tests.e2e.helpers import wait_for_tab, wait_opened

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


def _settle(page, timeout=120_000):
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
    _settle(page)
    for box in page.locator(".tabitem:visible textarea:not([disabled]), .tabitem:visible input[type=text]:not([disabled])").all():
        if box.is_editable():
            box.fill(PAYLOAD)
    if tab not in NO_RUN:
        page.locator(".tabitem:visible button.primary").first.click()
    _settle(page)
    for link in page.locator(".toast-body a, .toast-body [href]").all():
        link.click(force=True, timeout=5_000)
    assert not dialogs, f"a script ran: {dialogs}"
    assert not _javascript_links(page)


def _english_strings() -> list[str]:
    """UI fragments that only exist in English: the parts between format fields, long enough to mean something."""
    out = set()
    for en, zh in STRINGS.values():
        if en == zh:
            continue
        for part in re.split(r"\{[^}]*\}", en):
            part = part.strip(" .:,;()·-–—\n")
            if len(part) >= 12 and re.search(r"[a-z]{3,} [a-z]{3,}", part):
                out.add(part)
    return sorted(out)


def test_every_tab_reads_chinese_after_a_run(page):
    """One Chinese page, every tab in turn as a student clicks through them: a tab shown after the switch is relabelled
    when it is shown (the switch relabels what is visible), and a run's result is Chinese too."""
    page.goto(f"{page.app_url}?tab=lessons&lang=zh")
    wait_opened(page)
    page.wait_for_function("() => document.querySelector('.tp-lang input[value=zh]')?.checked", timeout=60_000)
    for tab in TABS:
        page.locator(f"button[role=tab][data-tab-id={tab}]").click()
        wait_for_tab(page, tab)
        # Every tab has a share button whose label differs in the two languages (a tab title like "ELMo" does not),
        # so it tells when this tab's relabel has landed.
        page.wait_for_function(
            "(t) => [...document.querySelectorAll('.tabitem button')].some(b => b.offsetParent && b.innerText.trim() === t)",
            arg=t("common.share", "zh"),
            timeout=60_000,
        )
        if tab not in NO_RUN:
            page.locator(".tabitem:visible button.primary").first.click()
        _settle(page)
        text = page.locator(".tabitem:visible").first.inner_text()
        english = [s for s in _english_strings() if s in text]
        assert not english, f"English left in the Chinese {tab} tab: {english[:5]}"
        assert "**" not in text and "__" not in text, f"{tab}: literal Markdown markers on screen"
