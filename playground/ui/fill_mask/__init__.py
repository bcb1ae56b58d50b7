"""The fill mask tab: tab.py (widgets + events), render.py (result -> components), text.py (en + zh)."""
