"""Where the playground writes what it makes (converted weights, URL downloads): the configured cache folder, or a
temporary one when that cannot be written. Both models.py (conversions) and availability.py (is a download there?)
ask here, so neither imports the other for it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from pathlib import Path

from playground import settings


def configured_cache_dir() -> Path:
    """PLAYGROUND_CACHE_DIR, default ~/.cache/transformer-playground (it may be read-only: see cache_dir)."""
    default = Path.home() / ".cache" / "transformer-playground"
    return settings.current().cache_dir or default


@functools.cache
def _writable(folder: Path) -> bool:
    """Can files be written here? Asked once per folder and process (a read-only mount stays read-only)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            return True
    except OSError:
        return False


def cache_dir() -> Path:
    """Where converted weights and downloads are written: the configured folder, or, when it cannot be written
    (a read-only mount), one temporary folder for this machine -- a conversion is then made once per restart
    instead of failing and starting over on every request. `cache_read_only()` says which."""
    configured = configured_cache_dir()
    if _writable(configured):
        return configured
    return Path(tempfile.gettempdir()) / f"transformer-playground-cache-{os.getuid() if hasattr(os, 'getuid') else 0}"


def cache_read_only() -> bool:
    """The configured cache folder cannot be written, so writes go to a temporary folder (the status panel says so)."""
    return not _writable(configured_cache_dir())


def sha256(path: Path) -> str:
    """The SHA-256 of a file, as hex (~1 s for SmolLM2's 540 MB)."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def checksum_ok(path: Path, digest: str) -> bool:
    """`path` hashes to `digest`: bit-rot inside a converted copy keeps its size and header, loads fine and predicts
    garbage (e5-mlm answered `<unk>`s; polysemy failed on NaN), so every conversion's manifest keeps one. Hashed once
    per file version (size, mtime) and process."""
    stat = path.stat()
    return _hashes_to(path, stat.st_size, stat.st_mtime_ns, digest)


@functools.cache
def _hashes_to(path: Path, size: int, mtime_ns: int, digest: str) -> bool:
    return sha256(path) == digest
