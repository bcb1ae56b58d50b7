"""Every user-facing string, English and Simplified Chinese: each tab's `ui/<tab>/text.py`, `ui/common/text*.py`, and
the backend's words that the page shows too (`BACKEND_TEXTS`: the lessons).

Each text module defines `STRINGS = {"key": ("English", "中文")}`; keys are prefixed with the tab name
(`fill_mask.title`) so modules never collide, and a clash is an error at import rather than a silently
wrong label.
"""

import importlib
import pkgutil

import playground.ui

STRINGS: dict[str, tuple[str, str]] = {}
BACKEND_TEXTS = ("playground.lessons.text",)  # the course's words: the lessons tab and a lesson's notebook share them


def _text_modules() -> list[str]:
    """`playground.ui.<folder>.text` and `.text_*` for every folder of the UI, in a stable order."""
    found = []
    for folder in sorted(pkgutil.iter_modules(playground.ui.__path__), key=lambda m: m.name):
        if not folder.ispkg:
            continue
        package = importlib.import_module(f"playground.ui.{folder.name}")
        for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            if module.name == "text" or module.name.startswith("text_"):
                found.append(f"{package.__name__}.{module.name}")
    return found


for _name in [*_text_modules(), *BACKEND_TEXTS]:
    for _key, _pair in importlib.import_module(_name).STRINGS.items():
        if _key in STRINGS:
            raise KeyError(f"text key {_key!r} defined twice (in {_name})")
        if not (isinstance(_pair, tuple) and len(_pair) == 2 and all(_pair)):
            raise ValueError(f"text key {_key!r} needs a non-empty (English, Chinese) pair")
        STRINGS[_key] = _pair
