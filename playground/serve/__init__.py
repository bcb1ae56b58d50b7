"""Serving that needs no UI toolkit: the GPU runner's installation (gpu.py) and the app's Runtime (runtime.py).

What serves through Gradio's own server (the queue guard, MCP, the endpoints' `lang` check) lives in
playground/ui/server/, the layer allowed to import gradio.
"""
