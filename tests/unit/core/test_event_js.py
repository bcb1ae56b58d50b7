"""An event's `js` step runs in the browser before its Python handler and hands it the values to use: it must take
and return one value per input. The Lessons picker's step once returned its first input alone, so the handler got
no language and every card drawn from a pick showed Gradio's "Error" (a browser test found it)."""

import re


def _arity(js: str) -> int:
    params = re.match(r"\s*(?:async\s+)?\(([^)]*)\)\s*=>", js)
    assert params, js[:80]
    return len([p for p in params.group(1).split(",") if p.strip()])


def test_a_js_step_before_a_python_handler_takes_and_returns_every_input(built_app):
    checked = 0
    for fn in built_app.fns.values():
        if not fn.js or fn.fn is None or not fn.inputs:
            continue
        checked += 1
        assert _arity(fn.js) == len(fn.inputs), (fn.name, fn.js[:120])
        if len(fn.inputs) > 1:  # several values go back to Python as one list
            assert re.search(r"return\s*\[[^\]]*\]", fn.js), (fn.name, fn.js[:200])
    # None today: the Lessons picker's step (its phone chip scroll) moved to the page's script, assets/lesson_chips.js,
    # as a Form's inputs reach Python by name, in an order a js step cannot know; the rule holds for any that comes.
    assert checked >= 0
