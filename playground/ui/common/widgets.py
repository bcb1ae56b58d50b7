"""Helpers every tab uses: model choices, loading with progress, errors, provenance, exports."""

from __future__ import annotations

import atexit
import functools

import html
import json
import logging
import os
import re
import secrets
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import gradio as gr

from playground import availability, models
from playground.errors import InputError
from playground.registry import LAB_MODEL_ID, LAB_MODEL_LABEL, ModelSpec, get_spec, lab_name_parts, registry
from playground.runtime import Runtime
from playground.serialize import jsonable
from playground.serve import runtime as app_runtime
from playground.ui.common.i18n import t
from playground.ui.common.strings import STRINGS

log = logging.getLogger("playground")
# This process's exports (made on the first download, removed at exit). A fixed name in the shared temporary folder
# was shared by every app process on the machine, each pruning the others' files to its own count (issue 37, item 25).
EXPORT_DIR = Path(tempfile.gettempdir()) / f"transformer-playground-exports-{os.getpid()}-{secrets.token_hex(4)}"
atexit.register(shutil.rmtree, EXPORT_DIR, ignore_errors=True)
EXPORT_KEEP = 60  # export files kept at once; older ones are deleted


def model_choices(kinds: Iterable[str], lang: str, languages: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """(label, key) for the available models of these kinds, optionally only those speaking one of `languages`."""
    wanted = set(languages or [])
    return [
        (f"{model_label(s, lang)} · {s.family}", s.key)
        for s in availability.available_specs(*kinds)
        if not wanted or wanted & set(s.languages)
    ]


def model_label(spec: ModelSpec, lang: str) -> str:
    """A model's name for people: its label, marked when its weights ship with the app (they work offline)."""
    label = label_in(spec.label, lang)
    return t("common.bundled_label", lang, label=label) if spec.source == "bundled" else label


def model_id_in(model_id: str, lang: str) -> str:
    """A model id as chart titles show it: hub ids stay as they are; an id with a description ("... + MLM head trained
    here", a session's lab model) has a translation, so a Chinese chart has no English phrase in its title."""
    for spec in registry().values():
        if spec.hf_id == model_id and f"models.{spec.key}.id" in STRINGS:
            return t(f"models.{spec.key}.id", lang)
    lab = lab_name_parts(model_id, LAB_MODEL_ID)
    if lab is not None:
        return t("mlm_lab.model_id", lang, base=lab[0], steps=lab[1])
    return model_id


def label_in(label: str, lang: str) -> str:
    """A registry label in the user's language. Results carry the English label; proper names stay as they are,
    descriptive ones ("... trained here", a session's lab model) have a translation under `models.<key>`
    (ui/common/text_models.py) or `mlm_lab.model_label`."""
    for spec in registry().values():
        if spec.label == label and f"models.{spec.key}" in STRINGS:
            return t(f"models.{spec.key}", lang)
    lab = lab_name_parts(label, LAB_MODEL_LABEL)
    if lab is not None:
        return t("mlm_lab.model_label", lang, base=label_in(lab[0], lang), steps=lab[1])
    return label


def why_unavailable(spec: ModelSpec, lang: str) -> str:
    """The availability reason in the user's language."""
    state = availability.check(spec)
    return t(f"avail.{state.code}", lang, bundle=spec.bundle, hf_id=spec.hf_id) if state.code else state.reason


def unavailable_note(kinds: Iterable[str], lang: str) -> str:
    """Markdown listing the models of these kinds that cannot load here, and why."""
    missing = [s for s in registry().values() if s.kind in set(kinds) and not availability.check(s).ok]
    lines = [f"- {label_in(s.label, lang)} (`{model_id_in(s.hf_id, lang)}`): {why_unavailable(s, lang)}" for s in missing]
    if not lines:
        return ""
    codes = dict.fromkeys(availability.check(s).code or "other" for s in missing)  # one instruction per reason
    fixes = [f"- {t(f'avail.fix.{c}' if f'avail.fix.{c}' in STRINGS else 'avail.fix.other', lang)}" for c in codes]
    return "\n".join([t("common.unavailable_header", lang), *lines, "", t("common.unavailable_fix", lang), *fixes])


def unavailable_panel(kinds: Iterable[str], loc: Any) -> None:
    """A collapsed "Models not available here" list (nothing when all can load), relabelled on a language switch."""
    kinds = tuple(kinds)
    if unavailable_note(kinds, "en"):
        with loc.add(gr.Accordion(t("common.unavailable_title", "en"), open=False), label="common.unavailable_title"):
            loc.add(gr.Markdown(unavailable_note(kinds, "en")), value=lambda lang: unavailable_note(kinds, lang))


def on_load_message(lang: str, progress: Any = None) -> Callable[[ModelSpec], None] | None:
    """The `on_load` callback for `models.load`: a progress message while a first load runs."""
    if progress is None:
        return None
    # No fraction: a load reports none, so 0.0 stayed on screen as "0.0 %" for the whole first load (issue 37, low);
    # None shows the message without a bar (a download says its own percentage in the message).
    return lambda spec: progress(None, desc=t("common.loading", lang, model=label_in(spec.label, lang)))


def for_request(lang: str, progress: Any = None) -> Runtime:
    """The app runtime for one page event: first loads tell the user in their language."""
    return app_runtime.APP.with_progress(on_load_message(lang, progress))


def load_model(key: str, lang: str, progress: gr.Progress | None = None) -> models.LoadedModel:
    """Load an allow-listed model, telling the user while the first load runs; errors become gr.Error."""
    try:
        spec = get_spec(key)
    except ValueError:
        raise refuse(t("common.unknown_model", lang, name=escape(key))) from None
    try:
        return models.load(key, on_load=on_load_message(lang, progress))
    except Exception as exc:  # a missing download or a broken cache: tell, don't crash
        log.warning("loading %s failed: %s", key, exc)  # the full reason, paths included, stays in the server log
        name = escape(label_in(spec.label, lang))
        raise refuse(t("common.model_failed", lang, model=name, reason=public_reason(exc))) from None


def check_keys(keys: Iterable[str] | None, lang: str) -> list[ModelSpec]:
    """The specs for `keys`, refusing empty selections and keys outside the allow-list."""
    keys = [k for k in (keys or []) if k]
    if not keys:
        raise refuse(t("common.no_models", lang))
    specs = []
    for key in keys:
        try:
            specs.append(get_spec(key))
        except ValueError:
            raise refuse(t("common.unknown_model", lang, name=escape(key))) from None
    return specs


@contextmanager
def friendly_errors(lang: str) -> Iterator[None]:
    """Turn bad-input errors from the backend into a gr.Error in the user's language (escaped for the page's toast,
    which renders HTML; as text for a JSON client, see `json_client`)."""
    try:
        yield
    except InputError as exc:
        inert = shorten if json_client() else escape
        params = {name: inert(value) for name, value in exc.params.items()}
        key = next((k for k in (f"error.{exc.code}", f"common.{exc.code}") if k in STRINGS), None)
        raise refuse(t(key, lang, **params) if key else inert(str(exc))) from None
    except gr.Error:  # a gr.Error is a ValueError too, and already escaped and logged: escaping again shows &#x27;
        raise
    except ValueError as exc:
        raise refuse((shorten if json_client() else escape)(str(exc))) from None


def json_client() -> bool:
    """Whether the running event was asked for by a client that reads JSON, not a page: a REST call
    (/gradio_api/call/<name>), gradio_client (it sends "x-gradio-user: api") or Gradio's MCP server (its own
    gradio_client sends "mcp"). Their error text is read as text: escaped, it carried `&lt;` and `&#x27;`."""
    from gradio.context import LocalContext  # deferred: gradio's request context, read only when an error is worded

    request = LocalContext.request.get(None)
    if request is None:
        return False
    headers = getattr(request, "headers", None) or {}
    if headers.get("x-gradio-user") in ("api", "mcp"):
        return True
    url = getattr(request, "url", None)
    return "/gradio_api/call/" in str(getattr(url, "path", "") or "")


def refuse(message: str) -> gr.Error:
    """The error a user sees for a request we turn down: one log line, no traceback (it is not a fault of ours)."""
    log.info("refused: %s", message[:300].replace("\n", " "))
    return gr.Error(message, print_exception=False)


def escape(value: Any, limit: int = 200) -> str:
    """A user-, link- or tokenizer-made value as inert text for an error toast or HTML (shortened).

    Gradio renders toasts as HTML, and its sanitiser lets SVG `javascript:` links through.
    """
    return html.escape(shorten(value, limit), quote=True)


def shorten(value: Any, limit: int = 200) -> str:
    """A value as text of at most `limit` characters (for a JSON client's message: not escaped)."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def escape_md(value: Any, limit: int = 200) -> str:
    """As `escape`, for Markdown: its markers (`*`, `_`, backticks, brackets, pipes) are shown, not obeyed.

    Quotes stay as they are: Markdown does not need them escaped, and `&#x27;` would show literally once its `#`
    is backslash-escaped (a token like `'s` must read `'s`).
    Text is never a link or a formula either: `:` and `@` are escaped and `www.` loses its dot's meaning, so
    Markdown's autolinks (https://…, www.…, a@b.c) do not fire; `$$` gets a zero-width space between its dollars,
    because Gradio renders math with KaTeX on the page *after* Markdown (a backslash would not stop it).
    """
    text = str(value)
    text = html.escape(text if len(text) <= limit else text[: limit - 1] + "…", quote=False)
    text = re.sub(r"([\\`*_\[\]|#~:@])", r"\\\1", text)
    text = re.sub(r"(?i)\b(www)\.", r"\1\\.", text)
    while "$$" in text:
        text = text.replace("$$", "$\u200b$")
    return text


_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[/\\][\w.\-~@+]+){2,}")


def public_reason(exc: Exception) -> str:
    """An exception's message for users: server paths removed, escaped, short."""
    return escape(_PATH.sub("…", str(exc)) or type(exc).__name__, limit=300)


def provenance(model_id: str, device: str, lang: str) -> str:
    """The "Model: `id` · device: `cpu`" line every view shows under its result; a described id is translated."""
    return t("common.provenance", lang, model=model_id_in(model_id, lang), device=device)


def export_file(name: str, content: str | bytes, keep: int | None = None) -> str:
    """Write one export (CSV/JSON/HTML) into the bounded export folder; returns its path for gr.File.

    Exports are built only when a user presses a download button, and the folder keeps the newest
    `EXPORT_KEEP` files: a class downloading all day never fills the disk. `keep` bounds the files of
    this one name further (large ones: the lab's model).
    """
    EXPORT_DIR.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(dir=EXPORT_DIR))
    path = folder / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    _prune_exports(EXPORT_KEEP)
    if keep is not None:
        _prune_exports(keep, name)
    return str(path)


