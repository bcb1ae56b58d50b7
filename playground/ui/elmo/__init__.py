"""The elmo tab: tab.py (widgets + events), render.py (result -> components), text.py (en + zh)."""
