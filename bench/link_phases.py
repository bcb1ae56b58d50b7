"""Where a try-it link's time goes: the browser before the request, the server, the page after (issue 19).

    nice -n 10 python bench/link_phases.py [url] [lesson[index] ...]   # starts the app offline when no url is given

A lighter probe than bench/teacher_path.py: a few links, each pressed on a fresh page (first run), then
again on another fresh page (warm: the server's caches hold the view). For each press, in Chromium (1440x900,
English), times from the click: the queue/join POST sent (and its body size: what the page sends back), the
server's `process_starts`, its first streamed result, `process_completed`, the streamed bytes, and the moment the
tab's result plot shows a figure drawn after the click. Server = starts -> completed; page = completed -> drawn.
Prints a table; asserts nothing about time.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.teacher_path import MARK_JS, NEW_PLOT_JS, SETTLED_JS, links  # noqa: E402
from scripts.serve_app import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402

# Tee every queue/data stream and the join POSTs: (time since the mark, kind, bytes) into window.__events.
TEE_JS = """(() => {
  window.__events = []; window.__t0 = performance.now();
  const note = (kind, size) => window.__events.push([performance.now() - window.__t0, kind, size]);
  const orig = window.fetch;
  window.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input.url;
    if (url.includes('/queue/join')) note('join', (init && init.body && init.body.length) || 0);
    const response = await orig(input, init);
    if (!url.includes('/queue/data') || !response.body) return response;
    const [mine, theirs] = response.body.tee();
    (async () => {
      const reader = mine.getReader(); const decoder = new TextDecoder(); let buffer = '';
      for (;;) {
        const {done, value} = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, {stream: true});
        let cut;
        while ((cut = buffer.indexOf('\\n\\n')) >= 0) {
          const block = buffer.slice(0, cut); buffer = buffer.slice(cut + 2);
          const m = block.match(/"msg":\\s*"([a-z_]+)"/);
          note(m ? m[1] : 'other', block.length);
        }
      }
    })();
    return new Response(theirs, {headers: response.headers, status: response.status});
  };
})()"""
MARK_T0 = "() => { window.__events = []; window.__t0 = performance.now(); }"


def press(page, lesson: str, index: int, tab: str, plot: str | None) -> dict:
    page.get_by_role("tab", name="Lessons").click()
    page.locator(f"#lessons-picker input[value='{lesson}']").check()
    button = page.locator(f"#lesson-{lesson}-try-{index}")
    button.wait_for(timeout=60_000)
    page.wait_for_function("() => !document.querySelector('.pending')", timeout=240_000)
    page.evaluate(MARK_JS)
    page.evaluate(MARK_T0)
    start = time.perf_counter()
    button.click()
    if plot:
        page.wait_for_function(NEW_PLOT_JS, arg=plot, timeout=240_000, polling=20)
    else:
        page.wait_for_function(SETTLED_JS, arg=tab, timeout=240_000, polling=20)
    drawn = (time.perf_counter() - start) * 1000
    with contextlib.suppress(Exception):  # a press whose completion never came shows as nan
        page.wait_for_function("() => window.__events.some((e) => e[1] === 'process_completed')", timeout=30_000)
    events = page.evaluate("() => window.__events")

    def first(kind):
        return next((e[0] for e in events if e[1] == kind), float("nan"))

    streamed = [e for e in events if e[1] in ("process_generating", "process_completed")]
    completed = first("process_completed")
    return {
        "join": first("join"),
        "body": next((e[2] for e in events if e[1] == "join"), 0),
        "starts": first("process_starts"),
        "first": first("process_generating"),
        "completed": completed,
        "drawn": drawn,
        "kb": sum(e[2] for e in streamed) / 1024,
        "messages": len(streamed),
    }


def main(base: str, wanted: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    todo = [x for x in links() if not wanted or f"{x[0]}[{x[1]}]" in wanted or x[0] in wanted]
    rows = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for run in ("first", "warm"):  # the warm pass on a fresh page: the same page would draw nothing new
            context = browser.new_context(locale="en-US", viewport={"width": 1440, "height": 900})
            context.add_init_script(TEE_JS)
            page = context.new_page()
            page.goto(base)
            page.locator("#lessons-picker").wait_for(timeout=180_000)
            page.wait_for_function("() => document.documentElement.dataset.tpOpened === '1'", timeout=180_000)
            for lesson, index, tab, plot in todo:
                rows.append((f"{lesson}[{index}]->{tab}", run, press(page, lesson, index, tab, plot)))
                print(*rows[-1], flush=True)
            context.close()
        browser.close()
    print("link                    | run   | join ms | body KB | starts | 1st result | completed | drawn ms | KB streamed | msgs")
    for name, run, r in rows:
        print(
            f"{name:23s} | {run:5s} | {r['join']:7.0f} | {r['body'] / 1024:7.1f} | {r['starts']:6.0f} | {r['first']:10.0f}"
            f" | {r['completed']:9.0f} | {r['drawn']:8.0f} | {r['kb']:11.1f} | {r['messages']:4d}"
        )


if __name__ == "__main__":
    args = sys.argv[1:]
    url = args.pop(0) if args and args[0].startswith("http") else None
    with contextlib.nullcontext(url) if url else serve() as base:
        main(base, args)
