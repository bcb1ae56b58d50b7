"""Every refusal the backend can raise has its text in English and Chinese, with the same placeholders.

The codes are read from the source (`InputError("code", ...)` and `checks.fail("code", ...)` with a literal code, and
the checks' WORDINGS), so a new refusal is covered without editing this file. The page looks up `error.<code>` (or
`common.<code>`) in the string tables (playground/ui/*/text.py, ui/common/text*.py) and falls back to the English
message when there is none: a Chinese page would show English, which is what this guard stops.
"""

from __future__ import annotations

import ast
import functools
import string
from pathlib import Path

from playground import checks
from playground.ui.common.strings import STRINGS

ROOT = Path(__file__).resolve().parents[3]
RAISERS = {"InputError", "fail"}  # the two ways a refusal is made (checks.fail builds an InputError)


@functools.cache  # one scan of the source for the three tests
def raised() -> dict[str, list[tuple[str, set[str] | None]]]:
    """code -> [(where, the keyword params given, or None when they are passed on as **params)] for every literal."""
    found: dict[str, list[tuple[str, set[str] | None]]] = {code: [] for code in checks.WORDINGS}
    for path in sorted((ROOT / "playground").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            first = node.args[0]
            if name in RAISERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                params = None if any(k.arg is None for k in node.keywords) else {k.arg for k in node.keywords}
                found.setdefault(first.value, []).append((f"{path.relative_to(ROOT)}:{node.lineno}", params))
    return found


def fields(text: str) -> set[str]:
    return {f.split(".")[0].split("[")[0].split("!")[0] for _, f, _, _ in string.Formatter().parse(text) if f}


def key_of(code: str) -> str | None:
    return next((k for k in (f"error.{code}", f"common.{code}") if k in STRINGS), None)


def test_the_source_scan_finds_the_refusals():
    codes = raised()
    assert len(codes) > 50 and "bad_what_if_base" in codes and "masking_generator" in codes  # the scan still matches


def test_every_error_code_has_english_and_chinese_text():
    missing = [
        f"{code} (raised at {where[0][0] if where else 'checks.WORDINGS'})"
        for code, where in raised().items()
        if not key_of(code)
    ]
    assert not missing, f"no error.<code> / common.<code> text: {missing}"
    for code in raised():
        en, zh = STRINGS[key_of(code)]
        assert en.strip() and zh.strip() and zh != en, code
        assert any("\u4e00" <= ch <= "\u9fff" for ch in zh), f"{code}: the Chinese text has no Chinese: {zh!r}"


def test_both_languages_use_the_placeholders_the_code_is_raised_with():
    wrong = []
    for code, places in raised().items():
        key = key_of(code)
        if key is None:
            continue  # the test above names it
        en, zh = STRINGS[key]
        if fields(en) != fields(zh):
            wrong.append(f"{key}: English {sorted(fields(en))}, Chinese {sorted(fields(zh))}")
        for where, params in places:
            if params is not None and not fields(zh) <= params:  # the page would fail formatting the Chinese text
                wrong.append(f"{where}: {code} raised with {sorted(params)}, its text needs {sorted(fields(zh))}")
    assert not wrong, "\n".join(wrong)
