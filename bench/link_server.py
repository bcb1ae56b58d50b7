"""A try-it link's server time, in process: Gradio's own `process_api` over the link's whole stream (issue 19).

    python bench/link_server.py [query-substring ...]     # every lesson link when none is given

For each lesson link (the in-app link event a try-it button fires), the event is run through `Blocks.process_api`
-- the handler, Gradio's pre- and postprocessing of every yield, the session's config updates -- as the server runs
it for a page, on a fresh session each time: once cold (models loaded, caches filled), then three times warm
(median). Beside it, the handler alone (our code: the backend views served from the caches, the renderers),
warm, median of three. What is left between the two is Gradio's work on what the link sends. Prints seconds and
the number of streamed updates; asserts nothing about time.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import statistics
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(wanted: list[str]) -> None:
    from gradio.state_holder import SessionState

    import app

    demo = app.build_app()
    links = [f for f in demo.fns.values() if getattr(f.fn, "__name__", "") == "go"]

    def query(fn) -> str:
        return inspect.getclosurevars(fn.fn).nonlocals["query"]

    async def through_gradio(fn, state) -> tuple[float, int, int]:
        inputs = [getattr(c, "value", None) for c in fn.inputs]
        iterator, start, yields, updates = None, time.perf_counter(), 0, 0
        while True:
            out = await demo.process_api(fn, inputs, state=state, iterator=iterator, session_hash="bench", event_id="e")
            iterator, yields = out.get("iterator"), yields + 1
            updates += sum(1 for d in out.get("data", []) if d is not None)
            if iterator is None or not out.get("is_generating"):
                return time.perf_counter() - start, yields, updates

    def handler_alone(fn) -> float:
        start = time.perf_counter()
        for _ in fn.fn({c: getattr(c, "value", None) for c in fn.inputs}, progress=None):
            pass
        return time.perf_counter() - start

    async def run() -> None:
        print("link query (first 60 chars)                                  | cold s | warm s | handler s | yields")
        for fn in links:
            q = query(fn)
            if wanted and not any(w in q for w in wanted):
                continue
            # a fresh session for each press, as a fresh page has; the session itself is built outside the timing
            cold, yields, _ = await through_gradio(fn, SessionState(demo))
            warm = [(await through_gradio(fn, SessionState(demo)))[0] for _ in range(3)]
            alone = [handler_alone(fn) for _ in range(3)]
            warm_s, alone_s = statistics.median(warm), statistics.median(alone)
            print(f"{q[:60]:60s} | {cold:6.2f} | {warm_s:6.2f} | {alone_s:9.2f} | {yields}", flush=True)

    asyncio.run(run())


if __name__ == "__main__":
    main(sys.argv[1:])
