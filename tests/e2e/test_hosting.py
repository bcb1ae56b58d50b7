"""The app started the way a ZeroGPU Space starts it, with the ZeroGPU emulation and the MCP server on.

`python app.py` with SYSTEM=spaces, SPACE_ID, GRADIO_SERVER_NAME=0.0.0.0 (reached here on 127.0.0.1),
SPACES_ZERO_GPU=true and PLAYGROUND_ZERO_GPU_EMULATE=1: every model-bound call runs in a forked worker with its
arguments and result pickled, as on ZeroGPU. Then: one view per tab in Chromium with zero errors, on a Chinese page
that shows no English UI string and no Markdown marker in any tab after its run; the MCP tools listed and called with
the `mcp` client library (JSON results), the warm-up's per-view times, run history off.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest

from playground.ui.common.i18n import t
from playground.ui.common.strings import STRINGS
from scripts.serve_app import stop
from tests.e2e.conftest import ROOT, start_app, wait_answering
from tests.e2e.helpers import recording_page, wait_for_tab, wait_opened
from tests.e2e.test_trust import settle

SPACE_ENV = {
    "SYSTEM": "spaces",
    "SPACE_ID": "teacher/transformer-playground",
    "GRADIO_SERVER_NAME": "0.0.0.0",
    "SPACES_ZERO_GPU": "true",
    "PLAYGROUND_ZERO_GPU_EMULATE": "1",
    "PLAYGROUND_MCP": "1",
    "PLAYGROUND_PRELOAD": "minilm,smollm2-instruct",  # what the emulated Space loads at start
}

# What a page served with SYSTEM=spaces asks for beyond its origin (Gradio's Space mode, unreachable here; on a Space
# the visitor has the internet): the Space's info from the hub and Gradio's web fonts (docs/hosting.md).
SPACE_HOSTS = {"huggingface.co", "fonts.googleapis.com"}
# ... and the console line Gradio writes when the hub does not know this made-up SPACE_ID
SPACE_CONSOLE = ("ERR_NAME_NOT_RESOLVED", "Space not found")

# (tab, button to click, what appears when its default view has run); the page is Chinese, so no English label here
VIEWS = [
    ("fill_mask", ".tabitem:visible button.primary", "#fill-mask-plot .js-plotly-plot"),
    ("polysemy", "#polysemy-run", "#polysemy-scatter .js-plotly-plot"),
    ("elmo", "#elmo-mix-run", "#elmo-mix-plot .js-plotly-plot"),
    ("masking", "#masking-run", "#masking-grid .js-plotly-plot"),
    ("sampling", "#sampling-next", "#sampling-next-plot .js-plotly-plot"),
    ("attention", "#attention-run", "#attention-plot .js-plotly-plot"),
    ("inside", "#inside-run", "#inside-emb-plot .js-plotly-plot"),
]


@pytest.fixture(scope="module")
def space(tmp_path_factory):
    log = tmp_path_factory.mktemp("space") / "app.log"
    proc, url = start_app(log, SPACE_ENV)
    try:
        wait_answering(url, log, alive=lambda: proc.poll() is None, timeout_s=600)  # preloading on a busy machine
        yield url, log
    finally:
        stop(proc)


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


def _reads_chinese(page, tab: str) -> None:
    """The open tab, after its run, shows none of the UI's English strings and no literal Markdown markers."""
    settle(page)  # every output of the run has arrived (not only the plot waited for)
    text = page.locator(".tabitem:visible").first.inner_text()
    english = [s for s in _english_strings() if s in text]
    assert not english, f"English left in the Chinese {tab} tab: {english[:5]}"
    assert "**" not in text and "__" not in text, f"{tab}: literal Markdown markers on screen"


def _relabelled(page) -> None:
    """Wait until the open tab is relabelled in Chinese. Every tab has a share button whose label differs in the two
    languages (a tab title like "ELMo" does not), so it tells when this tab's relabel has landed (the switch relabels
    what is visible, a tab when it is shown)."""
    page.wait_for_function(
        "(t) => [...document.querySelectorAll('.tabitem button')].some(b => b.offsetParent && b.innerText.trim() === t)",
        arg=t("common.share", "zh"),
        timeout=60_000,
    )


