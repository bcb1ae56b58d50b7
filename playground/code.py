"""The `/code` API: the table of every view that has a take-home script, and `code_for(view, request_json)`.

Each demo's `code.py` writes its views' scripts from the pieces in playground.snippets and lists them in its
`VIEWS`; this module joins those tables (it imports the demos' code modules; they never import it).
"""

from __future__ import annotations

import json
from typing import Any, Callable

from playground import checks
from playground.attention import code as attention_code
from playground.elmo import code as elmo_code
from playground.errors import InputError
from playground.fill_mask import code as fill_mask_code
from playground.forward import code as forward_code
from playground.insight import code as insight_code
from playground.inside import code as inside_code
from playground.masking import code as masking_code
from playground.mlm_lab import code as mlm_lab_code
from playground.polysemy import code as polysemy_code
from playground.probes import code as probes_code
from playground.sampling import code as sampling_code
from playground.snippets import Snippet, anywhere
from playground.t5 import code as t5_code

MAX_REQUEST_CHARS = 100_000  # a request's JSON text; longer is refused before parsing

# view name -> (request from the endpoint's JSON parameters, snippet of that request). Filled by `views()`.
View = tuple[Callable[[dict], Any], Callable[[Any], Snippet]]


def views() -> dict[str, View]:
    """Every view that has a snippet: the endpoint names (elmo_vectors, elmo_bilm, elmo_oov, inside_embeddings,
    inside_params, inside_nsp, inside_heads, forward_block, ...), plus documented sub-views (compare, step, attention_<view>,
    masking_<objective>)."""
    table: dict[str, View] = {}
    for module in (
        fill_mask_code,
        polysemy_code,
        masking_code,
        sampling_code,
        attention_code,
        inside_code,
        elmo_code,
        mlm_lab_code,
        forward_code,
        insight_code,
        t5_code,
        probes_code,
    ):
        table.update(module.VIEWS)
    return table


def parse_request(request: Any) -> dict:
    """The `request` argument of /code: a JSON object as text (or already a dict); empty means all defaults."""
    if isinstance(request, dict):
        return request
    if request is None or (isinstance(request, str) and not request.strip()):
        return {}
    request = checks.text(request, "request", MAX_REQUEST_CHARS)  # the checks' wordings: not text, too long, surrogates
    try:
        parsed = json.loads(request)
    except json.JSONDecodeError as error:
        raise InputError("code_request_json", "request is not valid JSON ({why}).", why=error.msg) from None
    if not isinstance(parsed, dict):
        raise InputError("code_request_type", "request must be a JSON object given as text.")
    return parsed


def code_for(view: Any, request: Any = None) -> Snippet:
    """The `/code` API: the snippet that reproduces `view` for `request` (that endpoint's parameters, defaults filled)."""
    table = views()
    checks.choice(view, "view", table)  # the value is never echoed
    make_request, generate = table[view]
    params = parse_request(request)
    params.pop("lang", None)  # the page's language: every snippet carries both
    try:
        built = make_request(params)
    except TypeError as error:  # an unknown or missing parameter name
        raise InputError("code_request_fields", "request does not fit /{view}: {why}.", view=view, why=str(error)[:200]) from None
    return anywhere(generate(built))  # runs wherever the student saves it
