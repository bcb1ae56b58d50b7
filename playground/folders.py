"""Where the playground writes what it makes (converted weights, URL downloads): the configured cache folder, or a
temporary one when that cannot be written. Both models.py (conversions) and availability.py (is a download there?)
ask here, so neither imports the other for it.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import logging
import shutil
import tempfile
from pathlib import Path

from playground import settings

log = logging.getLogger("playground")


def configured_cache_dir() -> Path:
    """PLAYGROUND_CACHE_DIR, default ~/.cache/transformer-playground (it may be read-only: see cache_dir)."""
    default = Path.home() / ".cache" / "transformer-playground"
    return settings.current().cache_dir or default


def _probe(folder: Path) -> bool:
    """Can a file be made here now?"""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            return True
    except OSError:
        return False


_LOST: set[Path] = set()  # folders that were writable at first and then were not (a mount remounted read-only)


def _writable(folder: Path) -> bool:
    """Can files be written here? Asked once per folder and process (readers ask often), except that a writer asks
    again before it writes (`write_dir`) and a folder that lost write access stays read-only from then on."""
    return folder not in _LOST and _first_probe(folder)


@functools.cache
def _first_probe(folder: Path) -> bool:
    return _probe(folder)


def cache_dir() -> Path:
    """Where converted weights and downloads are written: the configured folder, or, when it cannot be written
    (a read-only mount), a temporary folder of this process and these settings -- a conversion is then made once
    per process instead of failing and starting over on every request. `cache_read_only()` says which."""
    configured = configured_cache_dir()
    if _writable(configured):
        return configured
    return _fallback(configured, tempfile.gettempdir())


def write_dir() -> Path:
    """`cache_dir()` for a writer that is about to write (a conversion, a download), the configured folder asked
    again now: one made read-only after the app started passed the first probe, so every request converted SmolLM2
    for ~35 s and then failed to write it (issue 37, item 19). A folder found read-only here stays so, for every
    reader too (the status panel says it)."""
    configured = configured_cache_dir()
    if _writable(configured) and not _probe(configured):
        _LOST.add(configured)
        log.warning("the cache folder became read-only: conversions and downloads now go to a temporary folder")
    return cache_dir()


@functools.cache
def _fallback(configured: Path, tmp: str) -> Path:
    """A temporary cache folder made for this process and this configured folder, removed at exit. A fixed name
    in the shared temporary folder was shared by every app process on the machine and kept a "not kept" conversion
    across restarts (issue 37, item 25)."""
    folder = Path(tempfile.mkdtemp(prefix="transformer-playground-cache-", dir=tmp))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


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
