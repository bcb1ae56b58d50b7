"""The queue guard never cancels what a page is reading: a browser's event streams past the unread timeout.

A tiny Blocks (no models) behind QueueGuard with a 0.5 s unread timeout; the page's click runs a 2.5 s stream (it
outlives the timeout five times over).
The page opens Gradio's /queue/data stream for its session, which marks it read, so it must finish.
"""

from __future__ import annotations

import time

import gradio as gr
import pytest
from starlette.middleware import Middleware

from playground.ui.server.guard import QueueGuard
from scripts.serve_app import free_port
from tests.e2e.helpers import recording_page


def slow_count():
    for i in range(1, 11):
        time.sleep(0.25)  # the server's work, not a wait of the test
        yield f"step {i}" if i < 10 else "done after 2.5 s"


@pytest.fixture
def guarded_url():
    port = free_port()
    with gr.Blocks() as demo:
        out = gr.Textbox(elem_id="out")
        gr.Button("Run", elem_id="run").click(slow_count, None, out)
    demo.queue()
    middleware = [Middleware(QueueGuard, per_client=4, unread_s=0.5, poll_s=0.1)]
    options = dict(prevent_thread_lock=True, quiet=True, app_kwargs={"middleware": middleware})
    demo.launch(server_name="127.0.0.1", server_port=port, **options)
    yield f"http://127.0.0.1:{port}/"
    demo.close()


def test_a_page_that_reads_its_stream_is_never_cancelled(browser, guarded_url):
    context, page, outside = recording_page(browser, guarded_url)
    page.goto(guarded_url)
    page.wait_for_selector("#run", timeout=30_000)
    page.locator("#run").click()
    page.wait_for_function(
        "() => (document.querySelector('#out textarea')?.value || '').includes('done after 2.5 s')", timeout=30_000
    )
    context.close()
    assert not outside
