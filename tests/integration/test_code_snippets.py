"""Verified, not decorative: every view's generated snippet runs in a fresh interpreter and prints the API's numbers.

All snippets run in one interpreter (each in its own namespace; the playground's loader is the only thing they
share, so every model loads once): probabilities and cosines must agree within 1e-4, tokens, ids and masks exactly.
Hub-model snippets run on tiny random models saved in hub layout, with the hub id swapped for their folder.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from playground.runtime import Runtime
from playground import attention as att
from playground.attention import AttentionRequest, run_attention
from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.elmo.code import bilm_request, oov_request, vectors_request
from playground.elmo.views import run_elmo_bilm, run_elmo_mix, run_elmo_oov
from playground.inside.code import embeddings_request, heads_request, nsp_request, params_request
from playground.inside.heads import run_heads
from playground.inside.nsp import run_nsp
from playground.inside.params import run_params
from playground.inside.embeddings_input import run_embeddings
from playground.masking.code import COLLATOR
from playground.masking.code import request_of as masking_request
from playground.masking.objectives import run_masking
from playground.models import LoadedModel
from playground.polysemy import KINDS as POLYSEMY_SCRIPTED
from playground.polysemy import run_polysemy
from playground.polysemy.code import request_of as polysemy_request
from playground.registry import get_spec
from playground.sampling import run_next_token
from playground.sampling.code import compare_request, generate_request, next_token_request, step_request
from playground.sampling.generation import run_compare, run_generate, run_step
from playground.code import code_for
from tests import tiny_models


REPO = Path(__file__).resolve().parents[2]
RUNTIME = Runtime()  # the bundled models through the one load path; caches of this module's own
TOL = 1e-4
SENTENCES = (
    "river | He sat on the bank of the river.\nmoney | She paid cash at the bank.\n"
    "river | The bank was muddy after the rain.\nmoney | The bank raised its rates."
)
TEXT = "The quick brown fox jumps over the lazy dog near the riverbank."
NSP_TEXT = "The cat sat on the mat. It was tired. Then it slept.\n\nStocks fell on Monday. Investors worried. Markets rose."
HUB = {"bert": tiny_models.tiny_bert_mlm, "gpt2": tiny_models.tiny_gpt2}  # registry key -> tiny model in its place

# (case id, view, request): every view with a snippet, on the bundled models (and two hub models, tiny).
CASES = [
    ("fill_mask", "fill_mask", {"text": "The capital of France is [MASK]. It is [mask].", "models": ["minilm-mlm"], "top_k": 5}),
    (
        "fill_mask_causal",
        "fill_mask",
        {"text": "The river [MASK] was muddy. I [MASK] it.", "models": ["smollm2-instruct", "minilm-mlm"], "top_k": 3},
    ),  # noqa: E501
    ("fill_mask_hub", "fill_mask", {"text": "the river bank [MASK] muddy .", "models": ["bert"], "top_k": 4}),
    ("polysemy", "polysemy", {"word": "bank", "sentences": SENTENCES, "models": ["minilm"], "layer": "3"}),
    ("polysemy_causal", "polysemy", {"word": "bank", "sentences": SENTENCES, "models": ["smollm2-instruct"], "pooling": "first"}),
    (
        "polysemy_pair",
        "polysemy",
        {"word": "bank", "sentences": "river | He sat on the bank.\nmoney | She paid at the bank.", "models": ["minilm"]},
    ),  # exercise 1's shape: one pair, its cosine at every layer, the separation undefined ("—", as on the page)
    (
        "next_token",
        "next_token",
        {"prompt": "Once upon a time", "model": "smollm2-instruct", "temperatures": [0, 0.7, 1.5], "top_k": 50, "top_p": 0.9},
    ),  # noqa: E501
    ("next_token_hub", "next_token", {"prompt": "the river", "model": "gpt2", "temperature": 1.3}),
    (
        "generate",
        "generate",
        {
            "prompt": "Once upon a time",
            "model": "smollm2-instruct",
            "temperature": 1.2,
            "top_k": 40,
            "max_new_tokens": 6,
            "n_samples": 2,
            "seed": 3,
        },
    ),  # noqa: E501
    (
        "compare",
        "compare",
        {"prompt": "The cat", "model": "smollm2-instruct", "temperatures": [0.1, 1.5], "max_new_tokens": 5, "seed": 1},
    ),  # noqa: E501
    (
        "step",
        "step",
        {"prompt": "The cat", "model": "smollm2-instruct", "temperature": 0.9, "top_p": 0.8, "max_new_tokens": 4, "seed": 7},
    ),  # noqa: E501
    (
        "attention",
        "attention",
        {"model": "minilm", "text": "The cat sat on the mat.", "text_b": "It slept.", "layer": 2, "head": 1},
    ),  # noqa: E501
    *[
        (
            f"attention_{view}",
            f"attention_{view}",
            {"model": "minilm", "text": "The cat sat on the mat.", "layer": 4, "head": 3, "query": 2, "other": "minilm-mlm"},
        )  # noqa: E501
        for view in ("head", "mean", "rollout", "special", "step", "positional", "compare")
    ],
    (
        "attention_causal",
        "attention_head",
        {"model": "smollm2-instruct", "text": "The cat sat on the mat.", "layer": 5, "head": 2},
    ),
    ("inside_embeddings", "inside_embeddings", {"text_a": "我爱自然语言处理", "text_b": "NLP很有趣", "model": "minilm"}),
    ("inside_params", "inside_params", {"base": "roberta-base", "embedding_size": 256, "share_layers": "all"}),
    ("inside_params_none", "inside_params", {"base": "bert-base", "embedding_size": 768, "share_layers": False}),
    ("inside_nsp", "inside_nsp", {"text": NSP_TEXT, "seed": 3, "budget": 24}),
    ("inside_heads", "inside_heads", {"source": "albert-base"}),
    ("inside_heads_bundled", "inside_heads", {"source": "minilm"}),
    ("elmo_vectors", "elmo_vectors", {"word": "bank", "sentences": SENTENCES, "s0": 0.5, "s1": -1.0, "s2": 2.0, "gamma": 0.7}),
    ("elmo_bilm", "elmo_bilm", {"sentence": "She sat on the bank of the river.", "top_k": 3}),
    ("elmo_oov", "elmo_oov", {"words": "blorft, bank riverside"}),
    *[
        (f"masking_{s}", "masking", {"text": TEXT, "strategy": s, "seed": 3, "mlm_probability": 0.3, "epochs": 3})
        for s in ("bert", "wwm", "dynamic", "span", "permutation", "t5", "attention", "electra")
    ],
]

RUNNER = r"""
import contextlib, io, json, sys, time, traceback
out = {}
for name, path in json.loads(sys.argv[1]).items():
    buffer, start = io.StringIO(), time.perf_counter()
    try:
        with contextlib.redirect_stdout(buffer):
            exec(compile(open(path, encoding="utf-8").read(), path, "exec"), {"__name__": "__main__"})
    except Exception:
        buffer.write("SNIPPET FAILED\n" + traceback.format_exc())
    out[name] = {"stdout": buffer.getvalue(), "seconds": time.perf_counter() - start}
