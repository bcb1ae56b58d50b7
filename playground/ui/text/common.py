"""Strings shared by the whole app: header, status panel, generic errors."""

STRINGS = {
    "app.title": ("Transformer Playground", "Transformer 游乐场"),
    "app.subtitle": (
        "New here? Start with **Lessons**: the course step by step, each lesson opening a demo with its inputs. "
        "The other tabs run real models: fill-mask, word senses in context, the masking objectives of BERT, RoBERTa, "
        "SpanBERT, ELECTRA, XLNet, UniLM and T5, sampling, attention, and inside BERT (input embeddings, "
        "ALBERT's parameter savings, NSP, fine-tuning heads).",
        "第一次来？从**课程**开始：按课程一步步学，每节课都会带着输入打开一个演示。"
        "其他标签页运行真实模型：完形填空、上下文中的词义、BERT、RoBERTa、SpanBERT、ELECTRA、XLNet、UniLM 和 T5 的掩码目标、"
        "采样、注意力，以及 BERT 内部（输入嵌入、ALBERT 的参数节省、NSP、微调任务头）。",
    ),
    "app.projector": ("Projector mode", "投影模式"),
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
        "its bundled weights are not installed on this server",
        "此服务器未安装其内置权重",
    ),
    "avail.offline": (
        "it is downloaded from the Hugging Face Hub, and this server works offline without a copy of it",
        "它需要从 Hugging Face Hub 下载，而此服务器处于离线模式且没有它的副本",
    ),
    "avail.unreachable": (
        "it is downloaded from the Hugging Face Hub, which this server cannot reach right now",
        "它需要从 Hugging Face Hub 下载，而此服务器目前无法访问 Hub",
    ),
    "kind.masked": ("masked LM", "掩码语言模型"),
    "kind.causal": ("causal LM", "因果语言模型"),
    "kind.encoder": ("encoder", "编码器"),
    "kind.static": ("static vectors", "静态词向量"),
    "kind.seq2seq": ("encoder-decoder", "编码器-解码器"),
    "kind.discriminator": ("discriminator", "判别器"),
    "kind.permutation": ("permutation LM", "排列语言模型"),
    "common.unavailable_title": ("Models not available here", "此处不可用的模型"),
    "common.export": ("Export", "导出"),
    "common.link_ignored": (
        "Some settings in this link were not valid and were ignored: {names}.",
        "此链接中的部分设置无效，已忽略：{names}。",
    ),
    "common.bundled_label": ("{label} (bundled)", "{label}（内置）"),
    "common.prepare_downloads": ("Prepare downloads", "生成下载文件"),
    "common.downloads": ("Downloads", "下载"),
    "common.examples": ("Examples", "示例"),
    "common.run": ("Run", "运行"),
    "common.top_k": ("Top-k", "Top-k"),
    "common.models": ("Models", "模型"),
    "common.model": ("Model", "模型"),
    "common.seed": ("Seed", "随机种子"),
    "common.share": ("Link to this view", "本视图的链接"),
}
