"""Text is data in the browser: user text escaped for Markdown shows as typed, never as a link or a KaTeX formula.

Gradio renders Markdown, then runs KaTeX's auto-render over the page; only Chromium shows what both did.
Its own tiny Blocks (no models), so it needs no app server.
"""

from __future__ import annotations


import gradio as gr
import pytest

from playground.ui.common.widgets import escape_md
from scripts.serve_app import free_port
from tests.e2e.helpers import recording_page

HOSTILE = "see https://evil.example/x, www.evil.example or a@evil.example; $$\\frac{1}{2}$$ done"


@pytest.fixture
def markdown_url():
    port = free_port()
    with gr.Blocks() as demo:
        gr.Markdown(f"Raw: {HOSTILE}", elem_id="raw")  # the control: what unescaped text does
        gr.Markdown(f"Escaped: {escape_md(HOSTILE)}", elem_id="escaped")
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    yield f"http://127.0.0.1:{port}/"
    demo.close()


def test_escaped_text_is_neither_link_nor_formula(browser, markdown_url):
    context, page, outside = recording_page(browser, markdown_url)
    page.goto(markdown_url)
    page.wait_for_selector("#escaped .prose", timeout=30_000)
    page.wait_for_selector("#raw .katex", timeout=30_000)  # the control renders math and links: the check can fail
    assert page.locator("#raw a").count() >= 1
    assert page.locator("#escaped a").count() == 0 and page.locator("#escaped .katex").count() == 0
    page.screenshot(path="/tmp/text_is_data.png")
    shown = page.locator("#escaped [data-testid=markdown]").inner_text().replace("\u200b", "")
    assert shown.strip() == f"Escaped: {HOSTILE}"
    context.close()
    assert not outside
