"""Strings of the Inside BERT tab (input embeddings, ALBERT's savings, NSP, fine-tuning heads)."""

STRINGS = {
    "inside.tab": ("Inside BERT", "BERT 内部"),
    "kind.nsp": ("next-sentence prediction head", "下一句预测头"),
    "inside.intro": (
        "Four looks inside the encoder: how BERT builds its input, where ALBERT saves parameters, "
        "what next-sentence prediction trains (and what replaced it), and which outputs feed a fine-tuning head.",
        "从四个角度看编码器内部：BERT 如何构造输入、ALBERT 在哪里节省参数、下一句预测训练什么（以及后来被什么取代）、"
        "微调时哪些输出送入任务头。",
    ),
    "inside.view": ("View", "视图"),
    "inside.view.embeddings": ("BERT's input embeddings", "BERT 的输入嵌入"),
    "inside.view.params": ("ALBERT's savings", "ALBERT 的参数节省"),
    "inside.view.nsp": ("Next-sentence prediction", "下一句预测（NSP）"),
    "inside.view.heads": ("Fine-tuning heads", "微调任务头"),
    "inside.run": ("Show", "显示"),
    "inside.exports": ("Downloads (JSON, interactive HTML)", "下载（JSON、交互式 HTML）"),
    # input embeddings
    "inside.emb.hint": (
        "Press **Show** to see, for each token of the pair, its token, segment and position embedding, their sum and "
        "the LayerNorm output — and the check against the model's own embedding layer.",
        "按 **显示**，查看句对中每个词元的词嵌入、句段嵌入、位置嵌入、三者之和以及 LayerNorm 输出，并与模型自身的嵌入层输出核对。",
    ),
    "inside.emb.model": ("Model (BERT architecture)", "模型（BERT 架构）"),
    "inside.emb.text_a": ("Sentence A (segment 0)", "句子 A（句段 0）"),
    "inside.emb.text_b": ("Sentence B (segment 1, optional)", "句子 B（句段 1，可选）"),
    "inside.emb.row.token": ("token embedding", "词嵌入"),
    "inside.emb.row.segment": ("segment embedding (A = 0, B = 1)", "句段嵌入（A = 0，B = 1）"),
    "inside.emb.row.position": ("position embedding", "位置嵌入"),
    "inside.emb.row.summed": ("sum = token + segment + position", "和 = 词 + 句段 + 位置"),
    "inside.emb.row.normed": ("LayerNorm(sum): what layer 1 reads", "LayerNorm(和)：第 1 层读到的输入"),
    "inside.emb.dims": ("dimension", "维度"),
    "inside.emb.one_segment": (
        "**One segment type:** {model} has a single row in its segment table, so every token of A and of B gets the "
        "same segment vector: the sum cannot tell the two sentences apart; only the separator {sep} between them "
        "does. BERT has two rows (A = 0, B = 1): a learned vector added to every token of B, which tells every layer "
        "which sentence a token belongs to — what its next-sentence head and sentence-pair tasks (NLI, QA) read.",
        "**只有一种句段类型：** {model} 的句段嵌入表只有一行，A 和 B 的每个词元都加上同一个句段向量：求和之后分不出两个句子，"
        "只有两句之间的分隔符 {sep} 能区分。BERT 有两行（A = 0，B = 1）：B 的每个词元都加上一个学到的向量，"
        "让每一层都知道词元属于哪个句子——BERT 的下一句预测头和句对任务（自然语言推理、问答）读的正是它。",
    ),
    "inside.emb.unused_segment": (
        "**One segment in practice:** {model}'s segment table has {rows} rows, but its tokenizer makes no segment ids "
        "(`token_type_ids`), so every token, in A and in B, gets row 0 and the other row is never read; only the "
        "separator {sep} tells the sentences apart (XLM-R and RoBERTa, pre-trained without sentence pairs, work this "
        "way). BERT's tokenizer puts B in segment 1: a learned vector added to every token of B, which tells every "
        "layer which sentence a token belongs to — what its next-sentence head and sentence-pair tasks (NLI, QA) read.",
        "**实际上只有一个句段：** {model} 的句段嵌入表有 {rows} 行，但它的分词器不生成句段 id（`token_type_ids`），"
        "所以 A 和 B 的每个词元都取第 0 行，其余的行从不被读取；只有分隔符 {sep} 区分两个句子（XLM-R 和 RoBERTa "
        "预训练时没有句对，也是这样）。BERT 的分词器把 B 放在句段 1：B 的每个词元都加上一个学到的向量，"
        "让每一层都知道词元属于哪个句子——BERT 的下一句预测头和句对任务（自然语言推理、问答）读的正是它。",
    ),
    "inside.emb.check_ok": (
        "**Check:** LayerNorm(token + segment + position) against `model.embeddings(input_ids, token_type_ids)`: "
        "max |difference| = {diff:.2e} (≤ {tol:.0e}: the decomposition is exactly what the model computes).",
        "**核对：** LayerNorm(词 + 句段 + 位置) 与 `model.embeddings(input_ids, token_type_ids)` 相比："
        "最大 |差值| = {diff:.2e}（≤ {tol:.0e}：分解与模型的实际计算一致）。",
    ),
    "inside.emb.check_bad": (
        "**Check:** max |difference| = {diff:.2e} is above {tol:.0e}: this model builds its input differently.",
        "**核对：** 最大 |差值| = {diff:.2e}，超过 {tol:.0e}：该模型构造输入的方式不同。",
    ),
    "inside.emb.summary": (
        "{n} tokens × {d} dimensions; segment A has {a} tokens, segment B {b}. Every token of one segment gets the "
        "same segment row; each position gets its own row.",
        "{n} 个词元 × {d} 维；句段 A 有 {a} 个词元，句段 B 有 {b} 个。同一句段的所有词元得到同一行句段嵌入；每个位置有自己的位置嵌入。",
    ),
    # ALBERT's savings
    "inside.params.hint": (
        "Press **Show** to count the parameters of BERT, RoBERTa, DistilBERT, ELECTRA and ALBERT part by part, beside "
        "the papers' figures; then move E and the sharing to see where ALBERT's savings come from.",
        "按 **显示**，逐部分统计 BERT、RoBERTa、DistilBERT、ELECTRA 和 ALBERT 的参数，并与论文中的数字对照；"
        "再调整 E 和共享方式，看 ALBERT 的节省从何而来。",
    ),
    "inside.params.base": ('Sizes of the "what if" model', "“假设”模型的尺寸"),
    "inside.params.base_info": (
        "The \"what if\" bar is ALBERT's architecture with this model's V, H, L and feed-forward size.",
        "“假设”柱使用 ALBERT 架构，词表 V、隐藏维度 H、层数 L 和前馈维度取自该模型。",
    ),
    "inside.params.E": ("Embedding size E", "嵌入维度 E"),
    "inside.params.share": ("What all layers share (ALBERT Table 4)", "各层共享什么（ALBERT 表 4）"),
    "inside.params.share.all": ("everything (ALBERT)", "全部（ALBERT）"),
    "inside.params.share.attention": ("attention only", "仅注意力"),
    "inside.params.share.ffn": ("feed-forward only", "仅前馈网络"),
    "inside.params.share.none": ("nothing (BERT)", "不共享（BERT）"),
    "inside.params.axis": ("parameters (millions)", "参数量（百万）"),
    "inside.params.total": ("{m:.1f} M", "{m:.1f} M"),
    "inside.params.what_if": ("what if: {base}, E={E}{shared}", "假设：{base}，E={E}{shared}"),
    "inside.params.shared": (", shared", "，共享"),
    "inside.params.shared.attention": (", shared attention", "，共享注意力"),
    "inside.params.shared.ffn": (", shared FFN", "，共享前馈"),
    "inside.params.part.token_embeddings": ("token embeddings (V·E)", "词嵌入（V·E）"),
    "inside.params.part.projection": ("projection E→H (E·H + H)", "投影 E→H（E·H + H）"),
    "inside.params.part.position_segment": ("position + segment embeddings", "位置 + 句段嵌入"),
    "inside.params.part.attention": ("attention (Q, K, V, output)", "注意力（Q、K、V、输出）"),
    "inside.params.part.feed_forward": ("feed-forward", "前馈网络"),
    "inside.params.part.layer_norms": ("layer norms", "层归一化"),
    "inside.params.part.pooler": ("pooler", "池化层"),
    "inside.params.part.other": ("other", "其他"),
    "inside.params.col_model": ("model", "模型"),
    "inside.params.col_total": ("counted", "计数"),
    "inside.params.col_no_pooler": ("counted without pooler", "不计池化层"),
    "inside.params.col_formula": ("formula total", "公式合计"),
    "inside.params.col_paper": ("the papers say", "论文中的数字"),
    "inside.params.paper": ("{m} M ({source})", "{m} M（{source}）"),
    "inside.params.source.albert_table1": ("ALBERT Table 1", "ALBERT 表 1"),
    "inside.params.source.bert_paper": ("BERT paper", "BERT 论文"),
    "inside.params.source.distilbert_paper": ("DistilBERT paper", "DistilBERT 论文"),
    "inside.params.source.electra_paper": ("ELECTRA Table 1", "ELECTRA 表 1"),
    "inside.params.projection": ("E·H + H = {proj:,}", "E·H + H = {proj:,}"),
    "inside.params.no_projection": (
        "no projection at E = H: ALBERT's code builds none (Hugging Face's class would add {hf_only:,} = E·H + H)",
        "E = H 时没有投影：ALBERT 的代码不构建它（Hugging Face 的类会多出 {hf_only:,} = E·H + H）",
    ),
    "inside.params.reading": (
        "**{what_if}**: token embeddings {tok_now:,} = V·E = {V:,}·{E} (+ {proj}) instead of V·H = {tok_bert:,}; "
        "layers {layers_now:,} = {A} attention set(s) and {F} feed-forward set(s) for {L} layers "
        "(unshared: {L} × {per_layer:,}). "
        "Total {total:,} by the formula = {built:,} counted on the built model ({agree}). "
        "That is {ratio:.1%} of {base} ({base_total:,}).",
        "**{what_if}**：词嵌入 {tok_now:,} = V·E = {V:,}·{E}（另加 {proj}），而不是 V·H = {tok_bert:,}；"
        "各层 {layers_now:,}：{L} 层共用 {A} 组注意力和 {F} 组前馈网络（不共享时：{L} × 每层 {per_layer:,}）。"
        "公式合计 {total:,}，实际构建的模型计数 {built:,}（{agree}）。相当于 {base}（{base_total:,}）的 {ratio:.1%}。",
    ),
    "inside.params.agree": ("they agree", "两者一致"),
    "inside.params.disagree": ("they DIFFER", "两者不一致"),
    "inside.params.papers": (
        "**Why the papers' figures differ from these counts.** Papers round to whole millions and do not all count "
        "the same things. ALBERT's Table 1 counts BERT with ALBERT's 30,000-word vocabulary and no pooler (108 M; "
        "here BERT-base has 30,522 words: {bert:.1f} M with the pooler, {bert_np:.1f} M without); the BERT paper "
        "rounds to 110 M. ALBERT's Tables 3 and 4 leave the pooler out of their not-shared models and count it in "
        "their shared ones: under that rule every cell is reproduced here within rounding. ALBERT-xlarge (60 M printed, "
        "{xl:.1f} M here) and ALBERT-xxlarge (235 M printed, {xxl:.1f} M here) are not explained by the pooler or the "
        "MLM and sentence-order heads (together under 0.6 M): the printed figures are larger than the published "
        "configs build. DistilBERT and ELECTRA have no pooler; ELECTRA-small's 14 M is the discriminator "
        "({electra:.1f} M here, its 0.07 M head left out).",
        "**论文中的数字为何与这里的计数不同。** 论文取整到百万，而且统计的内容并不一致。ALBERT 表 1 中的 BERT 用的是 "
        "ALBERT 的 30,000 词词表、不计池化层（108 M；这里的 BERT-base 有 30,522 个词：含池化层 {bert:.1f} M，"
        "不含 {bert_np:.1f} M）；BERT 论文取整为 110 M。ALBERT 表 3 和表 4 中不共享的模型不计池化层，共享的模型计入："
        "按这个规则，这里的每一格都在取整误差之内。ALBERT-xlarge（论文 60 M，这里 {xl:.1f} M）和 ALBERT-xxlarge"
        "（论文 235 M，这里 {xxl:.1f} M）的差距无法用池化层或 MLM、句序预测头（合计不到 0.6 M）解释：论文印的数字大于"
        "公开配置构建出的模型。DistilBERT 和 ELECTRA 没有池化层；ELECTRA-small 的 14 M 指判别器（这里 {electra:.1f} M，"
        "不含 0.07 M 的输出头）。",
    ),
    "inside.params.built": (
        "Every bar is a model built with `AutoModel.from_config(...)` on the meta device (encoder + pooler where it has "
        "one, no pre-training heads, no weights downloaded) from published config values. Hugging Face's ALBERT shares "
        "whole layers only: shared attention or feed-forward alone is counted from the not-shared model, the shared "
        "sub-layer (with its layer norm) once.",
        "每根柱子都是用 `AutoModel.from_config(...)` 在 meta 设备上按公开配置构建的模型（编码器，有池化层的含池化层，"
        "不含预训练头，不下载权重）。Hugging Face 的 ALBERT 只能整层共享：仅共享注意力或仅共享前馈网络时，"
        "按不共享的模型统计，被共享的子层（连同其层归一化）只计一次。",
    ),
    # NSP
    "inside.nsp.hint": (
        "Write a few sentences (a blank line starts a new document) and press **Show** to see how BERT, RoBERTa and "
        "ALBERT build their training inputs from them.",
        "写几个句子（空一行表示新文档），按 **显示**，看 BERT、RoBERTa 和 ALBERT 如何用它们构造训练输入。",
    ),
    "inside.nsp.text": ("Your text", "你的文本"),
    "inside.nsp.text_info": (
        "Sentences end at . ! ? or 。！？; a blank line separates documents.",
        "句子以 . ! ? 或 。！？ 结束；空行分隔文档。",
    ),
    "inside.nsp.seed": ("Seed", "随机种子"),
    "inside.nsp.budget": ("RoBERTa token budget", "RoBERTa 词元预算"),
    "inside.nsp.segment": ("segment id", "句段 id"),
    "inside.nsp.layout_title": (
        "The first pair as {tokenizer}'s tokenizer lays it out: {template}",
        "第一对句子经 {tokenizer} 的分词器排布：{template}",
    ),
    "inside.nsp.is_next": ("IsNext", "IsNext（是下一句）"),
    "inside.nsp.not_next": ("NotNext", "NotNext（不是下一句）"),
    "inside.nsp.prob": ("probability", "概率"),
    "inside.nsp.case.true_next": ("true next sentence", "真实的下一句"),
    "inside.nsp.case.random": ("random sentence", "随机句子"),
    "inside.nsp.case.swapped": ("swapped order", "顺序颠倒"),
    "inside.nsp.offline": (
        "**No NSP model here:** {reason}. The pre-trained NSP head (`BertForNextSentencePrediction`, "
        "google-bert/bert-base-uncased) needs the Hugging Face Hub; everything below is built from your text and works offline.",
        "**此处没有 NSP 模型：** {reason}。预训练的 NSP 头（`BertForNextSentencePrediction`，google-bert/bert-base-uncased）"
        "需要访问 Hugging Face Hub；下面的内容都由你的文本构造，离线也能运行。",
    ),
    "inside.nsp.probes": (
        "**{model}** on the first sentence: P(IsNext) for the true next sentence {p_true:.3f}; {rest}",
        "**{model}** 对第一句的判断：真实下一句的 P(IsNext) = {p_true:.3f}；{rest}",
    ),
    "inside.nsp.probe_other": ("{case} {p:.3f}", "{case} {p:.3f}"),
    "inside.nsp.pairs_title": ("BERT's NSP training pairs (seed {seed})", "BERT 的 NSP 训练样本（种子 {seed}）"),
    "inside.nsp.pairs_count": (
        "{n} pairs: {next} IsNext (B really follows A), {random} NotNext (B drawn at random). Each is a coin flip: "
        "over many pairs it is 50 / 50.",
        "{n} 对：{next} 对 IsNext（B 确实紧跟 A），{random} 对 NotNext（B 随机抽取）。每对抛一次硬币：样本多时各占 50%。",
    ),
    "inside.nsp.label_next": ("IsNext", "IsNext"),
    "inside.nsp.label_random": ("NotNext", "NotNext"),
    "inside.nsp.packed_title": (
        "RoBERTa FULL-SENTENCES: packed up to {budget} tokens, no pairs, no NSP loss",
        "RoBERTa FULL-SENTENCES：按 {budget} 个词元打包，不成对，没有 NSP 损失",
    ),
    "inside.nsp.packed_row": ("input {i} ({n} tokens)", "输入 {i}（{n} 个词元）"),
    "inside.nsp.over_budget": (" — one sentence alone is over the budget", "——单个句子就超出预算"),
    "inside.nsp.packed_note": (
        "{sep} marks a document boundary that the input crosses. Token counts use {tokenizer}'s tokenizer "
        "(RoBERTa's byte-level BPE counts a little differently); RoBERTa's budget was 512.",
        "{sep} 表示输入跨越的文档边界。词元数用 {tokenizer} 的分词器计算（RoBERTa 的字节级 BPE 略有不同）；RoBERTa 实际预算为 512。",
    ),
    "inside.nsp.sop_title": (
        "ALBERT sentence-order prediction: two consecutive segments, in order or swapped",
        "ALBERT 句序预测：两个相邻片段，原顺序或颠倒",
    ),
    "inside.nsp.sop_pos": ("in order (positive)", "原顺序（正例）"),
    "inside.nsp.sop_neg": ("swapped (negative)", "颠倒（负例）"),
    "inside.nsp.sop_note": (
        "Both segments always come from the same place in the same document, so topic gives nothing away: only the "
        "order tells the classes apart. NSP's random sentence is often off-topic, which made NSP easy.",
        "两个片段总是来自同一文档的同一位置，话题无法泄露答案，只能靠顺序区分。NSP 的随机句常常话题不同，所以 NSP 太容易。",
    ),
    "inside.nsp.col_label": ("label", "标签"),
    "inside.nsp.layout_note": (
        "Tokens and segment ids from {tokenizer}'s tokenizer: segment 0 up to and including the first {sep}, segment 1 after.",
        "词元和句段 id 来自 {tokenizer} 的分词器：直到第一个 {sep}（含）为句段 0，之后为句段 1。",
    ),
    "inside.nsp.layout_one_segment": (
        "Tokens from {tokenizer}'s tokenizer, which makes no segment ids: every token, in A and in B, is segment 0, "
        "and only {sep} tells where B begins. BERT's tokenizer puts B in segment 1: a learned vector is added to every "
        "token of B, which is what its NSP head reads the pair by.",
        "词元来自 {tokenizer} 的分词器，它不生成句段 id：A 和 B 的每个词元都是句段 0，只有 {sep} 标出 B 从哪里开始。"
        "BERT 的分词器把 B 放在句段 1：B 的每个词元都加上一个学到的向量，BERT 的 NSP 头正是靠它来读句对的。",
    ),
    "inside.nsp.layout_chinese": (
        "The text is Chinese, so the layout and the token counts use {tokenizer}'s tokenizer, which reads Chinese "
        "characters; {bert}'s BERT tokenizer turns {unk} of the {total} characters of this pair into [UNK].",
        "文本是中文，所以排布和词元数用 {tokenizer} 的分词器，它能读汉字；{bert} 的 BERT 分词器会把这对句子的 {total} "
        "个汉字中的 {unk} 个变成 [UNK]。",
    ),
    "inside.nsp.unknown": (
        "⚠ **{tokenizer}'s tokenizer does not know {n} piece(s) of the first pair: {texts}**. Each became {unk}, one "
        "shared placeholder: the layout below shows {unk} where you wrote them, and a model reading this pair could "
        "not tell them apart.",
        "⚠ **{tokenizer} 的分词器不认识第一对句子中的 {n} 处：{texts}** ——每一处都变成了 {unk}，一个共用的占位符："
        "下面的排布在这些位置显示 {unk}，读这对句子的模型也无法区分它们。",
    ),
    "inside.nsp.trained_here": (
        "⚠ **Not BERT's NSP head:** this is e5-small with a next-sentence head trained here, on Chinese documentation "
        "(LibreOffice help, Debian manuals): consecutive sentences as IsNext, a sentence of another document as "
        "NotNext. On documents held out from training it is right on {acc:.1%} of {n:,} pairs (50% is chance); on a "
        "manual it never saw (GIMP's), {other:.1%} of {m:,}. Everyday sentences were not in its training text: read its "
        "scores on them as a comparison between pairs, not as a verdict.",
        "⚠ **这不是 BERT 的 NSP 头：** 这是 e5-small 加上本项目训练的下一句预测头，训练文本是中文文档（LibreOffice 帮助、"
        "Debian 手册）：相邻的句子为 IsNext，另一文档中的句子为 NotNext。在训练时留出的文档上，{n:,} 对中判断正确 {acc:.1%}"
        "（随机猜为 50%）；在从未见过的手册（GIMP）上为 {m:,} 对中 {other:.1%}。训练文本里没有日常句子："
        "它对日常句子的分数只宜用来比较不同句对，不宜当作结论。",
    ),
    # heads
    "inside.heads.hint": (
        "Choose an encoder configuration and press **Show** to see which outputs feed each fine-tuning head, "
        "its weight shapes and the parameters it adds.",
        "选择一个编码器配置，按 **显示**，查看每个微调任务头接收哪些输出、它的权重形状以及新增的参数量。",
    ),
    "inside.heads.source": ("Encoder configuration", "编码器配置"),
    "inside.heads.task.sequence": ("Sequence classification (e.g. sentiment, 2 labels)", "句子分类（如情感，2 类）"),
    "inside.heads.task.pair": ("Sentence-pair classification (e.g. NLI, 3 labels)", "句对分类（如自然语言推理，3 类）"),
    "inside.heads.task.token": ("Token classification (tagging, 9 NER tags)", "词元分类（序列标注，9 个实体标签）"),
    "inside.heads.task.qa": ("Extractive QA (start and end of the answer span)", "抽取式问答（答案片段的起点和终点）"),
    "inside.heads.hidden": ("← encoder outputs h_i (H = {h})", "← 编码器输出 h_i（H = {h}）"),
    "inside.heads.box_pooler": (
        "pooler tanh(W·h₀) H×H (pre-trained) → classifier {shape}",
        "池化层 tanh(W·h₀) H×H（预训练）→ 分类器 {shape}",
    ),
    "inside.heads.box_first": ("classification head on h₀: {shape}", "作用于 h₀ 的分类头：{shape}"),
    "inside.heads.box_every": ("the same classifier {shape} on every h_i", "每个 h_i 共用同一个分类器 {shape}"),
    "inside.heads.box_span": ("qa_outputs {shape} on every h_i", "每个 h_i 上的 qa_outputs {shape}"),
    "inside.heads.out_first": ("{n} label scores", "{n} 个类别分数"),
    "inside.heads.out_every": ("tag", "标签"),
    "inside.heads.out_span": ("start, end", "起点, 终点"),
    "inside.heads.col_task": ("task", "任务"),
    "inside.heads.col_class": ("task model", "任务模型"),
    "inside.heads.col_feeds": ("what feeds the head", "送入任务头的输出"),
    "inside.heads.col_shapes": ("new weights", "新增权重"),
    "inside.heads.col_new": ("new parameters", "新增参数"),
    "inside.heads.col_base": ("base model", "基础模型"),
    "inside.heads.feeds.first_pooler": ("[CLS] vector h₀ through the pre-trained pooler", "经预训练池化层的 [CLS] 向量 h₀"),
    "inside.heads.feeds.first": ("first-token vector h₀ (no pooler)", "第一个词元的向量 h₀（无池化层）"),
    "inside.heads.feeds.every": ("every token's vector h_i", "每个词元的向量 h_i"),
    "inside.heads.feeds.span": (
        "every token's vector h_i → a start and an end score",
        "每个词元的向量 h_i → 一个起点分数和一个终点分数",
    ),
    "inside.heads.reading": (
        "**{label}** (config of `{hf_id}`, H = {h}): the base model has {base:,} parameters; a head adds "
        "{low:,}–{high:,} ({share:.3%} at most). Fine-tuning trains everything, but almost all of it starts pre-trained. "
        "Each count equals task.num_parameters() − task.base_model.num_parameters() of models built on the meta device.",
        "**{label}**（`{hf_id}` 的配置，H = {h}）：基础模型有 {base:,} 个参数；任务头新增 {low:,}–{high:,} 个（最多 {share:.3%}）。"
        "微调会训练全部参数，但几乎全部都从预训练权重开始。每个数都等于在 meta 设备上构建的模型的 "
        "task.num_parameters() − task.base_model.num_parameters()。",
    ),
    "inside.heads.words_note": (
        "The diagram shows words whole with the family's special tokens; the real model reads sub-word tokens.",
        "示意图以整词显示并加上该模型族的特殊词元；真实模型读取的是子词词元。",
    ),
    "error.no_bert_embeddings": (
        "{model} does not build its input the BERT way (token + segment + position).",
        "{model} 不是按 BERT 的方式（词 + 句段 + 位置）构造输入的。",
    ),
    "error.embeddings_too_long": (
        "The pair is {n} tokens long; this view draws at most {limit}.",
        "这对句子有 {n} 个词元；此视图最多显示 {limit} 个。",
    ),
    "error.unknown_config": ("Unknown configuration {name}. Choose one of: {known}.", "未知配置 {name}。可选：{known}。"),
    "error.bad_what_if_base": (
        '{name} is not BERT-shaped; take the "what if" sizes from one of: {known}.',
        "{name} 不是 BERT 结构；“假设”模型的尺寸请取自以下之一：{known}。",
    ),
    "error.nsp_one_sentence": (
        "Write at least two sentences in a row (end each with . ! ? or 。).",
        "请至少连续写两个句子（每句以 . ! ? 或 。结尾）。",
    ),
}
