"""Compute the shipped probe curves: every probed model on each language it reads, into assets/probes/probes.json.

    python scripts/probe_data.py    # the fixed data (once; committed): assets/probes/data-en.json, data-zh.json
    python scripts/probes.py        # the curves: ~10 min on 2 CPU cores (bench/RESULTS.md), nice -n 19 on a shared box
    python scripts/probes.py --only minilm/en --out /tmp/x.json    # one pair (the integration test does this)
    python scripts/probes.py --merge /tmp/x.json                   # add finished pairs to the shipped file

Deterministic: fixed data and split (scripts/probe_data.py), a fixed control-task seed (playground.probes.SEED),
one CPU thread; the same machine gives the same numbers, a different BLAS may move the last digits.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def pairs() -> list[tuple[str, str]]:
    from playground.probes import LANGS, PROBED
    from playground.registry import get_spec

    return [(m, lang) for m in PROBED for lang in LANGS if get_spec(m).speaks(lang)]


def run(only: list[str] | None = None, layers: tuple[int, ...] | None = None):
    import torch
    from threadpoolctl import threadpool_limits  # scikit-learn's own dependency

    from playground import models
    from playground.probes import compute

    # one thread for torch and for the BLAS under scikit-learn: the same sums in the same order, the same numbers
    torch.set_num_threads(1)
    threadpool_limits(1)
    chosen = [(m, lang) for m, lang in pairs() if not only or f"{m}/{lang}" in only]
    for model, lang in chosen:
        result = compute(models.load(model), lang, layers=layers)
        pos, sense = ([round(a, 3) for a in c.accuracy] for c in (result.pos, result.sense))
        print(f"{model}/{lang}: pos {pos} sense {sense} (vectors {result.feature_seconds}s, probes {result.train_seconds}s)",
              flush=True)  # fmt: skip
        yield result


def markdown(results) -> str:
    """The curves as docs/probes.md shows them (a unit test holds the page equal to this): one table per pair."""
    out = []
    for r in results:
        pos, sense = r.pos, r.sense
        out += [
            f"### {r.model_label} (`{r.model}`), {'English' if r.lang == 'en' else 'Chinese'}",
            "",
            f"Part of speech: {pos.n_train} training / {pos.n_test} held-out tokens, {pos.n_classes} tags; word alone "
            f"{100 * pos.word_alone:.1f} %, majority tag {100 * pos.majority:.1f} %. Word sense: "
            + (f"{sense.n_test} tokens, leave-one-out" if sense.split == "leave-one-out"
               else f"{sense.n_train} / {sense.n_test} tokens")
            + f", {sense.n_classes} senses; word alone {100 * sense.word_alone:.1f} %. "
            f"Vectors {r.feature_seconds:.0f} s, probes {r.train_seconds:.0f} s (2 shared CPU cores, one thread).",
            "",
            "| layer | POS acc. | POS control | POS selectivity | sense acc. | sense control | sense selectivity |",
            "|---|---|---|---|---|---|---|",
        ]  # fmt: skip
        for i, name in enumerate(r.layer_names):
            cells = [
                f"{100 * c.accuracy[i]:.1f} | {100 * c.control[i]:.1f} | {100 * c.selectivity[i]:+.1f}" for c in (pos, sense)
            ]
            out.append(f"| {name} | {cells[0]} | {cells[1]} |")
        out.append("")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="model/lang pairs, e.g. minilm/en")
    parser.add_argument("--out", type=Path, default=ROOT / "assets" / "probes" / "probes.json")
    parser.add_argument("--layers", type=int, nargs="*", help="fit only these layers (a spot check; default: all)")
    parser.add_argument("--merge", type=Path, nargs="*", help="add these result files' pairs to --out (no computing)")
    parser.add_argument("--markdown", action="store_true", help="print docs/probes.md's tables from the shipped curves")
    args = parser.parse_args()
    if args.markdown:
        from playground.probes import stored

        print(markdown(stored().values()))
        return
    from playground.probes.store import to_json

    # Pairs already in --out and not recomputed are kept, and the file is written after each pair: a stopped run
    # keeps what it finished, and `--only e5-small/zh` adds one pair to the shipped file.
    kept = json.loads(args.out.read_text(encoding="utf-8"))["results"] if args.out.exists() else []
    results = {(r["model"], r["lang"]): r for r in kept}
    order = pairs()
    if args.merge is not None:  # e.g. two pairs computed in parallel into their own files
        for path in args.merge:
            results |= {(r["model"], r["lang"]): r for r in json.loads(path.read_text(encoding="utf-8"))["results"]}
        ordered = sorted(results.values(), key=lambda r: order.index((r["model"], r["lang"])))
        args.out.write_text(json.dumps({"results": ordered}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.out}: {[(r['model'], r['lang']) for r in ordered]}")
        return
    for result in run(args.only, tuple(args.layers) if args.layers else None):
        results[result.model, result.lang] = to_json([result])["results"][0]
        ordered = sorted(results.values(), key=lambda r: order.index((r["model"], r["lang"])))
        args.out.write_text(json.dumps({"results": ordered}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
