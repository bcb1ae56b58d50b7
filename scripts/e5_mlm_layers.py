"""Which layer of multilingual-e5-small still knows which token was hidden? A head per layer, on cached features.

The hypothesis (issue 18, a head on the final layer reached hit@5 0/16 zh): e5's top layers are tuned for
contrastive sentence embeddings and have lost token identity, middle ones keep it. One frozen forward per
batch gives every layer's hidden state at the masked positions; a fresh head (BERT's transform + LayerNorm +
bias, decoder tied to the frozen input embeddings, softmax over the pieces of the training text) is trained
on each layer's vectors for the same steps, then compared on held-out loss and on the everyday probes
(assets/e5_mlm/probes.json, read at that layer).

Masking is done on the text, the way a student types a probe: a hidden Chinese character becomes "<mask>" in the
string, as does a hidden English word, and the string is tokenized afterwards (e5_mlm_data.mask_text). Piece
masking would hide 牛奶 whole, never 奶 after 牛, so the probes would ask what training never showed.

    nice -n 19 python scripts/e5_mlm_layers.py --feature-minutes 15 --steps 250 --layers 4 6 8 10 12
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import e5_mlm_data as data  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--feature-minutes", type=float, default=12.0)
    parser.add_argument("--steps", type=int, default=600, help="head steps per layer")
    parser.add_argument("--vectors", type=int, default=256)
    parser.add_argument("--layers", type=int, nargs="+", default=[4, 6, 8, 10, 12])
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--sources", nargs="+", default=None, help="Chinese sources (e5_corpus names); default all")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/e5_layer_features.pt"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    say = data.logger()
    model, tokenizer = data.load_e5_mlm()
    texts = data.Texts.build(tokenizer, args.seed, args.sources)
    say(f"--- layer probe (scripts/e5_mlm_layers.py): layers {args.layers}; {texts.describe()}")

    def features(batch_texts, rng):
        masked, labels = zip(*(data.mask_text(t, rng, tokenizer) for t in batch_texts))
        hs, ys = data.hidden_at_masks(model.bert, tokenizer, list(masked), list(labels), args.layers)
        return hs, texts.remap[ys]

    import random

    held_rng = random.Random(args.seed + 1)
    held = {lang: features(t[:300], held_rng) for lang, t in (("zh", texts.zh_held), ("en", texts.en_held))}
    cached = torch.load(args.cache) if args.cache.exists() else None
    if cached is not None and cached["layers"] == args.layers and cached["sources"] == texts.sources:
        xs, ys = [cached["x"]], [cached["y"]]
        say(f"features: {len(cached['y'])} masked positions read from {args.cache}")
    else:
        xs, ys = [], []
    rng = random.Random(args.seed + len(ys))
    started = time.perf_counter()
    while time.perf_counter() - started < args.feature_minutes * 60:
        x, y = features(texts.batch(rng, args.batch), rng)
        xs.append(x)
        ys.append(y)
        if len(xs) % 10 == 0:
            torch.save({"x": torch.cat(xs, 1), "y": torch.cat(ys), "layers": args.layers, "sources": texts.sources}, args.cache)
            say(f"features: {sum(len(v) for v in ys)} masked positions, {(time.perf_counter() - started) / 60:.1f} min")
    x_all, y_all = torch.cat(xs, 1), torch.cat(ys)
    torch.save({"x": x_all, "y": y_all, "layers": args.layers, "sources": texts.sources}, args.cache)
    keep = y_all >= 0
    x_all, y_all = x_all[:, keep], y_all[keep]
    say(f"features: {len(y_all)} masked positions with a known answer; a head per layer, {args.steps} steps each")

    weight = model.bert.embeddings.word_embeddings.weight.detach()[texts.cand]
    results = {}
    for li, layer in enumerate(args.layers):
        head = data.fresh_head(model, texts.cand, args.seed)
        optim = torch.optim.AdamW(head.parameters(), lr=args.lr, weight_decay=0.01)
        t0 = time.perf_counter()

        def loss_of(x, y):
            return F.cross_entropy(head(x.float(), weight), y)

        for step in range(args.steps):
            pick = torch.randint(0, len(y_all), (args.vectors,))
            loss = loss_of(x_all[li, pick], y_all[pick])
            loss.backward()
            optim.step()
            optim.zero_grad(set_to_none=True)
        with torch.no_grad():
            losses = {}
            for lang, (x, y) in held.items():
                ok = y >= 0
                losses[lang] = float(loss_of(x[li, ok], y[ok]))
        hits, shown = {}, {}
        for lang in ("zh", "en"):
            hits[lang], shown[lang] = data.probe_hits(model, tokenizer, head, texts, data.PROBES[lang], layer)
        results[layer] = {"loss": losses, "hits": hits}
        say(
            f"layer {layer}: held-out loss zh {losses['zh']:.3f} en {losses['en']:.3f}; "
            f"hit@5 zh {hits['zh']}/{len(data.PROBES['zh'])} en {hits['en']}/{len(data.PROBES['en'])} "
            f"({(time.perf_counter() - t0) / 60:.1f} min)"
        )
        for lang in ("zh", "en"):
            for text, top in shown[lang][:6]:
                say(f"    {text} -> {' '.join(top)}")
    (ROOT / "assets" / "e5_mlm" / "layers.json").write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
