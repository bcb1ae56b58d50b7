"""The playground's two languages: English and Simplified Chinese (the page, the lessons and their notebooks)."""

from __future__ import annotations

LANGS = {"en": "English", "zh": "中文"}
DEFAULT_LANG = "en"


def normalize_lang(lang: str | None) -> str:
    """'zh', 'zh-CN', 'zh_Hans' -> 'zh'; anything else -> 'en'."""
    return "zh" if str(lang or "").lower().startswith("zh") else DEFAULT_LANG


# A `lang` an API client sent that is neither language, refused in both (the client's own is unknown).
LANG_REFUSAL = 'lang must be "en" or "zh" (a locale such as "zh-CN" reads as its language). · lang 必须是 "en" 或 "zh"。'


def is_lang(value: object) -> bool:
    """`value` names one of the two languages: "en", "zh", or a locale of one ("zh-CN", "zh_Hans", "en-GB")."""
    if not isinstance(value, str):
        return False
    code = value.lower().replace("_", "-")
    return code.split("-", 1)[0] in LANGS and (code in LANGS or "-" in code)
