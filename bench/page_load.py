"""What a page load of the app costs the browser, against a plain Gradio page measured in the same run.

    python bench/page_load.py [N] [other-app-dir]

Starts the app offline (and, with `other-app-dir`, the app of another checkout, e.g. a worktree of main before a
change) and a one-Markdown Gradio Blocks app, then loads each N times in turn in headless Chromium, a fresh context
per load as a student's first visit (and each browser test) has: the time until the page's first event ended
(`html[data-tp-opened]`, the landing lesson drawn) and Chromium's main-thread task time (CDP `TaskDuration`).
Medians, the first two loads left out (warm-up); the ratio to the plain page is the point (docs/measurements.md):
nearly all of a load is Gradio's own front end, which pays for every component and event of the page.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from scripts.serve_app import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402

PLAIN = (
    "import gradio as gr, os\n"
    "with gr.Blocks() as demo:\n"
    "    gr.Markdown('plain', elem_id='plain')\n"
    "    demo.load(None, None, None, js=\"() => { document.documentElement.dataset.tpOpened = '1'; }\")\n"
    "demo.launch(server_port=int(os.environ['PORT']))\n"
)


def load(browser, url: str) -> tuple[float, float]:
    context = browser.new_context(locale="en-US", viewport={"width": 1440, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable")
    start_s = time.perf_counter()
    page.goto(url)
    page.locator("html[data-tp-opened]").wait_for(state="attached", timeout=120_000)
    wall = time.perf_counter() - start_s
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    context.close()
    return wall, metrics["TaskDuration"]


def main() -> None:
    from playwright.sync_api import sync_playwright

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    apps = {"plain Gradio page": ([sys.executable, "-c", PLAIN], ROOT), "this app": ([sys.executable, "app.py"], ROOT)}
    if len(sys.argv) > 2:
        apps[f"app in {sys.argv[2]}"] = ([sys.executable, "app.py"], os.path.abspath(sys.argv[2]))
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in apps}
    with contextlib.ExitStack() as stack, sync_playwright() as p:
        urls = {name: stack.enter_context(serve(args=args, cwd=Path(cwd))) for name, (args, cwd) in apps.items()}
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(n):
            for name, url in urls.items():  # in turn: a drift of the machine hits all alike
                times[name].append(load(browser, url))
    plain_wall, plain_task = (statistics.median(x[i] for x in times["plain Gradio page"][2:]) for i in (0, 1))
    print(f"{n} loads each, medians without the first two:")
    for name, runs in times.items():
        wall, task = (statistics.median(x[i] for x in runs[2:]) for i in (0, 1))
        ratios = f"({wall / plain_wall:4.2f}x plain)  main thread {task:5.2f} s ({task / plain_task:4.2f}x)"
        print(f"  {name:24s} load {wall:5.2f} s {ratios}")


if __name__ == "__main__":
    main()
