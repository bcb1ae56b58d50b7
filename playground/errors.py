"""Bad input, told in words a student understands, in either language.

Backend functions raise `InputError(code, message, **params)`: the English
`message` is what API clients and logs see; the UI looks up `error.<code>` in
its string tables and shows the Chinese or English text with the same params.
It is a ValueError, so code that only knows ValueError still handles it.
"""

from __future__ import annotations

import re
from typing import Any


class InputError(ValueError):
    def __init__(self, code: str, message: str, **params: Any):
        super().__init__(message.format(**params) if params else message)
        self.code = code
        self.params = params


_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[/\\][\w.\-~@+]+){2,}")


def public_text(exc: BaseException, limit: int = 300) -> str:
    """An exception's message for users: server paths removed, shortened (not escaped: the page escapes it)."""
    text = _PATH.sub("…", str(exc)) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
