"""`lang` is checked on every endpoint that takes one: a value naming neither language is refused in both,
instead of being answered silently in English (issue 37, item 25: "fr", 5 and "" all read as English).

The endpoints are Gradio's functions of the built app (REST, gradio_client and the MCP server all call them),
so one pass over `demo.fns` covers every endpoint, a new one included, without a line in each tab.
"""

from __future__ import annotations

import functools
import inspect
import logging
from typing import Any, Callable

import gradio as gr

from playground.langs import LANG_REFUSAL, is_lang

log = logging.getLogger("playground")


def check_lang(demo: Any) -> int:
    """Wrap every public endpoint function with a `lang` parameter so a bad `lang` is refused first; how many."""
    wrapped = 0
    for block_fn in demo.fns.values():
        fn = block_fn.fn
        if fn is None or not block_fn.api_name or getattr(block_fn, "api_visibility", "public") != "public":
            continue
        if "lang" in inspect.signature(fn).parameters and not getattr(fn, "_checks_lang", False):
            block_fn.fn = _checking(fn)
            wrapped += 1
    return wrapped


def _checking(fn: Callable) -> Callable:
    """`fn`, refusing a bad `lang` before it runs; of the same kind (Gradio asks whether an endpoint's function is a
    generator or a coroutine when it calls it), its signature kept (`__wrapped__`: the API page reads it)."""
    signature = inspect.signature(fn)

    def check(args: tuple, kwargs: dict) -> None:
        bound = signature.bind_partial(*args, **kwargs).arguments
        if "lang" in bound and not is_lang(bound["lang"]):
            log.info("refused: %s", LANG_REFUSAL)  # one line, no traceback: not a fault of ours (as ui's `refuse`)
            raise gr.Error(LANG_REFUSAL, print_exception=False)

    if inspect.isasyncgenfunction(fn):

        async def checked(*args: Any, **kwargs: Any) -> Any:
            check(args, kwargs)
            async for item in fn(*args, **kwargs):
                yield item

    elif inspect.isgeneratorfunction(fn):

        def checked(*args: Any, **kwargs: Any) -> Any:
            check(args, kwargs)
            return (yield from fn(*args, **kwargs))

    elif inspect.iscoroutinefunction(fn):

        async def checked(*args: Any, **kwargs: Any) -> Any:
            check(args, kwargs)
            return await fn(*args, **kwargs)

    else:

        def checked(*args: Any, **kwargs: Any) -> Any:
            check(args, kwargs)
            return fn(*args, **kwargs)

    checked = functools.wraps(fn)(checked)
    checked._checks_lang = True  # type: ignore[attr-defined]
    return checked
