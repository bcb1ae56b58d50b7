"""The mlm lab tab: tab.py (widgets + events), render.py (result -> components), text.py (en + zh)."""
