"""The MCP server (Gradio's, `launch(mcp_server=True)`), on with PLAYGROUND_MCP=1, shaped for AI assistants.

Gradio 6 makes every named API endpoint a tool, but as it comes: a tool is named after the Python function
(`next_token_api`, `attention`), its result is the Python `repr` of the returned dict, and every endpoint is one.
Here, with two small overrides of `gradio.mcp.GradioMCPServer` (installed only when the switch is on):
- a tool's name is its API name (`fill_mask`, `next_token`, ...), as `gradio_client` and the README call it;
- a dict or list result is JSON text, the same JSON the API returns;
- `NOT_TOOLS` are left out: the MLM lab's training (one at a time server-wide, up to 300 s: an assistant's call
  would hold the class's queue for minutes) and the teacher's warm-up.
Parameter descriptions come from each API function's `Args:` docstring block (allowed values and ranges).
"""

from __future__ import annotations

import json
from typing import Any

from gradio.mcp import GradioMCPServer

from playground import settings

NOT_TOOLS = frozenset({"mlm_lab_train", "warmup"})


def enabled() -> bool:
    return settings.current().mcp


def _tool_to_endpoint(server: Any) -> dict[str, str]:
    """Tool name = API name, for every named endpoint except NOT_TOOLS."""
    tools = {}
    for endpoint in server.api_info["named_endpoints"]:
        name = endpoint.lstrip("/")
        block_fn = server.get_block_fn_from_endpoint_name(endpoint)
        if name in NOT_TOOLS or block_fn is None or block_fn.fn is None:
            continue
        tools[server.valid_and_unique_tool_name(name, set(tools))] = endpoint
    return tools


def install() -> None:
    """Apply the overrides (idempotent); call before `launch(mcp_server=True)`."""
    if getattr(GradioMCPServer, "_playground", False):
        return
    original = GradioMCPServer.postprocess_output_data

    def postprocess_output_data(self, data: Any, root_url: str):
        as_json = [json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else value for value in data]
        return original(self, as_json, root_url)

    GradioMCPServer.get_tool_to_endpoint = _tool_to_endpoint
    GradioMCPServer.postprocess_output_data = postprocess_output_data
    GradioMCPServer._playground = True
