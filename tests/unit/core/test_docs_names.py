"""Every module, function and test the docs name exists.

The pages under docs/ (and the README) name files (`playground/polysemy/readings.py`, `tests/unit/core/test_cache.py`),
things in them (`tests/unit/core/test_cache.py::test_evicts_least_recently_used`, `playground/checks.py::whole`),
dotted names (`playground.polysemy.readings`, `playground.checks.WORDINGS`) and entries (`run_polysemy`). Each is
resolved against the tree without importing anything: a file must exist, a name must be defined in it (a function,
class or assignment at its top level, or `Class.attribute` inside a class), an entry must be a function of
playground/. Placeholders (`run_<demo>`, `ui/<demo>/tab.py`) and globs are not names and are skipped.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
BASES = ("", "tests", "playground")  # `unit/core/test_x.py` and `ui/common/links.py`: the docs often leave these out

CODE = re.compile(r"`([^`\n]+)`")
PATH = re.compile(r"(?<![\w/.\-])((?:[\w.\-]+/)+[\w\-]+\.py|app\.py)(?:::([\w.]+))?")
MORE = re.compile(r"^::([\w.]+)$")  # `::test_other`: another name in the file named just before
DOTTED = re.compile(r"(?<![\w/.])(playground(?:\.\w+)+)")
ENTRY = re.compile(r"^(run_\w+)(?:\(.*\))?$")


def _path(text: str) -> Path:
    """The file a written path names: from the root, or under tests/ or playground/ (the first that exists)."""
    candidates = [ROOT / base / text for base in BASES]
    return next((c for c in candidates if c.is_file()), candidates[0])


@functools.cache
def _defined(path: Path) -> dict[str, set[str]]:
    """Top-level names of a Python file -> the names defined inside each (a class's methods and fields)."""
    names: dict[str, set[str]] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            inner = set()
            for child in getattr(node, "body", []) if isinstance(node, ast.ClassDef) else []:
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    inner.add(child.name)
                elif isinstance(child, ast.AnnAssign) and isinstance(child.target, ast.Name):
                    inner.add(child.target.id)
                elif isinstance(child, ast.Assign):
                    inner |= {t.id for t in child.targets if isinstance(t, ast.Name)}
            names[node.name] = inner
        elif isinstance(node, ast.Assign):
            names.update({t.id: set() for t in node.targets if isinstance(t, ast.Name)})
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = set()
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update({(a.asname or a.name).split(".")[0]: set() for a in node.names})
    return names


def _has(path: Path, dotted: str) -> bool:
    """`name` or `Class.attribute` is defined in the file."""
    first, *rest = dotted.split(".")
    names = _defined(path)
    return first in names and (not rest or rest[0] in names[first])


def _module(parts: list[str]) -> tuple[Path | None, list[str]]:
    """The longest prefix of `parts` that is a module or package of the tree, and the rest (attribute names)."""
    for i in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:i])
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate, parts[i:]
    return None, parts


@functools.cache
def _entries() -> frozenset[str]:
    return frozenset(
        node.name
        for path in (ROOT / "playground").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name.startswith("run_")
    )


def _check(span: str, last_file: Path | None) -> tuple[list[str], Path | None]:
    """What is wrong with the names in one code span (or in the prose of a line), and the last file it names."""
    wrong = []
    if more := MORE.match(span):
        if last_file is not None and last_file.is_file() and not _has(last_file, more[1]):
            wrong.append(f"{more[1]} is not in {last_file.relative_to(ROOT)}")
        return wrong, last_file
    if entry := ENTRY.match(span):
        return ([] if entry[1] in _entries() else ["no such entry in playground/"]), last_file
    for found in PATH.finditer(span):
        last_file = path = _path(found[1])
        if not path.is_file():
            wrong.append(f"{found[1]}: no such file")
        elif found[2] and not _has(path, found[2]):
            wrong.append(f"{found[2]} is not in {path.relative_to(ROOT)}")
    for found in DOTTED.finditer(span):
        module, rest = _module(found[1].split("."))
        if module is None:
            wrong.append(f"{found[1]}: no such module")
        elif rest and not _has(module, ".".join(rest)):
            wrong.append(f"{'.'.join(rest)} is not in {module.relative_to(ROOT)}")
    return wrong, last_file


def named(page: Path) -> list[tuple[int, str, str]]:
    """(line, the text as written, what is wrong) for each name on the page that does not resolve."""
    wrong = []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        last_file = None
        for span in CODE.findall(line):
            if any(mark in span for mark in "<>{}*") or "://" in span:
                continue  # a placeholder (`run_<demo>`), a glob or an address: not a name
            if "…" in span:  # `…/test_x.py::name`: shortened, its file named in full elsewhere; later `::` follow it
                last_file = next((_path(f[1]) for f in PATH.finditer(span.replace("…", ""))), last_file)
                continue
            problems, last_file = _check(span, last_file)
            wrong += [(number, span, why) for why in problems]
        prose = CODE.sub(" ", line)  # names written outside code spans too
        wrong += [(number, "(prose)", why) for why in _check(prose, None)[0]]
    return wrong


def test_every_module_function_and_test_the_docs_name_exists():
    wrong = [f"{page.relative_to(ROOT)}:{n}: `{span}`: {why}" for page in PAGES for n, span, why in named(page)]
    assert not wrong, "\n".join(wrong)


def test_the_patterns_still_find_names():
    """The guard reads what the docs write: if the patterns stopped matching, it would pass on anything."""
    spans = [s for page in PAGES for line in page.read_text(encoding="utf-8").splitlines() for s in CODE.findall(line)]
    assert sum(bool(PATH.search(s)) for s in spans) > 50
    assert sum(bool(DOTTED.search(s)) for s in spans) > 5
    assert sum(bool(ENTRY.match(s)) for s in spans) > 3
