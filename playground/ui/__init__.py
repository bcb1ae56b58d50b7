"""The Gradio layer: with app.py, the only code that imports gradio."""
