"""Serving through Gradio's own server: the queue guard and its routes (guard.py), the MCP server's overrides
(mcp.py), every endpoint's `lang` check (api_lang.py). They extend Gradio's server, so they live in the UI layer,
the one that imports gradio; what serves without it (GPU runner, the app's Runtime) is playground/serve/.
"""
