"""Strings of the MLM lab tab (and the availability reason of models with weights trained here)."""

STRINGS = {
    "mlm_lab.tab": ("MLM lab", "MLM 实验室"),
    "mlm_lab.intro": (
        "**Fine-tune a masked LM on your own corpus.** BERT was pre-trained by filling in masked words of general text. "
        "Continue that same objective on a small domain corpus (the samples: medical definitions in English, the GIMP "
        "manual in Chinese) and the model's "
        "guesses for the domain's own words change. 10 % of the sentences are held out (chosen by the seed): the "
        "model never trains on them, so the held-out loss and the probes below measure what it *learned*, not what it "
        "memorised. One training runs at a time on this server; yours is private to this browser session.",
        "**在你自己的语料上微调掩码语言模型。** BERT 的预训练就是在通用文本里填被遮住的词。"
        "在一个小的领域语料上继续同样的目标（示例语料：英文的医学释义、中文的 GIMP 手册），模型对该领域词汇的猜测就会改变。"
        "10% 的句子被留出（由随机种子决定）：模型从不在它们上训练，所以下面的留出损失和探针句衡量的是它*学到*的，"
        "而不是*背下*的。本服务器一次只运行一个训练；你的模型只属于这个浏览器会话。",
    ),
    "mlm_lab.corpus_source": ("Corpus", "语料"),
    "mlm_lab.source_sample": ("Sample: medicine (WordNet definitions)", "示例：医学（WordNet 释义）"),
    "mlm_lab.source_sample_zh": ("Sample: GIMP manual (Chinese)", "示例：GIMP 手册（中文）"),
    "mlm_lab.sample_zh_info": (
        "{n} sentences from the GIMP 2 user manual in Simplified Chinese (Debian gimp-help-zh-cn; GNU FDL 1.2 or later, "
        "the GIMP Documentation Team): image-editing words such as 图层 (layer), 滤镜 (filter), 笔刷 (brush). Chinese only: "
        "choose a base model that reads Chinese, such as e5-mlm, which never saw this text. Chinese words are found by "
        "jieba; a probe hides a word's last character (图层 → 图[MASK]).",
        "{n} 个句子，取自简体中文版 GIMP 2 用户手册（Debian gimp-help-zh-cn；GNU FDL 1.2 或更高版本，GIMP 文档团队）："
        "图层、滤镜、笔刷等图像编辑词汇。仅中文：请选择能读中文的基础模型，例如 e5-mlm（它从未见过这些文本）。"
        "中文词语由 jieba 分词找出；探针句遮住词语的最后一个字（图层 → 图[MASK]）。",
    ),
    "mlm_lab.source_paste": ("Paste text", "粘贴文本"),
    "mlm_lab.source_upload": ("Upload a .txt file", "上传 .txt 文件"),
    "mlm_lab.sample_info": (
        "{n} sentences about diseases, organs and treatments, written from Princeton WordNet 3.0 glosses "
        "(WordNet 3.0 licence, Princeton University). English only.",
        "{n} 个关于疾病、器官和治疗的句子，取自普林斯顿 WordNet 3.0 的释义（WordNet 3.0 许可，普林斯顿大学）。仅英文。",
    ),
    "mlm_lab.paste": ("Your corpus (one sentence per line is best)", "你的语料（最好每行一句）"),
    "mlm_lab.paste_info": (
        "At most {max} characters; at least 10 sentences of 3+ words.",
        "最多 {max} 个字符；至少 10 个含 3 个以上词的句子。",
    ),
    "mlm_lab.upload": ("Corpus file (.txt, UTF-8)", "语料文件（.txt，UTF-8）"),
    "mlm_lab.settings": ("Training settings", "训练设置"),
    "mlm_lab.base": ("Base model (a masked LM)", "基础模型（掩码语言模型）"),
    "mlm_lab.whole_word": ("Whole-word masking", "整词掩码"),
    "mlm_lab.whole_word_info": (
        "Mask every piece of a word together (##-pieces included), as BERT's later release did; in Chinese text the "
        "words jieba finds, as Chinese BERT-wwm did.",
        "一个词的所有子词（含 ## 片段）一起遮住，如 BERT 后来的版本；中文文本按 jieba 切出的词遮住，如中文 BERT-wwm。",
    ),
    "mlm_lab.mlm_probability": ("Masking probability", "掩码概率"),
    "mlm_lab.learning_rate": ("Peak learning rate", "峰值学习率"),
    "mlm_lab.steps": ("Step budget (batches of {b} sentences)", "步数预算（每批 {b} 句）"),
    "mlm_lab.seconds": ("Time budget (seconds)", "时间预算（秒）"),
    "mlm_lab.seed": ("Seed (held-out split, masks, batch order)", "随机种子（留出划分、掩码、批次顺序）"),
    "mlm_lab.train": ("Train", "开始训练"),
    "mlm_lab.hint": (
        "Press **Train** to see the training and held-out loss step by step, then the model's guesses before and after "
        "training side by side; then try your own sentence on the fine-tuned model or download it.",
        "按 **开始训练** 逐步查看训练损失和留出损失，再并排比较训练前后模型的猜测；之后可以用你自己的句子试试微调后的模型，或下载它。",
    ),
    "mlm_lab.cancel": ("Stop (keep what it learned)", "停止（保留已学到的）"),
    "mlm_lab.loss_plot": ("Loss while training", "训练中的损失"),
    "mlm_lab.curve_train": ("training loss (one batch)", "训练损失（单批）"),
    "mlm_lab.curve_held": ("held-out loss", "留出损失"),
    "mlm_lab.curve_before": ("held-out loss before training", "训练前的留出损失"),
    "mlm_lab.curve_loss": ("MLM loss", "MLM 损失"),
    "mlm_lab.curve_lr": ("LR", "学习率"),
    "mlm_lab.curve_step": ("step", "步"),
    "mlm_lab.curve_note": (
        "The thin line is the loss on each training batch (different sentences and masks every step, so it jumps). "
        "The thick line is the loss on the held-out sentences, with the same masks every time: that is the one to "
        "trust. Below: the learning rate, warming up linearly, then decaying linearly to 0 at the step budget "
        "(AdamW, gradients clipped at 1.0).",
        "细线是每个训练批次上的损失（每步句子和掩码都不同，所以会跳动）。粗线是留出句子上的损失，每次用相同的掩码："
        "应该看这条。下方是学习率：先线性预热，再线性衰减到步数预算处为 0（AdamW，梯度裁剪到 1.0）。",
    ),
    "mlm_lab.status_queued": (
        "Waiting for the training slot: {n} training(s) ahead of yours. It starts by itself.",
        "正在等待训练名额：前面还有 {n} 个训练。轮到时会自动开始。",
    ),
    "mlm_lab.status_before": ("Measuring the base model on the held-out sentences…", "正在用留出句子测量基础模型……"),
    "mlm_lab.status_training": (
        "Training: step {step} of {steps}, {seconds:.0f} s of {budget:.0f} s.",
        "训练中：第 {step}/{steps} 步，已用 {seconds:.0f}/{budget:.0f} 秒。",
    ),
    "mlm_lab.status_after": ("Measuring the fine-tuned model…", "正在测量微调后的模型……"),
    "mlm_lab.status_cancelling": ("Stopping after this step…", "本步结束后停止……"),
    "mlm_lab.stopped.steps": (
        "Finished: {steps} steps in {seconds:.0f} s (the step budget).",
        "完成：{steps} 步，用时 {seconds:.0f} 秒（达到步数预算）。",
    ),
    "mlm_lab.stopped.time": (
        "Finished: {steps} steps in {seconds:.0f} s (the time budget).",
        "完成：{steps} 步，用时 {seconds:.0f} 秒（达到时间预算）。",
    ),
    "mlm_lab.stopped.cancelled": (
        "Stopped by you after {steps} steps ({seconds:.0f} s); the model keeps what it learned so far.",
        "你在 {steps} 步后（{seconds:.0f} 秒）停止了训练；模型保留了到目前为止学到的内容。",
    ),
    "mlm_lab.summary": (
        "| | before | after |\n|---|---|---|\n| held-out MLM loss | {b_loss:.3f} | {a_loss} |\n| perplexity | {b_ppl:.1f} | {a_ppl} |\n\n"
        "{n_train} training sentences, {n_held} held out ({masked} masked held-out tokens scored, the same before and after).",
        "| | 训练前 | 训练后 |\n|---|---|---|\n| 留出 MLM 损失 | {b_loss:.3f} | {a_loss} |\n| 困惑度 | {b_ppl:.1f} | {a_ppl} |\n\n"
        "{n_train} 个训练句，{n_held} 个留出句（对 {masked} 个被遮住的留出词元打分，训练前后相同）。",
    ),
    "mlm_lab.reading_fell": (
        "The held-out loss fell by {d:.2f} (perplexity {b:.0f} → {a:.0f}): on sentences it never trained on, the model "
        "now puts more probability on the hidden words.",
        "留出损失下降了 {d:.2f}（困惑度 {b:.0f} → {a:.0f}）：在从未训练过的句子上，模型现在给被遮住的词更高的概率。",
    ),
    "mlm_lab.reading_rose": (
        "The held-out loss rose by {d:.2f}: the model got worse on unseen sentences (learning rate too high, or it "
        "over-fitted a small corpus). Try a lower learning rate or fewer steps.",
        "留出损失上升了 {d:.2f}：模型在没见过的句子上变差了（学习率过高，或在小语料上过拟合）。试试更低的学习率或更少的步数。",
    ),
    "mlm_lab.reading_flat": (
        "The held-out loss barely moved ({d:+.3f}): train longer or with a higher learning rate.",
        "留出损失几乎没变（{d:+.3f}）：请训练更久或提高学习率。",
    ),
    "mlm_lab.reading_ranks": (
        "{up} of {n} domain words moved up at their held-out probe, {down} moved down.",
        "{n} 个领域词中，有 {up} 个在留出探针句中的名次上升，{down} 个下降。",
    ),
    "mlm_lab.probes": ("Probe sentences (held out): predictions before and after", "探针句（留出）：训练前后的预测"),
    "mlm_lab.col_sentence": ("held-out sentence", "留出句子"),
    "mlm_lab.col_word": ("hidden word", "被遮住的词"),
    "mlm_lab.col_top_before": ("top-5 before", "训练前 top-5"),
    "mlm_lab.col_top_after": ("top-5 after", "训练后 top-5"),
    "mlm_lab.col_rank_before": ("rank before", "训练前名次"),
    "mlm_lab.col_rank_after": ("rank after", "训练后名次"),
    "mlm_lab.col_p_before": ("p before", "训练前概率"),
    "mlm_lab.col_p_after": ("p after", "训练后概率"),
    "mlm_lab.col_count": ("count in corpus", "语料中出现次数"),
    "mlm_lab.col_general": ("rank in general text", "通用文本词频名次"),
    "mlm_lab.not_in_general": ("not in the reference", "不在参考词表中"),
    "mlm_lab.domain": (
        "The corpus's domain words: rank at a held-out mask, before and after",
        "语料的领域词：在留出句掩码处的名次，训练前后",
    ),
    "mlm_lab.domain_note": (
        "Domain words are frequent in this corpus but rare in general text ({reference}: English words by GloVe's "
        "vocabulary, ordered by frequency; Chinese words, as jieba segments them, by jieba's dictionary counts). Each is "
        "hidden in one held-out sentence (a Chinese word at its last character); the rank is the position of the true "
        "token among all {vocab} tokens (1 = the model's first guess). Only words whose hidden part the model reads as "
        "a single token are listed.",
        "领域词在本语料中常见，但在通用文本中少见（{reference}：英文词按 GloVe 词表的词频顺序；中文词按 jieba 分词，"
        "以 jieba 词典的词频排序）。每个词在一个留出句中被遮住（中文词遮住最后一个字）；名次是正确词元在全部 {vocab} "
        "个词元中的位置（1 = 模型的第一猜测）。只列出被遮住部分是模型的单个词元的词。",
    ),
    "mlm_lab.rank_axis": (
        "rank of the hidden word (log scale; 1 = first guess, further right is better)",
        "被遮住词的名次（对数刻度；1 = 第一猜测，越靠右越好）",
    ),
    "mlm_lab.before": ("before", "训练前"),
    "mlm_lab.after": ("after", "训练后"),
    "mlm_lab.no_probes": (
        "No held-out sentence contains a domain word the model reads as one token, so there are no probes: use a larger corpus.",
        "没有留出句包含模型视为单个词元的领域词，因此没有探针句：请使用更大的语料。",
    ),
    "mlm_lab.try": ("Try your model", "试试你的模型"),
    "mlm_lab.try_info": (
        "A sentence with [MASK]: the base model and your fine-tuned model fill it side by side (this session only).",
        "含 [MASK] 的句子：基础模型和你微调后的模型并排填空（仅限本会话）。",
    ),
    "mlm_lab.try_run": ("Compare", "比较"),
    "mlm_lab.no_model": (
        "Train a model first (or it was dropped from memory: train again).",
        "请先训练一个模型（或它已从内存中移除：请重新训练）。",
    ),
    "mlm_lab.download": (
        "Download what your training changed (float16 safetensors + the base model's name, zip)",
        "下载训练改动的部分（float16 safetensors + 基础模型名称，zip）",
    ),
    "mlm_lab.downloads": ("Your fine-tuned model", "你的微调模型"),
    "mlm_lab.model_note": (
        "Your fine-tuned model stays in memory for this browser session only (up to {n} sessions' models at once "
        "server-wide; the least recently used is dropped). Nobody else can load it. Until then it is also a choice, "
        '"Your lab model", in the Fill-mask and Attention tabs.',
        "你的微调模型只在本浏览器会话中保留在内存里（全服务器同时最多保留 {n} 个会话的模型；最久未用的先被移除）。其他人无法加载它。"
        "在此期间，它也会以「你的实验室模型」出现在「完形填空」和「注意力」标签页的模型选项里。",
    ),
    "mlm_lab.provenance": (
        "Base weights: `{model}` · device: {device} · your copy is trained in memory.",
        "基础权重：`{model}` · 设备：{device} · 你的副本在内存中训练。",
    ),
    "error.lab_empty_corpus": (
        "The corpus is empty: paste text, upload a .txt file or pick the sample.",
        "语料为空：请粘贴文本、上传 .txt 文件或选择示例语料。",
    ),
    "error.lab_corpus_too_big": (
        "The corpus has {n} characters ({size}); the lab takes at most {max} characters.",
        "语料有 {n} 个字符（{size}）；实验室最多接受 {max} 个字符。",
    ),
    "error.lab_upload_too_big": (
        "The file is {size}; the lab reads at most {max} ({chars} characters).",
        "该文件大小为 {size}；实验室最多读取 {max}（{chars} 个字符）。",
    ),
    "error.lab_too_few_sentences": (
        "The corpus has {n} usable sentences (3 words or more; a Chinese character counts as a word); "
        "the lab needs at least {min}.",
        "语料中只有 {n} 个可用句子（3 个词以上；一个汉字算一个词）；实验室至少需要 {min} 个。",
    ),
    "error.lab_busy": (
        "{n} trainings are already running or waiting (the most the server takes): try again in a few minutes.",
        "已有 {n} 个训练正在进行或等待（服务器最多接受这么多）：请几分钟后再试。",
    ),
    "error.lab_client_busy": (
        "{n} trainings from your network address are already running or waiting, the most one address may hold "
        "(a class behind one school connection shares one address): wait for one to finish, or ask whoever runs this "
        "server to raise PLAYGROUND_LAB_PER_CLIENT.",
        "来自你的网络地址的 {n} 个训练已在进行或等待，这是每个地址的上限（同一学校网络后的全班共用一个地址）："
        "请等其中一个结束，或请运行本服务器的人调高 PLAYGROUND_LAB_PER_CLIENT。",
    ),
    "error.lab_worker_died": (
        "The training process stopped unexpectedly (exit code {exit}): try again, perhaps with fewer steps.",
        "训练进程意外停止（退出码 {exit}）：请重试，也可以减少步数。",
    ),
    "error.lab_failed": ("The training failed ({kind}: {reason}).", "训练失败（{kind}：{reason}）。"),
    "error.lab_unreadable_corpus": (
        "{model} reads {share} of this corpus as its unknown token {unk}: it would learn to predict {unk}. "
        "Choose a base that reads the corpus's language: {readers}.",
        "{model} 把这份语料的 {share} 读成未知词元 {unk}：它只会学着预测 {unk}。请选择能读这种语言的基础模型：{readers}。",
    ),
    "error.lab_upload": ("The file could not be read as UTF-8 text.", "无法以 UTF-8 文本读取该文件。"),
    "mlm_lab.session_choice": ("Your lab model ({base}, {steps} steps)", "你的实验室模型（{base}，{steps} 步）"),
    # a session's lab model as results name it (playground.registry.LAB_MODEL_ID / LAB_MODEL_LABEL)
    "mlm_lab.model_id": ("{base} + your MLM lab fine-tune ({steps} steps)", "{base} + 你的 MLM 实验室微调（{steps} 步）"),
    "mlm_lab.model_label": ("{base} + your corpus ({steps} steps)", "{base} + 你的语料（{steps} 步）"),
    "mlm_lab.session_gone": (
        "Your lab model is no longer in memory (the session ended, or the server needed the room for other users' "
        "models): train it again in the MLM lab tab.",
        "你的实验室模型已不在内存中（会话已结束，或服务器需要为其他用户的模型腾出空间）：请在「MLM 实验室」标签页重新训练。",
    ),
    "avail.no_overlay": (
        "its weights trained here (assets/minilm_mlm) are missing from this copy of the app",
        "本应用副本中缺少在此训练的权重（assets/minilm_mlm）",
    ),
}
