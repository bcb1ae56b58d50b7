"""What does each training source add to e5-mlm? A fresh head per source mix, on cached frozen layer-6 features.

Issue 18 asks to "measure what each source adds". A full e5-mlm run per source mix (layers 5-6 + head, ~1 h and
more on 2 cores) is out of reach, so this does it at the layer probe's scale (scripts/e5_mlm_layers.py): one
frozen forward per batch gives layer 6's hidden state (the layer e5-mlm is cut at) at every masked position,
tagged with the source of its text; then a fresh head (e5_mlm_data.fresh_head: transform + bias, decoder tied to
the frozen input embeddings) is trained for the same steps and seed on the positions of each source mix: all
sources, each source left out, and two single-kind mixes. Every head is read on the same held-out texts with the
same masks and on the same probes, so the differences are the sources' (and the noise's: "all" is also trained with
a second seed to show how large that is).

- Caching draws every batch round-robin from all sources (--quota texts each, --en-quota WordNet glosses, which
  have fewer masks), so a small source (the Debian FAQ, 1,155 texts) gets as many positions as a large one; the
  masks are text-level (e5_mlm_data.mask_text) at the rates e5-mlm's last run used (word lists 40 %, other text
  15 %). The cache grows across runs (--cache).
- Training mixes the positions as train_e5_mlm.py's batches would with that mix of sources
  (e5_mlm_data.batch_shares: English half, of the Chinese 3/4 CC-CEDICT word lists, the manuals by their size),
  weighted by each source's masked positions per text; a source left out gives its share to the others, as it
  would in a real run with --sources.
- The softmax is the pieces of ALL sources' training text for every head, so the losses are comparable.
- Held out: the 300 zh + 300 en held-out texts and masks of train_e5_mlm.py (Texts.build's split, the same seed);
  and, per Chinese source, up to --per-source texts of that source (its held-out texts, topped up with texts taken
  out of this script's training pool), for the loss per source. Probes: assets/e5_mlm/probes.json (official) and
  dev_probes.json, hit@5 at layer 6 (e5_mlm_data.probe_hits).

Writes assets/e5_mlm/sources.json (after every head, so a stopped run keeps what it measured) and appends to
assets/e5_mlm/train.log.

    nice -n 19 python scripts/e5_mlm_sources.py --feature-minutes 18 --steps 2000 > /tmp/e5_sources.out 2>&1 &
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import e5_mlm_data as data  # noqa: E402

LAYER = 6  # e5-mlm keeps layers 1-6 (docs/models-chinese.md: "Why 6 layers")
ENGLISH = "wordnet"
MANUALS = ("libreoffice-help", "debian-reference", "debian-faq", "maint-guide")


def configs(sources: list[str]) -> list[tuple[str, list[str], int]]:
    """(name, sources read, seed offset) of every head, the most telling first (a stopped run keeps those)."""
    everything = sources + [ENGLISH]
    out = [("all", everything, 0)]
    out += [(f"without {s}", [t for t in everything if t != s], 0) for s in everything]
    out.append(("all, seed +1", everything, 1))
    out.append(("cc-cedict + wordnet", ["cc-cedict", ENGLISH], 0))
    out.append(("manuals + wordnet", [*MANUALS, ENGLISH], 0))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--feature-minutes", type=float, default=20.0, help="time spent growing the cache this run")
    parser.add_argument("--steps", type=int, default=400, help="head steps per source mix")
    parser.add_argument("--vectors", type=int, default=256, help="masked positions per step")
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--quota", type=int, default=4, help="texts per Chinese source in every cached batch")
    parser.add_argument("--en-quota", type=int, default=12, help="WordNet texts per cached batch (fewer masks each)")
    parser.add_argument("--per-source", type=int, default=100, help="held-out texts per Chinese source")
    parser.add_argument("--everyday-mask-rate", type=float, default=0.4, help="share hidden in the word lists")
    parser.add_argument("--only", nargs="+", default=None, help="run only these configs (names as in the log)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/e5_source_features.pt"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import torch
    import torch.nn.functional as F

    torch.set_num_threads(1)
    data.EVERYDAY_MASK_RATE = args.everyday_mask_rate  # what texts.rate() gives a word list: e5-mlm's run 4 used 0.4
    say = data.logger()
    model, tokenizer = data.load_e5_mlm(LAYER)
    texts = data.Texts.build(tokenizer, args.seed, None)
    tags = texts.sources + [ENGLISH]
    say(
        f"--- source study (scripts/e5_mlm_sources.py): head only on frozen layer {LAYER}, {args.steps} steps, "
        f"seed {args.seed}; {texts.describe()}"
    )

    def features(batch_texts, rng):
        """Layer-6 vectors at the masks of `batch_texts` (one forward), their answers (index in cand), the text row."""
        masked, labels = zip(*(data.mask_text(t, rng, tokenizer, texts.rate(t)) for t in batch_texts))
        hs, ys, rows = data.hidden_at_masks(model.bert, tokenizer, list(masked), list(labels), [LAYER], with_rows=True)
        return hs[0], texts.remap[ys], rows

    def features_of(all_texts, rng, size=50):
        parts = [features(all_texts[i : i + size], rng) for i in range(0, len(all_texts), size)]
        return torch.cat([p[0] for p in parts]), torch.cat([p[1] for p in parts])

    t0 = time.perf_counter()
    # train_e5_mlm.py's held-out masks exactly: the same rng, the same texts in the same order, the same rates.
    held_rng = random.Random(args.seed + 1)
    held = {lang: features_of(t[:300], held_rng) for lang, t in (("zh", texts.zh_held), ("en", texts.en_held))}
    # Per Chinese source: its held-out texts, topped up from its training texts (then kept out of training here).
    pools = {s: [] for s in tags}
    for t in texts.zh_train:
        pools[texts.source_of[t]].append(t)
    pools[ENGLISH] = texts.en_train
    per_source_rng = random.Random(args.seed + 2)
    for s in texts.sources:
        own = [t for t in texts.zh_held if texts.source_of[t] == s][: args.per_source]
        extra = args.per_source - len(own)
        if extra > 0:
            own += pools[s][:extra]
            pools[s] = pools[s][extra:]
        held[s] = features_of(own, per_source_rng)
    say(
        "held out: zh 300, en 300 texts (train_e5_mlm.py's masks); per source "
        + ", ".join(f"{s} {len(held[s][1])} positions" for s in texts.sources)
        + f" ({(time.perf_counter() - t0) / 60:.1f} min)"
    )

    key = {"sources": tags, "seed": args.seed, "everyday_rate": data.EVERYDAY_MASK_RATE, "per_source": args.per_source}
    saved = torch.load(args.cache) if args.cache.exists() else None
    if saved is not None and saved["key"] == key:
        xs, ys, src, n_texts = [saved["x"]], [saved["y"]], [saved["src"]], saved["texts"]
        say(f"features: {len(saved['y'])} masked positions read from {args.cache}")
    else:
        xs, ys, src, n_texts = [], [], [], dict.fromkeys(tags, 0)

    def save():
        torch.save({"key": key, "x": torch.cat(xs), "y": torch.cat(ys), "src": torch.cat(src), "texts": n_texts}, args.cache)

    rng = random.Random(args.seed * 1000 + sum(n_texts.values()))
    started, batches = time.perf_counter(), 0
    while time.perf_counter() - started < args.feature_minutes * 60:
        # Round-robin: every source's --quota texts in each batch, so small sources are not starved of positions.
        quota = {s: args.en_quota if s == ENGLISH else args.quota for s in tags}
        batch = [t for s in tags for t in rng.sample(pools[s], quota[s])]
        tag_of_row = torch.tensor([i for i, s in enumerate(tags) for _ in range(quota[s])])
        x, y, rows = features(batch, rng)
        xs.append(x)
        ys.append(y)
        src.append(tag_of_row[rows])
        for s in tags:
            n_texts[s] += quota[s]
        batches += 1
        if batches % 20 == 0:
            save()
            say(f"features: {sum(len(v) for v in ys)} masked positions, {(time.perf_counter() - started) / 60:.1f} min")
    save()
    x_all, y_all, src_all = torch.cat(xs), torch.cat(ys), torch.cat(src)
    keep = y_all >= 0  # an answer outside the softmax (a piece no training text has): no target
    x_all, y_all, src_all = x_all[keep], y_all[keep], src_all[keep]
    n_pos = {s: int((src_all == i).sum()) for i, s in enumerate(tags)}
    per_text = {s: n_pos[s] / max(n_texts[s], 1) for s in tags}  # a word list hides more than a gloss
    say(f"features: {len(y_all)} masked positions with an answer in the softmax: {n_pos}")

    weight = model.bert.embeddings.word_embeddings.weight.detach()[texts.cand]
    zh_counts = {s: len(pools[s]) for s in texts.sources}
    out_path = data.OUT / "sources.json"
    results = {
        "method": (
            f"fresh head (e5_mlm_data.fresh_head) on frozen layer-{LAYER} features of e5-small, {args.steps} steps of "
            f"{args.vectors} masked positions, lr {args.lr}, seed {args.seed}; held-out loss over the "
            f"{len(texts.cand)}-piece softmax; hit@5 at layer {LAYER}"
        ),
        "positions": n_pos,
        "texts_cached": n_texts,
        "held_out_positions": {k: int((v[1] >= 0).sum()) for k, v in held.items()},
        "configs": {},
    }
    for name, mix, seed_offset in configs(texts.sources):
        if args.only and name not in args.only:
            continue
        t1 = time.perf_counter()
        text_share = data.batch_shares({s: zh_counts[s] for s in mix if s != ENGLISH}, ENGLISH in mix)
        pos_share = {s: text_share[s] * per_text[s] for s in text_share}
        total = sum(pos_share.values())
        pos_share = {s: v / total for s, v in pos_share.items()}
        draw = torch.zeros(len(y_all), dtype=torch.float64)  # each position's chance: its source's share, spread evenly
        for i, s in enumerate(tags):
            if s in pos_share:
                draw[src_all == i] = pos_share[s] / n_pos[s]
        head = data.fresh_head(model, texts.cand, args.seed + seed_offset)
        optim = torch.optim.AdamW(head.parameters(), lr=args.lr, weight_decay=0.01)
        gen = torch.Generator().manual_seed(args.seed + seed_offset)

        def loss_of(x, y):
            ok = y >= 0
            return F.cross_entropy(head(x[ok].float(), weight), y[ok])

        for _ in range(args.steps):
            pick = torch.multinomial(draw, args.vectors, replacement=True, generator=gen)
            loss = loss_of(x_all[pick], y_all[pick])
            loss.backward()
            optim.step()
            optim.zero_grad(set_to_none=True)
        with torch.no_grad():
            losses = {k: round(float(loss_of(x, y)), 3) for k, (x, y) in held.items()}
        hits, dev = {}, {}
        for lang in ("zh", "en"):
            hits[lang], _ = data.probe_hits(model, tokenizer, head, texts, data.PROBES[lang], LAYER)
            dev[lang], _ = data.probe_hits(model, tokenizer, head, texts, data.DEV_PROBES[lang], LAYER)
        results["configs"][name] = {
            "sources": mix,
            "position_share": {s: round(v, 3) for s, v in pos_share.items()},
            "seed": args.seed + seed_offset,
            "held_out_loss": losses,
            "hit_at_5": {k: f"{v}/{len(data.PROBES[k])}" for k, v in hits.items()},
            "dev_hit_at_5": {k: f"{v}/{len(data.DEV_PROBES[k])}" for k, v in dev.items()},
        }
        out_path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
        say(
            f"{name}: held-out loss zh {losses['zh']:.3f} en {losses['en']:.3f}; "
            + " ".join(f"{s} {losses[s]:.2f}" for s in texts.sources)
            + f"; hit@5 zh {hits['zh']}/{len(data.PROBES['zh'])} en {hits['en']}/{len(data.PROBES['en'])}; "
            f"dev zh {dev['zh']}/{len(data.DEV_PROBES['zh'])} en {dev['en']}/{len(data.DEV_PROBES['en'])} "
            f"({(time.perf_counter() - t1) / 60:.1f} min)"
        )


if __name__ == "__main__":
    main()