print("@@RESULTS@@" + json.dumps(out))
"""


def _tiny(key: str) -> LoadedModel:
    tiny = HUB[key]()
    return LoadedModel(get_spec(key), tiny.model, tiny.tokenizer, "cpu")


def _loader(hub: dict[str, LoadedModel]):
    from playground import models

    return lambda key: hub[key] if key in hub else models.load(key)


@pytest.fixture(scope="module")
def hub_models(tmp_path_factory) -> dict[str, tuple[LoadedModel, Path]]:
    """The tiny stand-ins for hub models, kept in memory for the backend and saved in hub layout for the snippet."""
    root = tmp_path_factory.mktemp("hub")
    made = {}
    for key in HUB:
        lm = _tiny(key)
        lm.model.save_pretrained(root / key)
        lm.tokenizer.save_pretrained(root / key)
        made[key] = (lm, root / key)
    return made


@pytest.fixture(scope="module")
def printed(hub_models, tmp_path_factory) -> dict[str, str]:
    """Every case's snippet, run in one fresh interpreter; case id -> what it printed."""
    folder = tmp_path_factory.mktemp("snippets")
    paths = {}
    for name, view, request in CASES:
        code = code_for(view, json.dumps(request)).code
        for key, (_, where) in hub_models.items():
            code = code.replace(f'"{get_spec(key).hf_id}"', repr(str(where)))
        paths[name] = str(folder / f"{name}.py")
        Path(paths[name]).write_text(code, encoding="utf-8")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(REPO), "TRANSFORMERS_VERBOSITY": "error"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps(paths)], capture_output=True, text=True, env=env, cwd=folder, timeout=600
    )
    assert "@@RESULTS@@" in done.stdout, done.stderr[-3000:]
    results = json.loads(done.stdout.split("@@RESULTS@@", 1)[1])
    slow = sorted(results.items(), key=lambda kv: -kv[1]["seconds"])[:3]
    print(
        f"\nsnippets: {len(results)} in {time.perf_counter() - start:.1f} s; slowest",
        [(k, round(v["seconds"], 1)) for k, v in slow],
    )
    return {name: r["stdout"] for name, r in results.items()}


