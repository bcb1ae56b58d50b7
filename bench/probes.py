"""What a probe curve costs: the forward passes, fitting every probe (task + control, every layer), and reading the
shipped curves as a click does; why the page reads precomputed curves (scripts/probes.py) rather than fitting live.

    nice -n 19 python bench/probes.py [elmo-small/en ...]    # default: every shipped pair (minutes each)
    python bench/probes.py --shipped                          # the times scripts/probes.py recorded, no refit

One thread for torch and BLAS, as scripts/probes.py runs. Prints times and ratios; asserts nothing.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(pairs: list[str], shipped: bool = False) -> None:
    import torch
    from threadpoolctl import threadpool_limits

    from playground import models
    from playground.probes import ProbeRequest, compute, run_probes, stored
    from playground.runtime import Runtime

    torch.set_num_threads(1)
    threadpool_limits(1)
    pairs = pairs or [f"{m}/{lang}" for m, lang in stored()]
    print("| pair | layers | tokens (pos / sense) | vectors s | probes s | per probe s | first read ms | probes / read |")
    print("|---|---|---|---|---|---|---|---|")
    for pair in pairs:
        model, lang = pair.split("/")
        result = stored()[model, lang] if shipped else compute(models.load(model), lang)
        n_probes = 4 * len(result.layers)  # task + control, for each of the two labels
        if result.sense.split == "leave-one-out":
            n_probes += 2 * len(result.layers) * (result.sense.n_test - 1)  # one fit per held-out token
        stored.cache_clear()  # a first click: the JSON parsed (later clicks find it parsed, ~microseconds)
        start = time.perf_counter()
        run_probes(ProbeRequest(model, lang), Runtime())
        read_ms = (time.perf_counter() - start) * 1000
        loo = result.sense.split == "leave-one-out"  # then n_test counts every token (each held out once)
        sense_tokens = result.sense.n_test if loo else result.sense.n_train + result.sense.n_test
        tokens = f"{result.pos.n_train + result.pos.n_test} / {sense_tokens}"
        print(f"| {pair} | {len(result.layers)} | {tokens} | {result.feature_seconds:.1f} | {result.train_seconds:.1f} | "
              f"{result.train_seconds / n_probes:.2f} | {read_ms:.1f} | {1000 * result.train_seconds / read_ms:,.0f} |",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    args = sys.argv[1:]
    main([a for a in args if a != "--shipped"], shipped="--shipped" in args)
