"""Messages of the API type checks (playground/input_checks.py)."""

STRINGS = {
    "error.input_not_text": ("{name} must be text.", "{name} 必须是文本。"),
    "error.input_text_too_long": ("{name} is longer than {limit} characters.", "{name} 超过了 {limit} 个字符。"),
    "error.input_bad_unicode": (
        "{name} contains characters that are not valid Unicode.",
        "{name} 含有不是有效 Unicode 的字符。",
    ),
}
