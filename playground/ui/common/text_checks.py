"""Messages of the field validators (playground/checks.py): one wording per kind of field, in both languages."""

STRINGS = {
    "error.input_not_text": ("{name} must be text.", "{name} 必须是文本。"),
    "error.input_text_too_long": ("{name} is longer than {limit} characters.", "{name} 超过了 {limit} 个字符。"),
    "error.input_bad_unicode": (
        "{name} contains characters that are not valid Unicode.",
        "{name} 含有不是有效 Unicode 的字符。",
    ),
    "error.input_not_whole": (
        "{name} must be a whole number from {low} to {high}.",
        "{name} 必须是 {low} 到 {high} 之间的整数。",
    ),
    "error.input_not_number": ("{name} must be a number from {low} to {high}.", "{name} 必须是 {low} 到 {high} 之间的数。"),
    "error.input_not_number_above": (
        "{name} must be a number above {low} and at most {high}.",
        "{name} 必须是大于 {low}、不超过 {high} 的数。",
    ),
    "error.input_not_layer": (
        "{name} must be 'last' or a whole number from 0 to {high}.",
        "{name} 必须是 “last” 或 0 到 {high} 之间的整数。",
    ),
    "error.input_not_flag": ("{name} must be true or false.", "{name} 必须是 true 或 false。"),
    "error.input_not_choice": ("{name} must be one of: {choices}.", "{name} 必须是以下之一：{choices}。"),
    "error.input_not_list": (
        "{name} must be a list of at most {limit} {items}.",
        "{name} 必须是最多 {limit} 项的列表（{items}）。",
    ),
    "error.input_model_kind": (
        "{model} cannot be used here: {name} must be a model of kind {kinds}.",
        "{model} 不能用在这里：{name} 必须是 {kinds} 类型的模型。",
    ),
}
