"""The probes view as a script: every layer's vectors of the fixed tokens, a scikit-learn probe per layer and label,
and the control tasks, printing the view's numbers (the same batching, data, split and seed as the backend)."""

from __future__ import annotations

from playground.probes.compute import SEED
from playground.probes.features import BATCH, ELMO_WORD
from playground.probes.probe import C, MAX_ITER
from playground.probes import check_request
from playground.probes.results import ProbeRequest
from playground.registry import get_spec
from playground.runtime import Runtime
from playground.snippets import Snippet, comment, header, join, load_model, py

_DATA = """
DATA = {data}  # the fixed tokens, their labels and split: scripts/probe_data.py wrote it
SEED, C, MAX_ITER, BATCH = {seed}, {c}, {max_iter}, {batch}
data = json.load(open(DATA, encoding="utf-8"))
tasks = {{"pos": data, "sense": data}} if isinstance(data, list) else data
"""

# One forward pass per BATCH sentences; a word's vector = the mean of its pieces' hidden states, at every layer.
_TRANSFORMER = """
def vectors(tokens):
    texts = list(dict.fromkeys(t["text"] for t in tokens))
    seen = {}
    for start in range(0, len(texts), BATCH):
        chunk = texts[start : start + BATCH]
        enc = tokenizer(chunk, return_offsets_mapping=True, return_special_tokens_mask=True, padding=True,
                        return_tensors="pt")
        with torch.no_grad():
            out = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"], output_hidden_states=True)
        hidden = torch.stack(out.hidden_states, dim=1).float().numpy()  # (batch, layers, tokens, dim)
        for i, text in enumerate(chunk):
            seen[text] = hidden[i], enc["offset_mapping"][i].tolist(), enc["special_tokens_mask"][i].tolist()
    rows = []
    for t in tokens:
        hidden, offsets, special = seen[t["text"]]
        a, b = t["span"]
        pieces = [i for i, ((s, e), sp) in enumerate(zip(offsets, special)) if not sp and e > s and s < b and e > a]
        rows.append(hidden[:, pieces].mean(axis=1))
    return np.stack(rows, axis=1).astype(np.float32)  # (layers, tokens, dim)
"""

# ELMo reads words: layer 0 its char CNN, layers 1-2 its biLSTMs (forward and backward halves side by side).
_ELMO = """
WORD = re.compile({word})


def vectors(tokens):
    texts = list(dict.fromkeys(t["text"] for t in tokens))
    spans = {{text: [(m.start(), m.end(), m.group()) for m in WORD.finditer(text)] for text in texts}}
    out = embed(model, [[w for _, _, w in spans[text]] for text in texts])
    by_text = dict(zip(texts, out.vectors))  # (layers, words, dim) per sentence
    rows = []
    for t in tokens:
        a, b = t["span"]
        hit = [j for j, (s, e, _) in enumerate(spans[t["text"]]) if s < b and e > a]
        rows.append(by_text[t["text"]][:, hit].mean(axis=1))
    return np.stack(rows, axis=1).astype(np.float32)
"""

_PROBES = """
def accuracy(x_train, y_train, x_test, y_test):
    if len(set(y_train)) < 2:
        return float(np.mean([y == y_train[0] for y in y_test]))
    probe = make_pipeline(StandardScaler(), LogisticRegression(C=C, max_iter=MAX_ITER, random_state=SEED))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        probe.fit(x_train, list(y_train))
    return float(np.mean(probe.predict(x_test) == np.asarray(y_test)))


def word_type_control(words, labels, test):
    # Hewitt & Liang (2019): every word type gets one random label, drawn from the training labels' frequencies
    counts = Counter(y for y, t in zip(labels, test) if not t) if test is not None else Counter(labels)
    classes = sorted(counts)
    p = np.array([counts[c] for c in classes], dtype=float)
    types = sorted(set(words))
    drawn = np.random.default_rng(SEED).choice(len(classes), size=len(types), p=p / p.sum())
    table = {w: classes[i] for w, i in zip(types, drawn)}
    return [table[w] for w in words]


def within_word_control(words, labels, test):
    # senses: each word's own senses dealt out at random among its tokens (the word alone still helps, context not)
    rng, out, where = np.random.default_rng(SEED), list(labels), defaultdict(list)
    for i, w in enumerate(words):
        where[w].append(i)
    for w in sorted(where):
        for i, y in zip(where[w], rng.permutation([labels[i] for i in where[w]])):
            out[i] = str(y)
    return out


CONTROL = {"pos": word_type_control, "sense": within_word_control}


def held_out(x, labels, test):
    if test is None:  # too few tokens to split: leave-one-out, each token predicted by a probe of all the others
        keep = lambda i: np.arange(len(labels)) != i  # noqa: E731
        return float(np.mean([accuracy(x[keep(i)], [labels[j] for j in np.flatnonzero(keep(i))], x[i : i + 1],
                                       [labels[i]]) for i in range(len(labels))]))
    return accuracy(x[~test], [y for y, t in zip(labels, test) if not t], x[test], [y for y, t in zip(labels, test) if t])


for task, tokens in tasks.items():
    x = vectors(tokens)
    words = [t["word"].lower() for t in tokens]
    labels = [t[task] for t in tokens]
    test = np.array([t["split"] == "test" for t in tokens]) if "split" in tokens[0] else None
    control = CONTROL[task](words, labels, test)
    print(f"{task}: {len(tokens)} tokens, {len(set(labels))} classes")
    for layer in range(len(x)):
        acc, ctl = held_out(x[layer], labels, test), held_out(x[layer], control, test)
        print(f"  layer {layer}: accuracy {acc:.4f}  control {ctl:.4f}  selectivity {acc - ctl:+.4f}")
"""


def request_of(params: dict) -> ProbeRequest:
    """/insight_probes' parameters (model, data), defaults filled in and checked as the endpoint checks them."""
    unknown = set(params) - {"model", "data"}
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    request = ProbeRequest(params.get("model", "elmo-small"), params.get("data", "en"))
    check_request(request, Runtime())
    return request


def probes_code(request: ProbeRequest) -> Snippet:
    spec = get_spec(request.model)
    imports = ["import json", "import re", "import warnings", "from collections import Counter, defaultdict", "",
               "import numpy as np", "import torch", "from sklearn.exceptions import ConvergenceWarning",
               "from sklearn.linear_model import LogisticRegression", "from sklearn.pipeline import make_pipeline",
               "from sklearn.preprocessing import StandardScaler"]  # fmt: skip
    if spec.kind == "elmo":
        imports.append("from playground.elmo import embed")
    lines = header(
        "probes per layer: part of speech and word sense, each beside its control task",
        "逐层探针：词性与词义，各配一个控制任务",
        *imports,
    )
    lines += load_model(request.model, "AutoModel")
    lines += [comment("takes minutes on a CPU: ~50 probes per model", "在 CPU 上需要几分钟：每个模型约 50 个探针")]
    lines.append(_DATA.format(data=py(f"assets/probes/data-{request.lang}.json"), seed=SEED, c=C, max_iter=MAX_ITER, batch=BATCH))
    lines.append(_ELMO.format(word=py(ELMO_WORD.pattern)) if spec.kind == "elmo" else _TRANSFORMER)
    lines.append(_PROBES)
    return Snippet(join(lines), runs_offline=spec.source == "bundled")


VIEWS = {"insight_probes": (request_of, probes_code)}
