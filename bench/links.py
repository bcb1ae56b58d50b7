"""What a language switch sends, and how long links take, before and after links ran in place (issue 17).

    python bench/links.py                     # updates per language switch (builds the app, no server)
    python bench/links.py http://127.0.0.1:7860/ [reference-url]   # browser timings against running apps

Counts: before, one switch relabelled every registered widget of the page in one event and ran every tab's
redraw as its own event; now it relabels the header and the open tab (other tabs when opened).
Timings (Chromium, headless): a share link opened fresh in Chinese (first Chinese text, first plot), and the
teacher's path landing -> lesson -> try-it -> result for a few lessons, per link. With a reference URL (the
app before this change, e.g. main) the same page loads run there too, in the same session, for the ratio.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from scripts.serve_app import CHROMIUM, CHROMIUM_ARGS  # noqa: E402


def count() -> None:
    import app
    from playground.ui.common import links

    captured = {}
    wire = links.Navigator.wire

    def keep(self, demo, buttons):
        captured["nav"] = self
        return wire(self, demo, buttons)

    links.Navigator.wire = keep
    app.build_app()
    switch = captured["nav"].switch
    loc = switch.loc
    redraw_outputs = {tab: sum(len(step.outputs) for step in steps) for tab, steps in switch.redraws.items()}
    before_updates = len(loc.components()) + sum(redraw_outputs.values())
    before_events = 1 + sum(len(steps) for steps in switch.redraws.values())
    print(f"before: every switch -> {before_updates} component updates in {before_events} events")
    print("after (one event):")
    header = len(loc.components(None)) + redraw_outputs.get(None, 0)
    for tab_id, _, _ in app.TABS:
        n = header + len(loc.components(tab_id)) + redraw_outputs.get(tab_id, 0)
        print(f"  switch while on {tab_id:10s} -> {n:4d} updates ({n / before_updates:.0%} of before)")


def _page(browser, locale="en-US"):
    context = browser.new_context(locale=locale, viewport={"width": 1440, "height": 900})
    return context, context.new_page()


def fresh_link(browser, base: str) -> tuple[float, float]:
    context, page = _page(browser, "zh-CN")
    start = time.time()
    page.goto(f"{base}?tab=attention&view=entropy&layer=2&head=1&lang=zh")
    page.wait_for_function("() => document.body.innerText.includes('本视图的链接')", timeout=180_000)
    chinese = time.time() - start
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=180_000)
    plot = time.time() - start
    context.close()
    return chinese, plot


def teacher_path(browser, base: str, lessons: list[tuple[str, int, str]]) -> list[tuple[str, float, float]]:
    """Landing, then per lesson: pick it, press try-it, wait for the tab's plot, back to Lessons (in the old app the
    try-it reloaded the page, so the next lesson starts on the new page's Lessons tab)."""
    context, page = _page(browser)
    page.goto(base)
    page.locator("#lessons-picker").wait_for(timeout=120_000)
    out = []
    for key, index, selector in lessons:
        page.get_by_role("tab", name="Lessons").click()
        page.locator(f"#lessons-picker input[value='{key}']").check()
        button = page.locator(f"#lesson-{key}-try-{index}")
        button.wait_for(timeout=30_000)
        start = time.time()
        button.click()
        try:
            page.locator(selector).first.wait_for(timeout=180_000)
        except Exception:
            out.append((key, float("nan"), float("nan")))
            continue
        first = time.time() - start
        page.wait_for_function("() => !document.querySelector('.pending')", timeout=180_000)
        out.append((key, first, time.time() - start))
    context.close()
    return out


def browser_timings(urls: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    plot = "[role=tabpanel] .js-plotly-plot >> visible=true"
    lessons = [("mlm", 0, plot), ("attention", 0, plot), ("ex3", 0, plot), ("roberta", 0, plot)]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for url in urls:
            fresh_link(browser, url)  # warm: models loaded, caches filled
            chinese, plot = fresh_link(browser, url)
            print(f"{url}: fresh zh attention link: Chinese text {chinese:.1f} s, plot {plot:.1f} s")
            teacher_path(browser, url, lessons)  # warm
            for key, first, done in teacher_path(browser, url, lessons):
                print(f"  try-it {key:10s} result shown {first:.1f} s, settled {done:.1f} s")
        browser.close()


if __name__ == "__main__":
    if len(sys.argv) > 1:
        browser_timings(sys.argv[1:])
    else:
        count()
