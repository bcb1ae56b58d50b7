"""Bad input, told in words a student understands, in either language.

Backend functions raise `InputError(code, message, **params)`: the English
`message` is what API clients and logs see; the UI looks up `error.<code>` in
its string tables and shows the Chinese or English text with the same params.
It is a ValueError, so code that only knows ValueError still handles it.
"""

from __future__ import annotations

from typing import Any


class InputError(ValueError):
    def __init__(self, code: str, message: str, **params: Any):
        super().__init__(message.format(**params) if params else message)
        self.code = code
        self.params = params
