"""Every user-facing string, English and Simplified Chinese, one module per tab.

Each module defines `STRINGS = {"key": ("English", "中文")}`; keys are prefixed
with the tab name ("fill_mask.title") so modules never collide, and a clash is
an error at import rather than a silently wrong label.
"""

import importlib
import pkgutil

STRINGS: dict[str, tuple[str, str]] = {}

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    for _key, _pair in importlib.import_module(f"{__name__}.{_info.name}").STRINGS.items():
        if _key in STRINGS:
            raise KeyError(f"text key {_key!r} defined twice (in {_info.name})")
        if not (isinstance(_pair, tuple) and len(_pair) == 2 and all(_pair)):
            raise ValueError(f"text key {_key!r} needs a non-empty (English, Chinese) pair")
        STRINGS[_key] = _pair