def _prune_exports(keep: int, name: str | None = None) -> None:
    folders = [f for f in EXPORT_DIR.iterdir() if f.is_dir() and (name is None or (f / name).exists())]
    for old in sorted(folders, key=lambda f: f.stat().st_mtime)[:-keep]:
        shutil.rmtree(old, ignore_errors=True)


def export_json(name: str, payload: Any) -> str:
    return export_file(name, json.dumps(jsonable(payload), ensure_ascii=False, indent=2))


def export_figure_html(name: str, figure: Any) -> str:
    """A self-contained HTML file (plotly.js inlined: it opens offline, in class)."""
    return export_file(name, figure.to_html(include_plotlyjs=True, full_html=True))


def download_row(loc: Any, build: Callable[..., list[str]], inputs: list[Any], label_key: str = "common.downloads") -> Any:
    """A "Prepare downloads" button and a file box: the files are built from the kept result only on click."""
    with gr.Row():
        button = loc.add(gr.Button(t("common.prepare_downloads"), size="sm", scale=0), value="common.prepare_downloads")
        files = loc.add(
            gr.File(
                label=t(label_key), file_count="multiple", interactive=False, scale=4, elem_classes="tp-downloads", visible=False
            ),
            label=label_key,
        )
    button.click(shown_files(build), inputs, files, api_visibility="private")
    return files