def test_one_view_per_tab_runs_through_the_emulated_zero_gpu_with_no_error(space, browser):
    """One Chinese page of the Space app, every tab in turn as a student clicks through them (the Lessons landing, the
    seven model-bound tabs, the MLM lab), each relabelled in Chinese when shown:
    - each model-bound tab's default view runs through the emulated ZeroGPU worker: its result appears, no error
      toast, no console error but the Space-mode ones named in SPACE_CONSOLE;
    - each tab, after its run, reads Chinese: no English UI fragment, no literal `**`/`__` (sampling also generates,
      so its samples are read too; the lab trains nothing, its page is read as shown);
    - after the walk: the page asked only the known outside hosts, and the server logged no traceback but the known
      one and no worker error."""
    url, log = space
    context, page, outside = recording_page(browser, url)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    try:
        page.goto(f"{url}?tab=lessons&lang=zh")
        wait_opened(page)
        page.wait_for_function("() => document.querySelector('.tp-lang input[value=zh]')?.checked", timeout=60_000)
        _relabelled(page)
        page.locator("#lessons-next").click()  # the Lessons tab's primary button: a teacher steps through the course
        _reads_chinese(page, "lessons")
        seen = []
        for tab, button, result in VIEWS:  # tab by tab on one page, as a visitor clicks through them
            page.locator(f"button[role=tab][data-tab-id={tab}]").click()
            wait_for_tab(page, tab)
            _relabelled(page)
            page.locator(button).first.click(timeout=60_000)
            page.locator(result).first.wait_for(timeout=240_000)
            if tab == "sampling":  # the tab's primary button generates samples: their words are read too
                page.locator("#sampling-generate").click()
                page.locator("#sampling-generate-area").wait_for(timeout=240_000)
            _reads_chinese(page, tab)
            toasts = page.locator(".toast-body.error").all_inner_texts()
            assert not toasts, f"{tab}: {toasts}"
            seen += [f"{tab}: {e}" for e in errors]
        # the lab trains on the CPU in the server process: no GPU entry to click through, and no training started here
        page.locator("button[role=tab][data-tab-id=mlm_lab]").click()
        page.locator("#mlm-lab-train").wait_for(timeout=60_000)
        _relabelled(page)
        _reads_chinese(page, "mlm_lab")
    finally:
        context.close()
    # A Space's page may fetch from the hub (SYSTEM=spaces changes what Gradio serves); offline here those fail to
    # resolve. They are reported by host, and no other console error is allowed.
    hosts = sorted({urllib.parse.urlparse(u).netloc for u in outside})
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    report = json.dumps({"hosts": hosts, "urls": outside[:50]}, indent=1)
    (ROOT / "test-artifacts" / "space-outside-hosts.json").write_text(report)
    assert not [e for e in seen if not any(known in e for known in SPACE_CONSOLE)], seen
    assert set(hosts) <= SPACE_HOSTS, hosts
    text = log.read_text()
    # One traceback is expected and harmless: Gradio's Space-mode reload watcher (utils.watchfn_spaces) imports
    # `spaces`, which insists on the device API URL that only Hugging Face's ZeroGPU hosts set. Nothing else.
    others = [chunk for chunk in text.split("Traceback (most recent call last)")[1:] if "watchfn_spaces" not in chunk]
    assert not others and "worker error" not in text.lower(), text[-3000:]


def test_warmup_reports_each_view_and_its_seconds(space):
    from gradio_client import Client

    url, _ = space
    result = Client(url, verbose=False).predict(api_name="/warmup")
    views = {step["view"]: step for step in result["steps"]}
    assert set(views) == {"fill_mask", "polysemy", "masking", "sampling", "attention", "inside", "elmo"}
    assert all(step["ok"] and step["seconds"] >= 0 for step in views.values()), result
    assert result["seconds"] >= max(step["seconds"] for step in views.values())


def test_run_history_is_off(space):
    url, _ = space
    config = json.loads(urllib.request.urlopen(url + "config", timeout=10).read())
    assert config.get("run_history") is False


async def _mcp_session(url: str):
    from mcp import ClientSession
    from mcp.client.streamable_http import streamablehttp_client

    calls = {
        "fill_mask": {"text": "The capital of France is [MASK].", "models": ["minilm-mlm"], "top_k": 3},
        "next_token": {"prompt": "The future of AI is", "model": "smollm2-instruct"},
        "masking": {"text": "The cat sat on the mat.", "model": "minilm", "strategy": "bert"},
    }
    async with streamablehttp_client(url + "gradio_api/mcp/") as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            results = {}
            for name, arguments in calls.items():
                reply = await session.call_tool(name, arguments)
                assert not reply.isError, reply
                results[name] = json.loads(reply.content[0].text)
            return tools, results


def test_mcp_tools_have_api_names_described_parameters_and_json_results(space):
    url, _ = space
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # the browser fixture's event loop runs on this thread
        tools, results = pool.submit(asyncio.run, _mcp_session(url)).result(timeout=600)
    assert {"fill_mask", "polysemy", "masking", "next_token", "generate", "attention", "elmo_bilm"} <= set(tools)
    assert "mlm_lab_train" not in tools and "warmup" not in tools
    for tool in tools.values():
        properties = tool.inputSchema["properties"]
        assert all(p.get("description") for p in properties.values()), (tool.name, properties)
    assert "1 to 20" in tools["fill_mask"].inputSchema["properties"]["top_k"]["description"]
    (fill,) = results["fill_mask"]["results"]  # the API's own JSON, parsed
    assert fill["model"] == "minilm-mlm" and len(fill["masks"][0]) == 3
    assert results["next_token"]["views"][0]["tokens"] and results["next_token"]["model"] == "smollm2-instruct"
    assert results["masking"]["tokens"]
