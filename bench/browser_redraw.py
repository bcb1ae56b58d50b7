"""A slider drag in the browser: how many requests reach the server, and how long until the figure is redrawn.

    python bench/browser_redraw.py [other-app-dir]

Starts this app offline (and, with `other-app-dir`, the app of another checkout, e.g. a worktree of main before the
one-declaration change) and, in headless Chromium, opens the attention tab's one-head view on MiniLM, then drags the
layer slider from 0 to its end with the mouse (as a student does: many `input` events on the way), and the
sampling tab's temperature slider likewise; on the polysemy tab (bank, MiniLM + GloVe) it picks layer 3 in the
layer menu. It counts the requests the page sent during each drag, and times the
redraw: from the drag's release to the figure's title showing the new value (polled every animation frame). The
same drag on both apps, in one run: the ratio is the point (docs/measurements.md, bench/RESULTS.md).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from scripts.serve_app import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402

DRAGS = {  # tab link, plot, slider (index in its row), the text the redrawn figure then shows
    "attention layer": (
        "?tab=attention&model=minilm&view=head&text=The+animal+didn%27t+cross+the+street+because+it+was+too+tired.",
        "#attention-plot",
        "#attention-sliders input[type=range] >> nth=0",
        "Layer 5, head 0",
    ),
    "sampling temperature": (
        "?tab=sampling&model=smollm2-instruct&prompt=The+future+of+AI+is",
        "#sampling-next-plot",
        "#sampling-controls input[type=range] >> nth=0",
        "After temperature 2",
    ),
}


CHOICES = {  # tab link, plot, the menu's label, the option picked, the text the redrawn figure then shows
    "polysemy layer": (
        "?tab=polysemy&word=bank&models=%5B%22minilm%22%2C+%22glove%22%5D&sentences="
        + "%0A".join(
            s.replace(" ", "+")
            for s in (
                "money+|+She+deposited+her+salary+at+the+bank+this+morning.",
                "money+|+The+bank+approved+the+loan+for+our+new+house.",
                "river+|+They+had+a+picnic+on+the+bank+of+the+river.",
                "river+|+The+fisherman+sat+quietly+on+the+muddy+bank.",
            )
        ),
        "#polysemy-heatmap",
        "Layer to plot",
        "3",
        "layer 3",
    ),
}
# The same choice, then the Compare button: how another layer was shown before the browser redrew it (one run).
CHOICES["polysemy layer + Compare"] = (*CHOICES["polysemy layer"], "#polysemy-run")


def choose(
    browser, url: str, link: str, plot: str, label: str, option: str, shown: str, button: str | None = None
) -> tuple[int, float | None]:
    """A menu choice instead of a drag: (requests sent, seconds from the click on the option to the redrawn figure).
    With `button`, the choice is followed by a click on it (the way before the browser redrew: the server's run)."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(url + link)
    page.locator(f"{plot} .js-plotly-plot").wait_for(timeout=240_000)
    page.wait_for_function("() => !document.querySelector('.pending')", timeout=240_000)
    page.wait_for_timeout(1000)  # the page has settled (nothing measured here)
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url))
    page.get_by_label(label).click()
    start = time.perf_counter()
    page.get_by_role("option", name=option, exact=True).click()
    try:
        if button:  # the server's run: from the choice to the server's new figure (a new layout object)
            figure = f"document.querySelector('{plot} .js-plotly-plot')"
            page.evaluate(f"window.tpOldLayout = {figure}.layout")
            page.locator(button).click()
            page.wait_for_function(f"{figure}.layout !== window.tpOldLayout", polling="raf", timeout=120_000)
        page.wait_for_function(f"document.querySelector('{plot}').innerText.includes({shown!r})", polling="raf", timeout=30_000)
        seconds = time.perf_counter() - start
    except Exception:  # noqa: BLE001 -- Playwright's TimeoutError: the page does not redraw on a choice at all
        seconds = None
    page.wait_for_timeout(1500)
    plotly = page.evaluate("document.documentElement.dataset.tpRedrawMs || ''")  # the redraw's own time (Plotly)
    if plotly and not button:
        print(f"  (the browser's redraw itself, Plotly's update: {float(plotly):.0f} ms)")
    page.close()
    return len(sent), seconds


def drag(browser, url: str, link: str, plot: str, slider: str, shown: str) -> tuple[int, float | None]:
    """(requests sent during the drag, seconds from release to the redrawn figure; None: not redrawn in 30 s)."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(url + link)
    page.locator(f"{plot} .js-plotly-plot").wait_for(timeout=240_000)
    page.wait_for_timeout(1000)  # the page has settled (nothing measured here)
    page.locator(slider).scroll_into_view_if_needed()  # the mouse can only drag what is in the window
    box = page.locator(slider).bounding_box()
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url))
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 2, y)
    page.mouse.down()
    for step in range(1, 21):
        page.mouse.move(box["x"] + 2 + (box["width"] - 4) * step / 20, y)
    start = time.perf_counter()
    page.mouse.up()
    try:
        page.wait_for_function(f"document.querySelector('{plot}').innerText.includes({shown!r})", polling="raf", timeout=30_000)
        seconds = time.perf_counter() - start
    except Exception:  # noqa: BLE001 -- Playwright's TimeoutError: the page does not redraw on a drag at all
        seconds = None
    page.wait_for_timeout(1500)  # requests a drag still triggers after its release (a debounce, a chained event)
    page.close()
    return len(sent), seconds


def main() -> None:
    from playwright.sync_api import sync_playwright

    apps = {"this app": ROOT}
    if len(sys.argv) > 1:
        apps[f"app in {sys.argv[1]}"] = os.path.abspath(sys.argv[1])
    with contextlib.ExitStack() as stack, sync_playwright() as p:
        urls = {name: stack.enter_context(serve(args=[sys.executable, "app.py"], cwd=Path(cwd))) for name, cwd in apps.items()}
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        measures = [(what, drag, args) for what, args in DRAGS.items()] + [(what, choose, a) for what, a in CHOICES.items()]
        only = os.environ.get("BENCH_ONLY")  # e.g. "polysemy": the measures whose name holds it
        for what, measure, args in measures:
            if only and only not in what:
                continue
            for name, url in urls.items():
                measure(browser, url, *args)  # warm: the model loaded, the view cached
                requests, seconds = measure(browser, url, *args)
                shown = (
                    "not redrawn (the page waits for a button)" if seconds is None else f"redrawn {1000 * seconds:5.0f} ms after"
                )
                print(f"{what:22} {name:28} requests {requests:3d}  {shown}")
        browser.close()


if __name__ == "__main__":
    main()
