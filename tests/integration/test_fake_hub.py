"""The China recipe, for real: HF_ENDPOINT pointed at a hub mirror (a fake one on 127.0.0.1, tests/fake_hub.py).

A tiny BERT is served in the hub's layout under `google-bert/bert-base-uncased` (the registry's `bert`), and the
app runs its real code in fresh processes (huggingface_hub reads HF_ENDPOINT and HF_HUB_OFFLINE at import):
1. mirror up: the probe finds it, `bert` downloads through huggingface_hub, the page's progress message is said
   (English and Chinese), and a fill-mask runs on the downloaded model;
2. mirror down: the probe fails once, `bert` loads from the local cache, `roberta` (never downloaded) is refused
   with the "unreachable" reason;
3. HF_HUB_OFFLINE=1: no probe at all, the cache still serves `bert`, `roberta` says "offline".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from playground.registry import get_spec
from tests import tiny_models
from tests.fake_hub import FakeHub

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys
from playground import availability, models
from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.registry import get_spec
from playground.runtime import Runtime
from playground.ui.common.widgets import on_load_message

out = {"reachable": availability.hub_reachable()}
for key in ("bert", "roberta"):
    state = availability.check(get_spec(key))
    out[key] = [state.ok, state.where, state.code]
said = []
for lang in ("en", "zh"):  # a store each: a first load each time, the second from huggingface_hub's disk cache
    models.ModelStore().load("bert", on_load=on_load_message(lang, lambda fraction, desc=None: said.append(desc)))
out["said"] = said
run = run_fill_mask(FillMaskRequest("the cat [MASK] on the mat .", ("bert",), 3), Runtime())
out["fill"] = [fill.model_id for fill in run.fills] + [len(run.fills[0].readings[0].predictions[0])]
print("RESULT " + json.dumps(out))
"""


def _start(env: dict) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", CHILD], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _result(child: subprocess.Popen) -> dict:
    stdout, stderr = child.communicate(timeout=600)
    line = next((x for x in stdout.splitlines() if x.startswith("RESULT ")), None)
    assert line, stdout[-2000:] + stderr[-4000:]
    return json.loads(line[len("RESULT ") :])


def test_a_hub_mirror_download_cache_fallback_and_offline_decision(tmp_path):
    repo = tmp_path / "repo"
    tiny = tiny_models.tiny_bert_mlm()
    tiny.model.save_pretrained(repo)
    tiny.tokenizer.save_pretrained(repo)
    base = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "HF_ENDPOINT", "HF_HOME", "HF_HUB_CACHE")}
    base |= {"HF_HOME": str(tmp_path / "hf"), "PLAYGROUND_CACHE_DIR": str(tmp_path / "pg"), "HF_HUB_DISABLE_TELEMETRY": "1"}
    with FakeHub({"google-bert/bert-base-uncased": repo}) as hub:
        online = _result(_start(base | {"HF_ENDPOINT": hub.url}))
        served = list(hub.requests)
    # the same address, nobody listening now; and offline. Both only read the cache the first filled: run at once
    down, offline = map(
        _result, [_start(base | {"HF_ENDPOINT": hub.url}), _start(base | {"HF_ENDPOINT": hub.url, "HF_HUB_OFFLINE": "1"})]
    )
    assert online["reachable"] and online["bert"] == [True, "hub", ""] and online["roberta"][:2] == [True, "hub"]
    pinned = get_spec("bert").revision  # the commit the Space preloads (README front matter) is the one downloaded
    assert any(r == f"GET /google-bert/bert-base-uncased/resolve/{pinned}/model.safetensors" for r in served), served
    english, chinese = online["said"]  # one progress message per first load: the page shows it while it downloads
    assert english.startswith("Loading ") and "(first use only)" in english and chinese.startswith("正在加载")
    assert online["fill"] == ["google-bert/bert-base-uncased", 3]

    assert down["reachable"] is False and down["bert"] == [True, "hub cache", ""]
    assert down["roberta"] == [False, "", "unreachable"] and down["fill"] == online["fill"]

    assert offline["reachable"] is False and offline["bert"] == [True, "hub cache", ""]
    assert offline["roberta"] == [False, "", "offline"] and offline["fill"] == online["fill"]
