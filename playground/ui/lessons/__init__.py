"""The lessons tab: tab.py (widgets + events), render.py (result -> components), text.py (en + zh)."""
