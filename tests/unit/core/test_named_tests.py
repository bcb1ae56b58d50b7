"""Every test the docs and comments name (`tests/<tier>/<file>.py::test_name`) exists: the trust audit and the
contributing page map each claim to the test that proves it, and tests are renamed when they are merged."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
NAMED = re.compile(r"((?:tests/)?(?:unit|integration|e2e|notebooks)/[\w/]+\.py)::(test_\w+)")


def test_every_named_test_exists():
    sources = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "tests").rglob("*.py")]
    missing = []
    for source in sources:
        for match in NAMED.finditer(source.read_text(encoding="utf-8")):
            path = ROOT / (match[1] if match[1].startswith("tests/") else f"tests/{match[1]}")
            if not path.exists() or not re.search(rf"def {match[2]}\b", path.read_text(encoding="utf-8")):
                missing.append(f"{source.relative_to(ROOT)}: {match[0]}")
    assert not missing, missing
