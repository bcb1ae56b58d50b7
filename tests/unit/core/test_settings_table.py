"""The README's configuration table and playground/settings.py say the same thing.

Every PLAYGROUND_* variable in the table is one the settings read (or one a script reads: the e2e browser), every
one the settings read is in the table, each documented default parses to the default the code has, and each value
the table says does something (`1`: ..., `0` turns it off, `""`: none) parses and changes the setting.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from playground import settings
from playground.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
HEADER = "| variable | default | what it does |"
NOT_SETTINGS = {"PLAYGROUND_CHROMIUM": "scripts/serve_app.py"}  # read by a script (the e2e tests' browser), not the app


def table() -> list[tuple[str, str, str]]:
    """(variable, its default cell, its description) per PLAYGROUND_* variable in the README's table; a row naming
    several (`PLAYGROUND_LAB_QUEUE` / `_LAB_PER_CLIENT`) gives each its own part of the default cell (`4` / `2`)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(HEADER) + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        names_cell, default_cell, description = (cell.strip() for cell in line.strip("|").split(" | ", 2))
        names = re.findall(r"`([A-Z_]+)`", names_cell)
        names = [f"PLAYGROUND{n}" if n.startswith("_") else n for n in names]
        defaults = default_cell.split(" / ")
        if len(defaults) != len(names):  # one default for several names (`PORT` / `GRADIO_SERVER_PORT`)
            defaults = [default_cell] * len(names)
        rows += [(n, d, description) for n, d in zip(names, defaults) if n.startswith("PLAYGROUND_")]
    return rows


def read_by_settings() -> dict[str, str]:
    """PLAYGROUND_* variable -> the Settings field it sets, from the calls in `Settings.from_env`."""
    found = {}
    for node in ast.walk(ast.parse(Path(settings.__file__).read_text(encoding="utf-8"))):
        if isinstance(node, ast.keyword) and isinstance(node.value, ast.Call):
            names = [a.value for a in node.value.args if isinstance(a, ast.Constant) and str(a.value).startswith("PLAYGROUND_")]
            found.update({name: node.arg for name in names})
    return found


def values(cell: str, documented: str) -> list[str]:
    """The values a cell gives in backticks: in a default cell every one; in a description those it says do
    something (followed by `:` or ` turns`)."""
    pattern = r"`([^`]*)`" if documented == "default" else r"`([^`]*)`(?=:| turns)"
    return [("" if v == '""' else v) for v in re.findall(pattern, cell)]


ROWS = table()
DEFAULTS = [(n, v) for n, cell, _ in ROWS if n in read_by_settings() for v in values(cell, "default")]
DOING = [(n, v) for n, _, text in ROWS if n in read_by_settings() for v in values(text, "description")]
KNOWN: dict[tuple[str, str], str] = {}  # documented, and not yet what the code does (each marked: it fails once done)


def _marked(pairs):
    return [
        pytest.param(n, v, id=f"{n}={v}", marks=[pytest.mark.xfail(reason=KNOWN[(n, v)], strict=True)] if (n, v) in KNOWN else [])
        for n, v in pairs
    ]


def test_the_table_and_the_settings_name_the_same_variables():
    documented, read = {n for n, _, _ in ROWS}, set(read_by_settings())
    assert len(read) == len(Settings.__dataclass_fields__), "every field is read from one variable"
    assert not read - documented, f"read by playground/settings.py, not in the README's table: {sorted(read - documented)}"
    unknown = documented - read - set(NOT_SETTINGS)
    assert not unknown, f"in the README's table, read by nothing: {sorted(unknown)}"
    for name, reader in NOT_SETTINGS.items():
        assert name in (ROOT / reader).read_text(encoding="utf-8"), f"{name} is no longer read by {reader}"


@pytest.mark.parametrize("name, value", _marked(DEFAULTS))
def test_each_documented_default_parses_to_the_default(name, value):
    field = read_by_settings()[name]
    parsed, default = getattr(Settings.from_env({name: value}), field), getattr(Settings(), field)
    if field == "client_queue":  # documented as what it comes to: half the queue
        parsed, default = Settings.from_env({name: value}).per_client_queue, Settings().per_client_queue
    assert default is None or parsed == default, f"README: {name} defaults to {value!r}; settings.py: {default!r}"


@pytest.mark.parametrize("name, value", _marked(DOING))
def test_each_value_the_table_says_does_something_parses_and_changes_the_setting(name, value):
    field = read_by_settings()[name]
    assert getattr(Settings.from_env({name: value}), field) != getattr(Settings(), field)


def test_the_table_was_read():
    assert len(ROWS) >= 20 and len(DEFAULTS) >= 15 and len(DOING) >= 5  # the patterns above still match the README