def blocks(text: str) -> list[tuple[str, list[str]]]:
    """Printed output as (title line, its indented lines)."""
    assert "SNIPPET FAILED" not in text, text
    out: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if line.startswith(" ") and out:
            out[-1][1].append(line)
        else:
            out.append((line, []))
    return out


def floats(line: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+\.\d+", line)]


def close(a, b) -> None:
    np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), atol=TOL, rtol=0)


def matrix(rows: list[str]) -> np.ndarray:
    return np.array([floats(row.rsplit("'", 1)[-1]) for row in rows])


def case(name: str) -> tuple[str, dict]:
    return next((view, request) for n, view, request in CASES if n == name)


def _fill_mask(view, request, out, hub):
    asked = FillMaskRequest(request["text"], tuple(request["models"]), request.get("top_k", FillMaskRequest.top_k))
    run = run_fill_mask(asked, Runtime(load=_loader(hub)))  # a lesson's link may leave top_k at its default
    titles = [line for line in out.splitlines() if line and not line.startswith(" ")]
    assert titles == list(request["models"])
    per_blank: list[list[tuple[int, float]]] = []  # a masked LM: one list per [MASK]; a causal LM: two (left, whole)
    for line in out.splitlines():
        if "[MASK]" in line:
            per_blank.append([])
        elif "(id " in line:
            per_blank[-1].append((int(re.search(r"\(id (\d+)\)", line)[1]), floats(line.split("(id")[0])[-1]))
    expected = [
        [(p.token_id, p.probability) for p in reading.predictions[blank]]
        for fill in run.fills  # each model in order, its blanks in order, a blank's readings in order
        for blank in range(len(fill.readings[0].predictions))
        for reading in fill.readings
    ]
    assert [[i for i, _ in m] for m in per_blank] == [[i for i, _ in m] for m in expected]
    close([[p for _, p in m] for m in per_blank], [[p for _, p in m] for m in expected])
    pools = [int(n) for n in re.findall(r"whole sentence, (\d+) candidates", out)]
    assert max(pools, default=None) == next((f.pool_size for f in run.fills if f.pool_size), None)


def _polysemy(view, request, out, hub):
    run = run_polysemy(polysemy_request(request), RUNTIME)
    every = blocks(out)
    printed = {title.split()[0]: (title, rows) for title, rows in every if not title.startswith("by layer")}
    by_layer = {title.split()[2].rstrip(":"): rows for title, rows in every if title.startswith("by layer")}
    scripted = [m for m in run.models if m.family_kind in POLYSEMY_SCRIPTED]  # ELMo and GloVe: a comment only
    assert set(printed) == {m.key for m in scripted}
    for view in scripted:
        title, rows = printed[view.key]
        close(matrix([row.split(None, 1)[1] for row in rows]), view.similarity)
        shown = title.split()[-1]  # "—" when no sense has two sentences (exercise 1's pair), as the page shows it
        assert (shown == "—") == bool(np.isnan(view.separation)) and "nan" not in out
        if not np.isnan(view.separation):
            close([float(shown)], [view.separation])
        assert [row.split()[0] for row in rows] == [run.sentences[i].label for i in view.rows]
    for view in (v for v in scripted if v.pair_cosines and v.source == "contextual"):  # the per-layer curve of each pair
        rows = {row.split()[0]: floats(row) for row in by_layer[view.key]}
        for pair in view.pair_cosines:
            close(rows["#{}-#{}".format(*pair["pair"])], pair["by_layer"])


def _distribution(title_rows, view):
    title, rows = title_rows
    assert int(re.search(r"(\d+) tokens kept", title)[1]) == view.kept["top_p"]
    assert [int(row.split()[0]) for row in rows] == view.token_ids
    close([floats(row.rsplit("'", 1)[-1])[0] for row in rows], view.probs["raw"])
    close([floats(row.rsplit("'", 1)[-1])[1] for row in rows], view.probs["top_p"])