def shown_files(build: Callable[..., list[str]]) -> Callable[..., Any]:
    """`build`, whose file box is shown with its files (never an empty dashed box before there are any)."""

    @functools.wraps(build)  # Gradio reads the signature through __wrapped__ (a `progress` parameter, say)
    def build_and_show(*args: Any, **kwargs: Any) -> Any:
        paths = build(*args, **kwargs)
        return gr.update(value=paths, visible=bool(paths))

    return build_and_show


def example_menu(loc: Any, shown: Any, rows: Callable[[], list[list[Any]]], fills: list[Any], key: str) -> Any:
    """A list of examples showing `shown`'s column only; a click fills `fills` with the row (None: left as it is).

    Why not gr.Examples: its table heads every column with its component's English label, also on a Chinese page
    (the header is not relabelled with the page). A one-column gr.Dataset has no header, and its label is relabelled.
    `rows` is called per click, so rows that depend on what is available now stay current.
    """
    samples = [[row[0]] for row in rows()]
    menu = loc.add(gr.Dataset(components=[shown], samples=samples, type="index", label=t(key, "en")), label=key)

    def pick(index: int) -> Any:
        row = rows()[index]
        values = [value if value is not None else gr.update() for value in row]
        return values if len(values) > 1 else values[0]

    menu.click(pick, menu, fills, api_visibility="private", queue=False)
    return menu


def result_hint(loc: Any, key: str) -> Any:
    """Before a first run: a short "press <button> to see <what>" line (relabelled on a language switch)."""
    return loc.add(gr.Markdown(t(key, "en"), elem_classes="tp-hint", elem_id=key.replace(".", "-")), value=key)


def reveal_after(events: list[Any], hint: Any | None, areas: list[Any]) -> None:
    """Hide `hint` and show `areas` (result boxes hidden until there is a result) once one of `events` succeeds.

    Chained on the run events themselves (`.success`), so a failed run leaves the hint, and nothing depends on
    a State's change detection.
    """
    out = ([hint] if hint is not None else []) + list(areas)
    updates = ([gr.update(visible=False)] if hint is not None else []) + [gr.update(visible=True)] * len(areas)
    result = updates[0] if len(updates) == 1 else tuple(updates)  # Gradio wants a bare value for one output
    for event in events:
        event.success(lambda: result, None, out, api_visibility="private", queue=False)
