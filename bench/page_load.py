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

import os
import statistics
import subprocess
import sys
import time
import urllib.request

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from scripts.serve_app import CHROMIUM, CHROMIUM_ARGS, OFFLINE_ENV, free_port  # noqa: E402

PLAIN = (
    "import gradio as gr, os\n"
    "with gr.Blocks() as demo:\n"
    "    gr.Markdown('plain', elem_id='plain')\n"
    "    demo.load(None, None, None, js=\"() => { document.documentElement.dataset.tpOpened = '1'; }\")\n"
    "demo.launch(server_port=int(os.environ['PORT']))\n"
)


def start(args: list[str], cwd: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = os.environ | OFFLINE_ENV | {"PORT": str(port)}
    proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 240
    while True:
        try:
            urllib.request.urlopen(url, timeout=2)
            return proc, url
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                raise SystemExit(f"{args} in {cwd} did not start")
            time.sleep(0.5)


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
    servers = {name: start(args, cwd) for name, (args, cwd) in apps.items()}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in servers}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(n):
                for name, (_, url) in servers.items():  # in turn: a drift of the machine hits all alike
                    times[name].append(load(browser, url))
    finally:
        for proc, _ in servers.values():
            proc.terminate()
    plain_wall, plain_task = (statistics.median(x[i] for x in times["plain Gradio page"][2:]) for i in (0, 1))
    print(f"{n} loads each, medians without the first two:")
    for name, runs in times.items():
        wall, task = (statistics.median(x[i] for x in runs[2:]) for i in (0, 1))
        ratios = f"({wall / plain_wall:4.2f}x plain)  main thread {task:5.2f} s ({task / plain_task:4.2f}x)"
        print(f"  {name:24s} load {wall:5.2f} s {ratios}")


if __name__ == "__main__":
    main()