def _next_token(view, request, out, hub):
    run = run_next_token(next_token_request(request), Runtime(load=_loader(hub)))
    printed = blocks(out)
    assert len(printed) == len(run.views)
    for block, view in zip(printed, run.views):
        _distribution(block, view)


def _samples(printed, results):
    assert len(printed) == sum(len(r.samples) for r in results)
    for (title, rows), sample in zip(printed, [s for r in results for s in r.samples]):
        drawn = [row for row in rows if "instead:" not in row]
        assert [int(row.split()[0]) for row in drawn] == [c.token_id for c in sample.tokens], title
        close([floats(row.rsplit("'", 1)[-1])[-1] for row in drawn], [c.prob for c in sample.tokens])


def _generate(view, request, out, hub):
    _samples(blocks(out), [run_generate(generate_request(request), Runtime())])


def _compare(view, request, out, hub):
    run = run_compare(compare_request(request), Runtime())
    printed = blocks(out)
    views = len(run.next_token.views)
    for block, view in zip(printed[:views], run.next_token.views):
        _distribution(block, view)
    _samples(printed[views:], run.continuations)


def _step(view, request, out, hub):
    request = step_request(request)
    sampler = None
    for _ in range(request.max_new_tokens):
        sampler, step = run_step(sampler, request, Runtime())
    _samples(blocks(out), [step.generation])


def _attention(view, request, out, hub):
    view_name = view
    params = {k: v for k, v in request.items() if k != "row_start"}
    view = view_name.removeprefix("attention_") if view_name != "attention" else "head"  # the view's own name
    result = run_attention(AttentionRequest(**params, view=view, fit=True), RUNTIME)
    printed = blocks(out)
    if view in ("head", "mean", "rollout"):
        close(matrix(printed[0][1]), result.matrix)
        assert [eval(row.split()[0]) for row in printed[0][1]] == result.maps.tokens  # noqa: S307 (our own repr output)
    if view_name == "attention":  # the API's three matrices
        summary = att.summarize(result.maps, result.layer)
        close(matrix(printed[1][1]), summary.mean_over_heads)
        close(matrix(printed[2][1]), summary.rollout)
    if view == "special":
        lines = [title for title, _ in printed]
        close([floats(line)[:2] for line in lines], np.stack([result.summary.first_share, result.summary.special_share], 1))
        close([floats(line)[2:] for line in lines], result.summary.entropy)
    if view == "step":
        rows = printed[0][1]
        close([floats(row.split("score")[1])[0] for row in rows], result.step.scores)
        close([floats(row.split("weight")[1])[0] for row in rows], result.step.weights)
        close(floats(printed[1][0]), result.step.output)
    if view == "positional":
        rows = [row for title, rows in printed for row in rows if "position" in row]
        close([floats(row)[:8] for row in rows], result.positional.learned[:8, :8])
        close(floats(printed[0][0].split(":", 1)[1]), result.positional.sinusoid[:4, :8].ravel())
    if view == "compare":
        assert len(printed) == len(result.compare)
        for (_, rows), panel in zip(printed, result.compare):
            close(matrix(rows), panel.matrix)


def _masking(view, request, out, hub):
    run = run_masking(masking_request(request), Runtime())
    printed = blocks(out)
    if run.strategy in COLLATOR:
        rows = {title: [row.split()[-1] for row in lines] for title, lines in printed}
        expected = dict(run.rows) if run.rows else {"bert": run.actions}
        for label, actions in expected.items():
            if label.startswith("static"):
                continue  # BERT's static pattern is epoch 1's, reused: printed once as "dynamic 1"
            assert rows[label] == actions, label
        assert [eval(r.split(" -> ")[0]) for r in printed[0][1]] == run.tokens  # noqa: S307
    else:
        lines = out.splitlines()
        tokens = [line for line in lines if line.startswith(" ")]
        assert [line.split()[-1] for line in tokens] == run.actions
        assert [eval(line.rsplit(" ", 1)[0]) for line in tokens] == run.tokens  # noqa: S307
        assert lines[len(tokens)] == "the model reads: " + " ".join(run.corrupted)
        assert [line.split()[1:] for line in lines[len(tokens) + 1 :]] == [a for _, a in run.rows]


