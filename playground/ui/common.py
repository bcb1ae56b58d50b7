"""Helpers every tab uses: model choices, loading with progress, errors, provenance, exports."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

import gradio as gr

from playground import availability, models
from playground.errors import InputError
from playground.registry import ModelSpec, get_spec, registry
from playground.ui.i18n import t
from playground.ui.text import STRINGS

EXPORT_DIR = Path(tempfile.gettempdir()) / "transformer-playground-exports"


def model_choices(kinds: Iterable[str], lang: str, languages: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """(label, key) for the available models of these kinds, optionally only those speaking one of `languages`."""
    wanted = set(languages or [])
    return [
        (f"{s.label} · {s.family}", s.key)
        for s in availability.available_specs(*kinds)
        if not wanted or wanted & set(s.languages)
    ]


def on_gpu(fn: Callable) -> Callable:
    """`spaces.GPU` on a ZeroGPU Space (CUDA exists only inside it), the function itself everywhere else."""
    if not os.environ.get("SPACES_ZERO_GPU"):
        return fn
    try:
        import spaces
    except ImportError:
        return fn
    return spaces.GPU(fn)


def why_unavailable(spec: ModelSpec, lang: str) -> str:
    """The availability reason in the user's language."""
    state = availability.check(spec)
    return t(f"avail.{state.code}", lang, bundle=spec.bundle, hf_id=spec.hf_id) if state.code else state.reason


def unavailable_note(kinds: Iterable[str], lang: str) -> str:
    """Markdown listing the models of these kinds that cannot load here, and why."""
    missing = [s for s in registry().values() if s.kind in set(kinds) and not availability.check(s).ok]
    lines = [f"- {s.label} (`{s.hf_id}`): {why_unavailable(s, lang)}" for s in missing]
    return "" if not lines else t("common.unavailable_header", lang) + "\n" + "\n".join(lines)


def unavailable_panel(kinds: Iterable[str], loc: Any) -> None:
    """A collapsed "Models not available here" list (nothing when all can load), relabelled on a language switch."""
    kinds = tuple(kinds)
    if unavailable_note(kinds, "en"):
        with loc.add(gr.Accordion(t("common.unavailable_title", "en"), open=False), label="common.unavailable_title"):
            loc.add(gr.Markdown(unavailable_note(kinds, "en")), value=lambda lang: unavailable_note(kinds, lang))


def load_model(key: str, lang: str, progress: gr.Progress | None = None) -> models.LoadedModel:
    """Load an allow-listed model, telling the user while the first load runs; errors become gr.Error."""
    try:
        spec = get_spec(key)
    except ValueError:
        raise gr.Error(t("common.unknown_model", lang, name=key)) from None
    if progress is not None and not models.is_loaded(key):
        progress(0.0, desc=t("common.loading", lang, model=spec.label))
    try:
        return models.load(key)
    except Exception as exc:  # a missing download or a broken cache: tell, don't crash
        raise gr.Error(t("common.model_failed", lang, model=spec.label, reason=str(exc)[:300])) from None


def check_keys(keys: Iterable[str] | None, lang: str) -> list[ModelSpec]:
    """The specs for `keys`, refusing empty selections and keys outside the allow-list."""
    keys = [k for k in (keys or []) if k]
    if not keys:
        raise gr.Error(t("common.no_models", lang))
    specs = []
    for key in keys:
        try:
            specs.append(get_spec(key))
        except ValueError:
            raise gr.Error(t("common.unknown_model", lang, name=key)) from None
    return specs


@contextmanager
def friendly_errors(lang: str) -> Iterator[None]:
    """Turn bad-input errors from the backend into a gr.Error in the user's language."""
    try:
        yield
    except InputError as exc:
        key = f"error.{exc.code}"
        raise gr.Error(t(key, lang, **exc.params) if key in STRINGS else str(exc)) from None
    except ValueError as exc:
        raise gr.Error(str(exc)) from None


def provenance(lm: models.LoadedModel, lang: str) -> str:
    return t("common.provenance", lang, model=lm.spec.hf_id, device=lm.device)


def export_file(name: str, content: str | bytes) -> str:
    """Write an export (CSV/JSON/HTML) to a fresh temp folder; returns the path for gr.File/DownloadButton."""
    EXPORT_DIR.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(dir=EXPORT_DIR))
    path = folder / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return str(path)


def export_json(name: str, payload: Any) -> str:
    return export_file(name, json.dumps(payload, ensure_ascii=False, indent=2))


def export_figure_html(name: str, figure: Any) -> str:
    """A self-contained HTML file (plotly.js inlined: it opens offline, in class)."""
    return export_file(name, figure.to_html(include_plotlyjs=True, full_html=True))
