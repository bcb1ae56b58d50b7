"""Transformer Playground backend: pure functions over models, no UI imports."""
