"""Strings of the "Look inside a prediction" tab: the page, each view's figure words and its computed reading."""

STRINGS = {
    "insight.tab": ("Look inside a prediction", "看进一次预测"),
    "insight.intro": (
        "One prediction, taken apart: the blank of a masked LM ([MASK]) or the next token after a causal LM's "
        "sentence. **Layer by layer** shows what the model's own output head reads from each layer (the logit lens): "
        "which layer first predicts the answer. **Attribution beside attention** shows which input tokens drove "
        "it (Integrated Gradients, gradient × input) next to where a head looked — attention is not explanation. "
        "**Knock out heads** silences heads with forward hooks and shows which ones matter. **Patching** copies one "
        "position's hidden state from a second sentence and shows which outputs change: in GPT only to the right, "
        "in BERT everywhere. **Probes** test a claim of the course, \"low layers syntax, high layers meaning\": "
        "per layer, linear probes for part of speech and word sense, each beside a control task.",
        "把一次预测拆开来看：掩码语言模型的空位（[MASK]），或因果语言模型句子之后的下一个词元。**逐层读出**：把模型自己的"
        "输出头接在每一层上（logit lens），看哪一层最先预测出答案。**归因与注意力并排**：哪些输入词元推动了预测"
        "（积分梯度、梯度 × 输入），旁边是某个注意力头看向哪里——注意力不等于解释。**关掉注意力头**：用前向钩子让头"
        "静音，看哪些头重要。**激活修补**：把第二个句子某个位置的隐藏状态复制过来，看哪些输出改变：GPT 只改变右边，"
        "BERT 处处改变。**探针**检验课程的一个说法“低层句法、高层语义”：在每一层上训练词性和词义的线性探针，各配一个控制任务。",
    ),
    "insight.hint": ("Choose a view and press **Run**.", "选择一个视图，然后按 **运行**。"),
    "insight.view": ("View", "视图"),
    "insight.view.lens": ("Layer by layer (logit lens)", "逐层读出（logit lens）"),
    "insight.view.attribution": ("Attribution beside attention", "归因与注意力并排"),
    "insight.view.knockout": ("Knock out heads", "关掉注意力头"),
    "insight.view.patching": ("Patching: BERT vs GPT", "激活修补：BERT 与 GPT"),
    "insight.model": ("Model", "模型"),
    "insight.text": ("Sentence", "句子"),
    "insight.text_info": (
        "A masked LM predicts the [MASK]; a causal LM the token after the sentence.",
        "掩码语言模型预测 [MASK]；因果语言模型预测句子之后的词元。",
    ),
    "insight.run": ("Run", "运行"),
    "insight.top_k": ("Top-k", "Top-k"),
    "insight.head_layer": ("Head's layer (-1: the last)", "注意力头所在层（-1：最后一层）"),
    "insight.head": ("Head", "注意力头"),
    "insight.steps": ("IG steps", "积分梯度步数"),
    "insight.steps_info": ("More steps: a smaller completeness error, a longer run.", "步数越多，完备性误差越小，运行越久。"),
    "insight.heads": ("Heads to knock out", "要关掉的头"),
    "insight.heads_info": (
        "layer.head (3.7), a set (3.7, 4.1), a whole layer (3) or * for every head; empty: none.",
        "层.头（3.7）、一组（3.7, 4.1）、整层（3）或 * 表示全部；留空：不关。",
    ),
    "insight.source": ("Sentence A (patched from)", "句子 A（修补来源）"),
    "insight.source_info": (
        "Its hidden state at the position is copied into the sentence above (B).",
        "它在该位置的隐藏状态被复制到上面的句子（B）中。",
    ),
    "insight.patch_layer": ("Patch entering layer", "修补进入第几层"),
    "insight.position": ("Position (-1: the first that differs)", "位置（-1：第一个不同的位置）"),
    "insight.files": ("The result as JSON", "结果（JSON）"),
    "error.insight_bad_heads": (
        "{item!r} names no head: write layer.head (3.7), a layer (3 or 3.*) or * for all.",
        "{item!r} 不是注意力头：请写 层.头（3.7）、一层（3 或 3.*），或 * 表示全部。",
    ),
    "error.insight_head_range": (
        "{item} is outside this model: layers 0-{last_layer}, heads 0-{last_head}.",
        "{item} 超出了这个模型：层 0-{last_layer}，头 0-{last_head}。",
    ),
    "error.insight_bad_position": (
        "position must be -1 or 0-{last} (both sentences have it).",
        "位置必须是 -1 或 0-{last}（两个句子都有这个位置）。",
    ),
    # layer by layer
    "insight.lens.title": ("p(answer) per layer; labels: each layer's top-1", "每层的 p(答案)；标签：该层第一预测"),
    "insight.lens.answer_p": ("p(final answer)", "p(最终答案)"),
    "insight.lens.top1_p": ("p(that layer's top-1)", "p(该层第一预测)"),
    "insight.lens.hover": ("layer %{x}: top-1 %{text} (p %{customdata[1]:.3f})<br>final answer: rank %{customdata[0]}, "
                           "p %{y:.3f}", "第 %{x} 层：第一预测 %{text}（p %{customdata[1]:.3f}）<br>最终答案：第 "
                           "%{customdata[0]} 名，p %{y:.3f}"),
    "insight.lens.layer": ("layer (0: embeddings)", "层（0：嵌入）"),
    "insight.lens.prob": ("probability", "概率"),
    "insight.lens.reading": (
        "The model's answer at {where} is **{answer}** (p {p}). It is the top prediction from **layer {first}** of "
        "{layers} on{seen}.",
        "模型在{where}的答案是 **{answer}**（p {p}）。从 **第 {first} 层**（共 {layers} 层）起它一直是第一预测{seen}。",
    ),
    "insight.lens.only_last": (
        "The model's answer at {where} is **{answer}** (p {p}). Only the last layer predicts it{seen}: the "
        "earlier layers' top-1 is something else.",
        "模型在{where}的答案是 **{answer}**（p {p}）。只有最后一层预测出它{seen}：更早的层的第一预测都是别的词元。",
    ),
    "insight.lens.seen": ("; it first enters the top {k} at layer {layer}", "；它在第 {layer} 层首次进入前 {k} 名"),
    "insight.where.mask": ("the blank (position {i})", "空位（位置 {i}）"),
    "insight.where.next": ("the token after “{token}” (position {i})", "“{token}”之后的词元（位置 {i}）"),
    "insight.lens.table": ("| layer | top-1 | top-k | answer's rank | p(answer) |", "| 层 | 第一预测 | 前 k 名 | 答案名次 | p(答案) |"),
    # attribution
    "insight.attr.title": ("Each row scaled to its largest |value|", "每行按其最大 |值| 缩放"),
    "insight.attr.ig": ("Integrated Gradients", "积分梯度"),
    "insight.attr.gxi": ("gradient × input", "梯度 × 输入"),
    "insight.attr.head": ("attention, head {layer}.{head}", "注意力，头 {layer}.{head}"),
    "insight.attr.rollout": ("attention rollout", "注意力展开（rollout）"),
    "insight.attr.reading": (
        "For **{answer}** (p {p}) at {where}: Integrated Gradients credits **{ig}** most; the attention rollout "
        "puts most weight on **{roll}**, and head {layer}.{head} looks most at **{head_top}**. {verdict} "
        "Head {layer}.{head} gives {special} of its attention to tokens that carry no attribution (special tokens, "
        "the [MASK], the first token).",
        "对{where}的 **{answer}**（p {p}）：积分梯度最看重 **{ig}**；注意力展开把最多权重放在 **{roll}** 上，"
        "头 {layer}.{head} 最关注 **{head_top}**。{verdict}头 {layer}.{head} 把 {special} 的注意力给了不带归因的词元"
        "（特殊词元、[MASK]、第一个词元）。",
    ),
    "insight.attr.agree": ("Attribution and rollout agree on the top token.", "归因和注意力展开在第一名上一致。"),
    "insight.attr.disagree": ("**They disagree**: where attention goes is not what drove the prediction.",
                              "**两者不一致**：注意力去向并不是推动预测的原因。"),
    "insight.attr.rho": (" Over the {n} words their rankings agree with Spearman ρ = {rho}.",
                         "在 {n} 个词上，两者排序的斯皮尔曼 ρ = {rho}。"),
    "insight.attr.sum": (
        "Completeness: the IG attributions sum to **{total}**; f(sentence) − f(baseline) = {f_x} − ({f_b}) = "
        "**{delta}** (f = log p(answer); baseline: every word replaced by {baseline}), an error of **{error}** with "
        "{steps} steps{warn}.",
        "完备性：积分梯度归因之和为 **{total}**；f(句子) − f(基线) = {f_x} − ({f_b}) = **{delta}**（f = log p(答案)；"
        "基线：每个词都换成 {baseline}），误差 **{error}**，{steps} 步{warn}。",
    ),
    "insight.attr.warn": (" — above 1 %: raise the steps", "——超过 1%：请增加步数"),
    "insight.attr.chips": ("Tokens coloured by Integrated Gradients (blue: for the answer, red: against)",
                           "按积分梯度着色的词元（蓝：支持答案，红：反对）"),
    "insight.attr.none": ("no word", "没有词"),
    "insight.attr.zero": ("the zero vector", "零向量"),
    # knock-out
    "insight.ko.before_after": ("top-k: all heads (blue), chosen ones off (red)", "前 k 名：全部头（蓝），关掉后（红）"),
    "insight.ko.grid": ("each head alone off: Δp(answer) (×: yours)", "每次只关一个头：Δp(答案)（×：你关的）"),
    "insight.ko.before": ("every head", "全部头"),
    "insight.ko.after": ("heads silenced", "关掉后"),
    "insight.ko.cell": ("layer %{y} · head %{x}<br>Δp(answer) %{z:+.4f}", "第 %{y} 层 · 头 %{x}<br>Δp(答案) %{z:+.4f}"),
    "insight.ko.head_axis": ("head", "头"),
    "insight.ko.layer_axis": ("layer", "层"),
    "insight.ko.prob": ("probability", "概率"),
    "insight.ko.reading": (
        "With every head the answer at {where} is **{answer}** (p {before}). Silencing {what}: p({answer}) "
        "becomes **{after}**, {top}; the distribution moved by {tv} (total variation).",
        "全部头都在时，{where}的答案是 **{answer}**（p {before}）。关掉 {what} 后：p({answer}) 变为 **{after}**，"
        "{top}；分布移动了 {tv}（总变差）。",
    ),
    "insight.ko.none": ("no head", "没有头"),
    "insight.ko.n_heads": ("{n} heads", "{n} 个头"),
    "insight.ko.same_top": ("the top-1 stays", "第一预测不变"),
    "insight.ko.new_top": ("the top-1 becomes **{token}**", "第一预测变成 **{token}**"),
    "insight.ko.rank": (
        "Alone, the head that matters most is **{layer}.{head}** (p(answer) {delta:+.4f}); {n} of the {total} heads "
        "move it by more than a percentage point.",
        "单独关掉时，最重要的头是 **{layer}.{head}**（p(答案) {delta:+.4f}）；{total} 个头中有 {n} 个让它变化超过一个百分点。",
    ),
    "insight.ko.table": ("| rank | head | Δp(answer) | top-1 without it |", "| 名次 | 头 | Δp(答案) | 关掉后的第一预测 |"),
    # patching
    "insight.patch.title": ("Output change per position (orange: patched)", "每个位置的输出变化（橙色：被修补）"),
    "insight.patch.change": ("total variation (log)", "总变差（对数）"),
    "insight.patch.hover": ("%{x}: %{y:.5f}<br>top-1 %{customdata[0]}<br>max |Δlogit| %{customdata[1]:.2e}",
                            "%{x}：%{y:.5f}<br>第一预测 %{customdata[0]}<br>最大 |Δlogit| %{customdata[1]:.2e}"),
    "insight.patch.reading": (
        "The hidden state entering layer {layer} at position {i} (**{b}** in B) was replaced by sentence A's "
        "(**{a}**). {n} of the {total} positions' outputs changed. Left of the patch the largest change is "
        "**{left}**; right of it **{right}**.",
        "进入第 {layer} 层、位置 {i}（B 中的 **{b}**）的隐藏状态被替换为句子 A 的（**{a}**）。{total} 个位置中有 {n} "
        "个位置的输出改变。修补位置左边最大的变化是 **{left}**；右边是 **{right}**。",
    ),
    "insight.patch.causal": (
        "A causal model: each token sees only the past, so nothing left of the patch can change.",
        "因果模型：每个词元只看见前文，所以修补位置左边什么也不会改变。",
    ),
    "insight.patch.bidirectional": (
        "A bidirectional model: every token attends to every other, so the patch reaches both sides.",
        "双向模型：每个词元都关注所有其他词元，所以修补会影响两侧。",
    ),
    "insight.patch.table": ("| position | token | change | top-1 before → after |", "| 位置 | 词元 | 变化 | 第一预测 修补前 → 后 |"),
}  # fmt: skip
