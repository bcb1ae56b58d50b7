"""The import graph of every `playground` module has no cycle, counting imports inside functions too.

A cycle held together by a function-local import still couples the two modules (each needs the other) and hides it
from a reader; so the graph is read from the source with `ast`, every `import` wherever it stands (an
`if TYPE_CHECKING:` block excepted: it never runs). A module that imports `a.b.c` also runs the `__init__` of `a`
and `a.b`, so those are edges too (unless the importer sits inside them, which Python has already started).

A function-local import stays only where it defers a heavy library, with a comment saying so (on its line, or on
the line above a group of them).
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
PACKAGE = ROOT / "playground"
# Libraries that take a second or more to import (or exist only on a Space): what a function-local import may defer.
HEAVY = {
    "torch",
    "transformers",
    "sklearn",
    "plotly",
    "safetensors",
    "tokenizers",
    "huggingface_hub",
    "pyarrow",
    "jieba",
    "gradio",
    "starlette",
    "spaces",
}
# Playground modules that import a heavy library at import (a deferred import of them defers that library).
HEAVY_MODULES = {"playground.elmo", "playground.mlm_lab.trainer"}


def modules() -> dict[str, pathlib.Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(name: str, path: pathlib.Path) -> list[tuple[ast.stmt, bool, list[str]]]:
    """(statement, inside a function, the absolute module names it imports) for every import of the module."""
    found = []
    is_package = path.name == "__init__.py"

    def targets(node: ast.stmt) -> list[str]:
        if isinstance(node, ast.Import):
            return [alias.name for alias in node.names]
        base = node.module or ""
        if node.level:  # relative: from the module's package, up level - 1 more
            package = name.split(".") if is_package else name.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        return [f"{base}.{alias.name}" for alias in node.names]  # a module of `base`, or a name defined in it

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and ast.unparse(child.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
                for other in child.orelse:
                    walk(other, in_function)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, in_function, targets(child)))
            walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        edges[name] = set()
        for statement, _, names in imports(name, path):
            for target in names:
                while target and target not in known:  # `from a import b`: b a module of a, or a name in a
                    target = target.rpartition(".")[0]
                if not target or target == name:
                    continue
                edges[name].add(target)
                parts = target.split(".")
                for i in range(1, len(parts)):  # importing a.b.c runs a's and a.b's __init__ first
                    package = ".".join(parts[:i])
                    if package in known and package != name and not name.startswith(package + "."):
                        edges[name].add(package)
            if isinstance(statement, ast.ImportFrom) and statement.module is None and statement.level == 0:
                raise AssertionError(f"{name}: an import with no module")
    return edges


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a path a -> b -> ... -> a, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state and (cycle := visit(start)):
            return cycle
    return None


def test_no_import_cycle_among_playground_modules():
    edges = graph()
    assert len(edges) > 100  # every module was read
    cycle = find_cycle(edges)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle_through_a_package_init():
    edges = {"p": {"p.a"}, "p.a": {"p.b"}, "p.b": {"q"}, "q": {"p"}, "r": set()}
    assert find_cycle(edges) == ["p", "p.a", "p.b", "q", "p"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_a_function_local_import_defers_a_heavy_library_and_says_so():
    wrong = []
    for name, path in modules().items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for statement, in_function, names in imports(name, path):
            if not in_function:
                continue
            module = names[0].rpartition(".")[0] if isinstance(statement, ast.ImportFrom) else names[0]
            heavy = module.split(".")[0] in HEAVY or any(module == m or module.startswith(m + ".") for m in HEAVY_MODULES)
            line = lines[statement.lineno - 1]
            first = statement.lineno - 1  # a group of imports shares its first line's comment (or one just above it)
            while lines[first - 1].strip().startswith(("import ", "from ")):
                first -= 1
            said = "#" in lines[first] or lines[first - 1].strip().startswith("#")
            if not heavy:
                wrong.append(f"{path.relative_to(ROOT)}:{statement.lineno}: {line.strip()} (not a heavy library)")
            elif not said:
                wrong.append(f"{path.relative_to(ROOT)}:{statement.lineno}: {line.strip()} (no comment saying why)")
    assert not wrong, "\n".join(wrong)