def _inside_embeddings(view, request, out, hub):
    run = run_embeddings(embeddings_request(request), Runtime())
    lines = {line.split(" ", 1)[0]: line.split(" ", 1)[1] for line in out.splitlines()}
    assert eval(lines["tokens"]) == run.tokens and eval(lines["token_type_ids"]) == run.token_type_ids  # noqa: S307
    for part in ("token", "segment", "position", "normed"):
        close(eval(lines[part].split(":", 1)[1]), getattr(run, part)[0, :6])  # noqa: S307
    close([floats(lines["max"])[-1]], [run.max_abs_diff])


def _inside_params(view, request, out, hub):
    run = run_params(params_request(request), RUNTIME)
    printed = {line.split()[0]: line for line in out.splitlines() if " num_parameters " in line}
    assert list(printed) == [m.key for m in run.models]
    for m in run.models:
        total = int(printed[m.key].split()[2])
        parts = eval(printed[m.key].split(" ", 3)[3])  # noqa: S307 (our own dict repr)
        assert total == m.total + m.hf_only, m.key  # the built model's num_parameters(); the view leaves out hf_only
        assert {k: v for k, v in m.parts.items() if v} == {k: v for k, v in parts.items() if v} or m.hf_only, m.key
    (formula,) = [line for line in out.splitlines() if line.startswith("what-if formula")]
    assert int(formula.split()[-1]) == sum(run.models[-1].formula.values())


def _inside_nsp(view, request, out, hub):
    run = run_nsp(nsp_request(request), RUNTIME)
    lines = out.splitlines()
    assert "SNIPPET FAILED" not in out, out
    pairs = [line for line in lines if line.startswith("pair ")]
    assert pairs == [f"pair {'IsNext' if p.is_next else 'NotNext'} {p.a.text!r} {p.b.text!r}" for p in run.pairs]
    assert f"tokens {run.layout.tokens}" in lines and f"token_type_ids {run.layout.segment_ids}" in lines
    assert [line for line in lines if line.startswith("packed ")] == [f"packed {c.n_tokens} {c.pieces}" for c in run.packed]
    sop = [f"sop {'in order' if p.in_order else 'swapped'} {p.first.text!r} {p.second.text!r}" for p in run.sop]
    assert [line for line in lines if line.startswith("sop ")] == sop
    probes = [line for line in lines if line.startswith("probe ")]
    assert len(probes) == len(run.probes)  # none offline: no bundled model has an NSP head
    for line, probe in zip(probes, run.probes):
        close(floats(line), [probe.p_is_next, probe.p_not_next])


def _inside_heads(view, request, out, hub):
    run = run_heads(heads_request(request), RUNTIME)
    lines = [line for line in out.splitlines() if line.strip()]
    assert "SNIPPET FAILED" not in out, out
    assert len(lines) == len(run.heads)
    for line, head in zip(lines, run.heads):
        task, cls, _, new, shapes = line.split(" ", 4)
        assert (task, cls, int(new)) == (head.task, head.model_class, head.new_params)
        assert eval(shapes) == [(h.name, h.shape) for h in head.head]  # noqa: S307


def _elmo_vectors(view, request, out, hub):
    run = run_elmo_mix(vectors_request(request), RUNTIME)
    lines = {line.rsplit(" ", 1)[0] if " separation " in line else line.split(" ", 1)[0]: line for line in out.splitlines()}
    assert "SNIPPET FAILED" not in out, out

    def same(line: str, expected: float | None) -> None:  # None: one label only, no cross-sense pair
        assert line.endswith(" None") if expected is None else close([floats(line)[-1]], [expected]) is None, line

    for j, expected in enumerate(run.layer_separation):
        same(lines[f"layer {j} separation"], expected)
    close(floats(lines["weights"]), run.weights)
    same(lines["mix separation"], run.mix_separation)


def _elmo_bilm(view, request, out, hub):
    run = run_elmo_bilm(bilm_request(request), RUNTIME)
    printed = blocks(out)
    assert [title for title, _ in printed] == list(run.tokens)
    for (_, rows), position in zip(printed, run.predictions.positions):
        for row, d in zip(rows, (position.forward, position.backward)):
            guesses = row.split()[3:]
            assert [g.rsplit("=", 1)[0] for g in guesses] == list(d.words)
            close([float(row.split()[2]), *[float(g.rsplit("=", 1)[1]) for g in guesses]], [d.actual_prob, *d.probs])


