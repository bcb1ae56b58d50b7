"""Strings of the Attention tab."""

STRINGS = {
    "attention.hint": (
        "Press **Run** to see who attends to whom: the attention of the chosen layer and head over your tokens.",
        "按 **运行** 查看谁关注谁：所选层和注意力头在各词元上的注意力。",
    ),
    "attention.tab": ("Attention", "注意力"),
    "attention.intro": (
        "**Attention(Q, K, V) = softmax(QKᵀ/√d)·V**, on your sentence, in a real model. Each row of a map is one "
        "token (the *query*) sharing out 100% of its attention over the tokens it may see (the *keys*). "
        "An encoder (MiniLM, BERT) sees both directions; a causal model (SmolLM2, GPT) only the past, so its "
        "map is zero above the diagonal. The model runs once per sentence: changing layer, head or view is instant.",
        "**Attention(Q, K, V) = softmax(QKᵀ/√d)·V**，在真实模型中作用于你的句子。图中每一行是一个词元（*查询*），"
        "它把 100% 的注意力分配给它能看到的词元（*键*）。编码器（MiniLM、BERT）双向可见；因果模型（SmolLM2、GPT）"
        "只能看见前文，所以其注意力图在对角线以上全为零。每个句子只运行一次模型：切换层、头或视图都是即时的。",
    ),
    "attention.model": ("Model", "模型"),
    "attention.text": ("Sentence (A)", "句子（A）"),
    "attention.text_b": ("Sentence B (optional, BERT-family pairs)", "句子 B（可选，BERT 系列句对）"),
    "attention.text_b_info": (
        "Encoded as [CLS] A [SEP] B [SEP]; B's tokens get token_type_id 1 (marked ᴮ). Input = token + segment + position embeddings.",
        "编码为 [CLS] A [SEP] B [SEP]；B 的词元 token_type_id 为 1（标记 ᴮ）。输入 = 词元 + 片段 + 位置嵌入。",
    ),
    "attention.view": ("View", "视图"),
    "attention.view.head": ("One head", "单个头"),
    "attention.view.layer": ("All heads of a layer", "一层的所有头"),
    "attention.view.overview": ("Model overview", "模型总览"),
    "attention.view.tokens": ("Token lines", "词元连线"),
    "attention.view.mean": ("Mean over heads", "各头平均"),
    "attention.view.rollout": ("Rollout", "注意力展开（rollout）"),
    "attention.view.special": ("Attention on special tokens", "特殊词元上的注意力"),
    "attention.view.entropy": ("Head entropy", "注意力头的熵"),
    "attention.view.compare": ("Bidirectional vs causal", "双向 vs 因果"),
    "attention.view.step": ("Step by step (Q, K, V)", "逐步计算（Q、K、V）"),
    "attention.view.positional": ("Positional encoding", "位置编码"),
    "attention.layer": (
        "Layer (0 = the first transformer layer; in Polysemy its output is layer 1, layer 0 there is the embeddings)",
        "层（0 = 第一个 Transformer 层；在“一词多义”中它的输出是第 1 层，那里的第 0 层是嵌入）",
    ),
    "attention.head": ("Head", "头"),
    "attention.query": ("Query token (position)", "查询词元（位置）"),
    "attention.query_info": (
        "For token lines and step by step; -1 in token lines = all tokens.",
        "用于词元连线和逐步计算；词元连线中 -1 表示所有词元。",
    ),
    "attention.row_start": ("First query row shown (long inputs)", "显示的第一行查询（长输入）"),
    "attention.other_model": ("Compare with", "对比模型"),
    "attention.export": (
        "Export figure (HTML), head matrix (CSV) and numbers (JSON)",
        "导出图（HTML）、头矩阵（CSV）和数值（JSON）",
    ),
    "attention.files": ("Exports", "导出文件"),
    "attention.overview_help": (
        "Rows are layers (layer 0, the first transformer layer, at the top), columns are heads; each thumbnail is "
        "scaled to its own maximum. "
        "Click a thumbnail to open that head.",
        "每行是一层（第 0 层即第一个 Transformer 层，在最上方），每列是一个头；每个缩略图按自身最大值缩放。点击缩略图即可打开该头。",
    ),
    "attention.info": (
        "{provenance} · {n} tokens · {layers} layers × {heads} heads · {direction}",
        "{provenance} · {n} 个词元 · {layers} 层 × {heads} 个头 · {direction}",
    ),
    "attention.bidirectional": ("bidirectional (sees both sides)", "双向（两侧都可见）"),
    "attention.causal": ("causal (sees only the past)", "因果（只能看见前文）"),
    "attention.segments": (
        "Segments: A = {a} tokens (token_type_id 0), B = {b} tokens (token_type_id 1).",
        "片段：A = {a} 个词元（token_type_id 0），B = {b} 个词元（token_type_id 1）。",
    ),
    "attention.rows_note": (
        "Showing query rows {start}-{stop} of {n}; move the row slider to scroll.",
        "显示第 {start}-{stop} 行查询（共 {n} 行）；拖动行滑块滚动。",
    ),
    "attention.title.head": ("Layer {layer}, head {head}", "第 {layer} 层，第 {head} 个头"),
    "attention.title.layer": ("All heads of layer {layer}", "第 {layer} 层的所有头"),
    "attention.title.tokens": (
        "Layer {layer}, head {head}: who attends to whom (click a head's colour to add it; point at a token)",
        "第 {layer} 层第 {head} 个头：谁关注谁（点击图例中头的颜色可加入该头；指向词元只看它的连线）",
    ),
    "attention.title.mean": ("Layer {layer}, mean over heads", "第 {layer} 层，各头平均"),
    "attention.title.rollout": (
        "Attention rollout through all layers (with the residual path)",
        "贯穿所有层的注意力展开（含残差路径）",
    ),
    "attention.title.special": ("Share of attention on special tokens, per layer", "每层落在特殊词元上的注意力比例"),
    "attention.title.entropy": (
        "Entropy of each head (bits): low = focused, high = spread out",
        "每个头的熵（比特）：低 = 集中，高 = 分散",
    ),
    "attention.title.compare": ("Same sentence, layer {layer}, head {head}", "同一句子，第 {layer} 层，第 {head} 个头"),
    "attention.title.step": ("Layer {layer}, head {head}, query “{token}”", "第 {layer} 层，第 {head} 个头，查询 “{token}”"),
    "attention.title.sinusoid": ("Sinusoidal encoding (d = {d})", "正弦位置编码（d = {d}）"),
    "attention.title.learned": (
        "Learned position embeddings of {model}: cosine similarity",
        "{model} 学到的位置嵌入：余弦相似度",
    ),
    "attention.first_token": ("first token ({token})", "第一个词元（{token}）"),
    "attention.other_special": ("other special tokens ([SEP], </s>)", "其他特殊词元（[SEP]、</s>）"),
    "attention.head_n": ("head {head}", "头 {head}"),
    "attention.axis.key": ("key (attended to)", "键（被关注）"),
    "attention.axis.query": ("query (attending)", "查询（发出关注）"),
    "attention.axis.layer": ("layer", "层"),
    "attention.axis.head": ("head", "头"),
    "attention.axis.share": ("share of attention", "注意力比例"),
    "attention.axis.position": ("position", "位置"),
    "attention.axis.dimension": ("dimension", "维度"),
    "attention.step.scores": ("scores q·k/√d", "分数 q·k/√d"),
    "attention.step.softmax": ("softmax (weights)", "softmax（权重）"),
    "attention.step.model": ("model's own attention", "模型自己的注意力"),
    "attention.step.summary": (
        "Query head {head} uses key/value head {kv_head} (grouped-query attention when they differ). "
        "d = {d}, scale 1/√d = {scale:.4f}{rope}{causal}. Recomputed weights match the model's attention "
        "to within **{error:.1e}**. Output = Σ weights · v (first dimensions): `{output}`",
        "查询头 {head} 使用键/值头 {kv_head}（两者不同即分组查询注意力）。d = {d}，缩放 1/√d = {scale:.4f}{rope}{causal}。"
        "重新计算的权重与模型的注意力相差不超过 **{error:.1e}**。输出 = Σ 权重 · v（前几维）：`{output}`",
    ),
    "attention.step.rope": (
        "; q and k rotated by RoPE (position inside attention)",
        "；q 和 k 经 RoPE 旋转（位置信息在注意力内部）",
    ),
    "attention.step.causal": ("; later tokens masked (−∞ before softmax)", "；后面的词元被屏蔽（softmax 前为 −∞）"),
    "attention.step.table": (
        "| key | score | weight | k (first dims) | v (first dims) |",
        "| 键 | 分数 | 权重 | k（前几维） | v（前几维） |",
    ),
    "attention.step.q": ("q (first {n} of {d} dims): `{values}`", "q（{d} 维中的前 {n} 维）：`{values}`"),
    "attention.no_learned": (
        "{model} has no learned position table (it uses rotary RoPE inside attention); only the sinusoidal encoding is shown.",
        "{model} 没有学习到的位置表（它在注意力内部使用旋转位置编码 RoPE）；只显示正弦位置编码。",
    ),
    "error.attention_empty_text": ("Type a sentence first.", "请先输入一个句子。"),
    "error.attention_pair_unsupported": (
        "{model} has no segment embeddings: leave sentence B empty.",
        "{model} 没有片段嵌入：请让句子 B 留空。",
    ),
    "error.attention_too_long": (
        "The text has {n} tokens; this view reads at most {limit}.",
        "文本有 {n} 个词元；此视图最多读取 {limit} 个。",
    ),
    "error.attention_bad_head": ("Layer must be 0-{layers} and head 0-{heads}.", "层必须在 0-{layers}，头必须在 0-{heads}。"),
    "error.attention_bad_layer": ("Layer must be 0-{last}.", "层必须在 0-{last}。"),
    "error.attention_bad_query": ("Head must be 0-{heads} and token 0-{last}.", "头必须在 0-{heads}，词元必须在 0-{last}。"),
    "error.attention_no_qkv": (
        "The step-by-step view does not know the attention layout of {model}.",
        "逐步计算视图不认识 {model} 的注意力结构。",
    ),
    "error.attention_bad_positions": ("Need at least 1 position and 2 dimensions.", "至少需要 1 个位置和 2 个维度。"),
    "error.attention_no_learned_positions": (
        "{model} has no learned position table: it encodes order inside attention (e.g. rotary RoPE).",
        "{model} 没有学习到的位置表：它在注意力内部编码顺序（例如旋转位置编码 RoPE）。",
    ),
    "error.attention_no_model": (
        "This view works on one model at a time; choose a model.",
        "此视图一次只用一个模型；请选择一个模型。",
    ),
    "error.attention_row_range": (
        "row_start must be below the number of tokens ({n}).",
        "row_start 必须小于词元数（{n}）。",
    ),
    "attention.unknown": (
        "⚠ **{model} does not know {n} piece(s) of this text: {texts}**. Each became {unk}, one shared placeholder "
        "(marked “{unk} (…)” on the axes): the model never saw these characters, so their rows and columns show "
        "attention to a placeholder, not to the words you typed.",
        "⚠ **{model} 不认识这段文字中的 {n} 处：{texts}** ——每一处都变成了 {unk}，一个共用的占位符"
        "（坐标轴上标为“{unk} (…)”）：模型从未看到这些字符，所以它们的行和列显示的是对占位符的注意力，而不是对你输入的字词的注意力。",
    ),
}
