"""Serving, not UI: the queue guard, the GPU runner's installation, MCP and the app's Runtime.

These run the backend for many people at once; they never build a page (playground.ui does) and never import
gradio at import time (the boundary test imports them without it).
"""