def _elmo_oov(view, request, out, hub):
    run = run_elmo_oov(oov_request(request), RUNTIME)
    printed = blocks(out)
    assert [title.split()[0] for title, _ in printed] == [w.word for w in run.words]
    for (title, (elmo_row, glove_row)), word in zip(printed, run.words):
        assert title.split()[4] == str(word.in_elmo_vocab)
        close([floats(title)[-1]], [word.elmo_norm])
        near = elmo_row.split()[2:]
        assert [n.rsplit("=", 1)[0] for n in near] == [w for w, _ in word.neighbours]
        close([float(n.rsplit("=", 1)[1]) for n in near], [c for _, c in word.neighbours])
        glove = glove_row.split()[1:]
        assert glove[0] == str(word.glove_found)
        assert [g.rsplit("=", 1)[0] for g in glove[1:]] == [w for w, _ in word.glove_neighbours]
        close([float(g.rsplit("=", 1)[1]) for g in glove[1:]], [c for _, c in word.glove_neighbours])


def _mlm_lab(view, request, out, hub):
    # The page's held-out loss is one fixed draw of masks and trainer.evaluate draws new ones (playground/mlm_lab/
    # code.py): the script's split is checked to the sentence, its losses as sane values and one Trainer log line per step.
    from playground.mlm_lab import corpus
    from playground.mlm_lab.code import SAMPLE_FILE, request_of

    settings = request_of(request).settings
    train, held = corpus.split(corpus.sentences((REPO / SAMPLE_FILE).read_text(encoding="utf-8")), settings.seed)
    assert f"{len(train)} training sentences, {len(held)} held out" in out, out
    losses = {m[0]: float(m[1]) for m in re.findall(r"held-out loss (before|after): +(\d+\.\d+)", out)}
    assert set(losses) == {"before", "after"} and all(0 < v < 20 for v in losses.values()), out
    assert out.count("'loss'") == settings.max_steps  # the Trainer's own log, one line per step (logging_steps=1)


CHECKS = {
    "mlm_lab": _mlm_lab,
    "inside_params": _inside_params,
    "inside_nsp": _inside_nsp,
    "inside_heads": _inside_heads,
    "elmo_vectors": _elmo_vectors,
    "elmo_bilm": _elmo_bilm,
    "elmo_oov": _elmo_oov,
    "fill_mask": _fill_mask,
    "polysemy": _polysemy,
    "next_token": _next_token,
    "generate": _generate,
    "compare": _compare,
    "step": _step,
    "attention": _attention,
    "masking": _masking,
    "inside_embeddings": _inside_embeddings,
}


@pytest.mark.parametrize("name", [name for name, _, _ in CASES])
def test_snippet_prints_the_api_result(name, printed, hub_models):
    view, request = case(name)
    check_printout(view, request, printed[name], {key: lm for key, (lm, _) in hub_models.items()})


def check_printout(view: str, request: dict, out: str, hub: dict | None = None) -> None:
    """What the snippet of (view, request) printed equals what the backend returns for that request."""
    check = CHECKS.get(view) or CHECKS[view.split("_")[0]]  # attention_<view> share one check
    check(view, request, out, hub or {})


def test_every_view_with_a_snippet_is_exercised():
    from playground.code import views

    covered = {view for _, view, _ in CASES}
    assert set(views()) - covered <= {f"masking_{s}" for s in ("bert", "wwm", "dynamic", "span", "permutation", "t5", "attention", "electra")} | {  # noqa: E501
        "attention_layer", "attention_overview", "attention_tokens", "attention_entropy", "masking_electra", "masking",
        "mlm_lab",  # its Trainer script runs in tests/integration/test_lab_code.py (a training, on a tiny hub-layout BERT)
        "forward_block",  # its block runs in tests/integration/test_forward_models.py (it prints a difference, no API numbers)
        # run and compared with the view in unit tests, on tiny models of each family (tests/unit/insight/
        # test_insight_code.py, test_probes_code.py); the probes' numbers on the bundled models: test_probes.py
        "insight_lens", "insight_attribution", "insight_knockout", "insight_patching", "insight_probes",
        "text_to_text",  # tests/unit/t5/test_t5_code.py (tiny T5); the bundled T5: tests/integration/test_t5_classroom.py
    }  # fmt: skip


def test_hub_snippets_say_they_need_the_hub():
    snippet = code_for("fill_mask", json.dumps(case("fill_mask_hub")[1]))
    assert not snippet.runs_offline and "needs the Hugging Face Hub" in snippet.code
    assert code_for("fill_mask", json.dumps(case("fill_mask")[1])).runs_offline
