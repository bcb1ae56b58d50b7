"""The playground's two languages: English and Simplified Chinese (the page, the lessons and their notebooks)."""

from __future__ import annotations

LANGS = {"en": "English", "zh": "中文"}
DEFAULT_LANG = "en"


def normalize_lang(lang: str | None) -> str:
    """'zh', 'zh-CN', 'zh_Hans' -> 'zh'; anything else -> 'en'."""
    return "zh" if str(lang or "").lower().startswith("zh") else DEFAULT_LANG
