"""Masking-strategies tab: every pre-training objective on the user's sentence."""

STRINGS = {
    "masking.tab": ("Masking strategies", "掩码策略"),
    "masking.intro": (
        "### How pre-training hides words\nType a sentence, pick a model (its real tokenizer is used) and an objective. "
        "The same seed always gives the same draw.",
        "### 预训练如何遮住词语\n输入一句话，选择模型（使用它真实的分词器）和预训练目标。相同的随机种子总是得到相同的结果。",
    ),
    "masking.text": ("Sentence", "句子"),
    "masking.text_info": (
        "Chinese words are found by the jieba segmenter for whole-word masking (Chinese BERT-wwm used LTP).",
        "整词掩码中的中文词语由 jieba 分词找出（中文 BERT-wwm 用的是 LTP）。",
    ),
    "masking.model": ("Tokenizer from model", "分词器来自模型"),
    "masking.strategy": ("Objective", "预训练目标"),
    "masking.seed": ("Seed", "随机种子"),
    "masking.settings": ("Settings", "设置"),
    "masking.p": ("Selection probability", "选中概率"),
    "masking.pm": ("Share replaced by the mask token", "替换为掩码符的比例"),
    "masking.pr": ("Share replaced by a random token", "替换为随机词的比例"),
    "masking.epochs": ("Epochs (dynamic masking)", "训练轮数（动态掩码）"),
    "masking.prefix": ("Prefix length in tokens (UniLM)", "前缀长度（词元数，UniLM）"),
    "masking.generator": ("ELECTRA generator", "ELECTRA 生成器"),
    "masking.gen_auto": ("automatic", "自动"),
    "masking.gen_uniform": ("uniform random tokens (no model)", "均匀随机词元（不用模型）"),
    "masking.gen_causal": ("causal LM filler: {label}", "因果语言模型填空：{label}"),
    "masking.run": ("Mask it", "开始掩码"),
    "masking.stats": ("Statistics", "统计"),
    "masking.draws": ("Draws", "抽样次数"),
    "masking.run_stats": ("Run N times", "运行 N 次"),
    "masking.json": ("Result (JSON)", "结果（JSON）"),
    "masking.exports": ("Exports", "导出"),
    "masking.s.bert": ("BERT MLM (static)", "BERT 掩码语言模型（静态）"),
    "masking.s.wwm": ("Whole-word masking", "整词掩码"),
    "masking.s.dynamic": ("RoBERTa dynamic masking", "RoBERTa 动态掩码"),
    "masking.s.span": ("SpanBERT span masking", "SpanBERT 片段掩码"),
    "masking.s.permutation": ("XLNet permutation LM", "XLNet 排列语言模型"),
    "masking.s.electra": ("ELECTRA replaced-token detection", "ELECTRA 替换词检测"),
    "masking.s.t5": ("T5 span corruption", "T5 片段破坏"),
    "masking.s.attention": ("Attention-mask families", "注意力掩码家族"),
    "masking.a.boundary": ("span boundary", "片段边界"),
    "masking.a.none": ("not selected", "未选中"),
    "masking.a.special": ("special token", "特殊词元"),
    "masking.a.mask": ("→ mask token", "→ 掩码符"),
    "masking.a.random": ("→ random token", "→ 随机词元"),
    "masking.a.kept": ("selected, kept", "选中但保持不变"),
    "masking.a.sentinel": ("dropped → sentinel", "删去 → 哨兵符"),
    "masking.a.predicted": ("predicted", "被预测"),
    "masking.a.context": ("context only", "仅作上下文"),
    "masking.a.replaced": ("replaced", "被替换"),
    "masking.a.original": ("original", "原词"),
    "masking.a.source": ("prefix (source)", "前缀（源）"),
    "masking.a.target": ("target", "目标"),
    "masking.a.pad": ("(no piece here)", "（此处无词元）"),
    "masking.row.tokens": ("tokens", "词元"),
    "masking.row.input": ("model input", "模型输入"),
    "masking.row.token": ("token-level", "按词元"),
    "masking.row.whole_word": ("whole-word", "整词"),
    "masking.row.static": ("static, epoch {n}", "静态，第 {n} 轮"),
    "masking.row.dynamic": ("dynamic, epoch {n}", "动态，第 {n} 轮"),
    "masking.grid_title": ("What happens to each token", "每个词元的命运"),
    "masking.placeholder": (
        "This tokenizer has **no mask token** (a causal LM never needed one): {mask} is a placeholder shown for teaching.",
        "该分词器**没有掩码符**（因果语言模型从不需要它）：{mask} 只是为教学显示的占位符。",
    ),
    "masking.truncated": ("Only the first {n} tokens are used.", "只使用前 {n} 个词元。"),
    "masking.labels": (
        "**Labels** (the tokens the loss is computed on, with position and id; every other position is -100): {labels}",
        "**标签**（计算损失的词元，附位置和 id；其余位置均为 -100）：{labels}",
    ),
    "masking.labels_none": ("none in this draw", "本次抽样没有"),
    "masking.input": ("**Model input**: {text}", "**模型输入**：{text}"),
    "masking.target": ("**Target**: {text}", "**目标**：{text}"),
    "masking.t5_placeholder": (
        "This tokenizer has no T5 sentinels: `<extra_id_0>`… are shown in T5's format (online, choose T5 small for its own).",
        "该分词器没有 T5 哨兵符：`<extra_id_0>`… 按 T5 格式显示（联网时可选 T5 small 使用其自带的哨兵符）。",
    ),
    "masking.spans": (
        "**Spans** (token positions; how many whole words each masks, and the length drawn for it from the geometric "
        "distribution): {spans}",
        "**片段**（词元位置；每个片段遮住几个完整的词，以及从几何分布中为它抽到的长度）：{spans}",
    ),
    "masking.span_item": (
        "positions {start}–{end}: whole words {words}, drawn length {drawn}",
        "位置 {start}–{end}：{words} 个词，抽到的长度 {drawn}",
    ),
    "masking.span_cut": (
        " (cut short: it stops at the sentence's end, at a word already masked, or once 15 % of the tokens are masked)",
        "（被截短：遇到句末、已被遮住的词，或遮住的词元已达 15% 时停止）",
    ),
    "masking.sbo": (
        "**Span boundary objective:** each masked token is also predicted from the two tokens just outside its span and its position in the span, e.g. {example}.",
        "**片段边界目标**：每个被遮住的词元还要仅凭片段外侧的两个边界词元及其在片段中的位置来预测，例如 {example}。",
    ),
    "masking.hint": (
        "Press **Mask it** to see what the chosen objective does to each token of your sentence.",
        "按 **开始掩码** 查看所选目标如何处理句子中的每个词元。",
    ),
    "masking.sbo_fig.title": (
        "Span boundary objective: y<sub>i</sub> = f(x<sub>s−1</sub>, x<sub>e+1</sub>, p<sub>i−s+1</sub>)",
        "片段边界目标：y<sub>i</sub> = f(x<sub>s−1</sub>, x<sub>e+1</sub>, p<sub>i−s+1</sub>)",
    ),
    "masking.sbo_fig.left": ("from x<sub>s−1</sub> (left boundary)", "来自 x<sub>s−1</sub>（左边界）"),
    "masking.sbo_fig.right": ("from x<sub>e+1</sub> (right boundary)", "来自 x<sub>e+1</sub>（右边界）"),
    "masking.sbo_fig.predict": ("predict", "预测"),
    "masking.order": (
        "**Factorisation order** (token, position below; the last ones are predicted): {order}",
        "**分解顺序**（词元，下标为位置；排在最后的被预测）：{order}",
    ),
    "masking.partial": (
        "**Partial prediction, K = {k}**: only the last 1/K of the order is predicted, ⌈{tokens}/{k}⌉ = {predicted} "
        "of the {tokens} real tokens (1/K = {share:.3f}; the XLNet paper uses K = 6 to 7).",
        "**部分预测，K = {k}**：只预测顺序中最后 1/K 的词元，即 {tokens} 个真实词元中的 ⌈{tokens}/{k}⌉ = {predicted} 个"
        "（1/K = {share:.3f}；XLNet 论文用 K = 6 到 7）。",
    ),
    "masking.generator_used": ("**Generator**: {name}", "**生成器**：{name}"),
    "masking.note.nothing_selected": (
        "⚠️ **Seed {seed} selected no token in this sentence.** Each of its {n} tokens is selected with probability "
        "{p}, so a draw selects nothing in about {chance} of seeds. Try another seed, or press **Run N times** "
        "to see the rates over many draws.",
        "⚠️ **种子 {seed} 在这句话里没有选中任何词元。** 它的 {n} 个词元各以 {p} 的概率被选中，所以约有 {chance} "
        "的种子一个也选不中。换一个种子，或按 **运行 N 次** 查看多次抽样的比率。",
    ),
    "masking.note.generator_kept_all": (
        "⚠️ **The generator replaced nothing in this draw.** At each of the {selected} masked position(s) it sampled "
        "the original token back, so every discriminator target below is *original*: a sampled token equal to the "
        "original counts as original, as in the ELECTRA paper. A good generator does this often on easy words; try "
        "another seed to see replacements.",
        "⚠️ **本次抽样中生成器没有替换任何词元。** 在 {selected} 个被遮住的位置上，它抽到的都是原来的词元，所以下面"
        "判别器的目标全是*原词*：与 ELECTRA 论文一致，抽到与原词相同的词元算作原词。好的生成器在容易的词上常常如此；"
        "换一个种子可以看到替换。",
    ),
    "masking.note.electra_none_masked": (
        "⚠️ **Seed {seed} masked no token in this sentence**, so the generator had nothing to replace and every "
        "discriminator target below is *original*. Each of its {n} tokens is masked with probability {p}, so about "
        "{chance} of seeds mask none. Try another seed.",
        "⚠️ **种子 {seed} 在这句话里没有遮住任何词元**，所以生成器无可替换，下面判别器的目标全是*原词*。它的 {n} 个"
        "词元各以 {p} 的概率被遮住，所以约有 {chance} 的种子一个也遮不住。换一个种子试试。",
    ),
    "masking.note.uniform_generator": (
        "No fill-mask model is available here, so replacements are uniform random vocabulary tokens — far easier to spot than a real generator's.",
        "此处没有可用的填空模型，替换词是从词表中均匀随机抽取的——比真实生成器的替换容易识别得多。",
    ),
    "masking.note.causal_generator": (
        "Generator: the bundled causal LM fills each masked word by whole-sentence rescoring (a stand-in for ELECTRA's small masked-LM generator); replacements are whole words, re-tokenized.",
        "生成器：内置因果语言模型通过整句重打分填写每个被遮住的词（代替 ELECTRA 的小型掩码语言模型生成器）；替换以整词为单位并重新分词。",
    ),
    "masking.disc": ("**Discriminator P(replaced)** ({model}): {probs}", "**判别器 P(被替换)**（{model}）：{probs}"),
    "masking.matrix_title": ("Row attends to column (blue = allowed)", "行关注列（蓝色 = 允许）"),
    "masking.matrix_title_ordered": (
        "Row attends to column (blue = allowed); rows and columns in the sampled factorisation order",
        "行关注列（蓝色 = 允许）；行与列按抽到的分解顺序排列",
    ),
    "masking.m.content": ("content stream", "内容流"),
    "masking.m.query": ("query stream", "查询流"),
    "masking.m.bidirectional": ("bidirectional (BERT)", "双向（BERT）"),
    "masking.m.causal": ("causal (GPT)", "因果（GPT）"),
    "masking.m.prefix": ("prefix (UniLM)", "前缀（UniLM）"),
    "masking.row.original": ("original", "原句"),
    "masking.note.segmentation": (
        "**Words** (jieba): {words}. Whole-word masking hides every character of a chosen word together, so no word is "
        "left partly visible; the token row above it may hide one character of a word and leave its neighbour. Chinese "
        "BERT-wwm segmented with LTP (the Language Technology Platform), which draws some boundaries differently; the "
        "idea is the same.",
        "**词语**（jieba 分词）：{words}。整词掩码把选中词语的所有字一起遮住，不会只露出半个词；上面的逐词元一行"
        "可能只遮住词中的一个字而留下相邻的字。中文 BERT-wwm 用 LTP（语言技术平台）分词，个别边界会不同，但思路相同。",
    ),
    "masking.note.unknown_tokens": (
        "⚠️ **{count} piece(s) of this sentence became the unknown token {token}**: {pieces}. "
        "This tokenizer cannot read them, so the model sees the same {token} for each of them, whatever they were; "
        "a model with a larger vocabulary reads them, such as the bundled multilingual e5-small or e5-mlm "
        "(250k pieces, Chinese included).",
        "⚠️ **这句话有 {count} 处变成了未知词元 {token}**：{pieces}。"
        "该分词器读不懂它们，无论原文是什么，模型看到的都是同一个 {token}；"
        "词表更大的模型能读懂它们，例如内置的多语言模型 e5-small 或 e5-mlm（25 万个词元，包括中文）。",
    ),
    "masking.rates_title": ("Empirical rates over {n} draws vs theory", "{n} 次抽样的经验比率与理论值"),
    "masking.empirical": ("empirical", "经验值"),
    "masking.theory": ("theory", "理论值"),
    "masking.realized": ("realised (cut by sentence end / budget)", "实际（受句尾/预算截断）"),
    "masking.span_length": ("span length (words)", "片段长度（词）"),
    "masking.position": ("token position", "词元位置"),
    "masking.stats_row": (
        "| {name} | {emp:.4f} | {theory} | ±{se:.4f} | {ok} |",
        "| {name} | {emp:.4f} | {theory} | ±{se:.4f} | {ok} |",
    ),
    "masking.stats_head": (
        "| rate | empirical | theory | std. error | within 4σ |\n|---|---|---|---|---|",
        "| 比率 | 经验值 | 理论值 | 标准误 | 在 4σ 内 |\n|---|---|---|---|---|",
    ),
    "masking.r.selected": ("selected / eligible tokens", "选中 / 可选词元"),
    "masking.r.share_mask": ("selected → mask token", "选中 → 掩码符"),
    "masking.r.share_random": ("selected → random token", "选中 → 随机词元"),
    "masking.r.share_kept": ("selected → unchanged", "选中 → 不变"),
    "masking.r.words_selected": ("words selected", "被选中的词"),
    "masking.r.words_split": (
        "words only partly masked (the tokenizer's own words; for Chinese, jieba's)",
        "只被部分遮住的词（按分词器自己的词；中文按 jieba 分词）",
    ),
    "masking.r.characters_split": (
        "characters only partly masked (pieces sharing a character)",
        "只被部分遮住的字符（共享同一字符的词元）",
    ),
    "masking.r.epochs_identical": ("two epochs with the same pattern", "两轮掩码完全相同"),
    "masking.r.coverage": ("tokens covered (theory: at least)", "覆盖的词元（理论：至少）"),
    "masking.r.mean_span": ("mean span length (fixed by this text's counts)", "平均片段长度（由本文本的计数决定）"),
    "masking.r.drawn_span_mean": ("mean drawn span length (Geo(0.2) clipped at 10)", "抽到的平均片段长度（Geo(0.2)，截断于 10）"),
    "masking.r.masked_span_mean": (
        "mean masked span length (theory: at most, budget cut only)",
        "实际遮住的平均片段长度（理论：至多，仅计预算截断）",
    ),
    "masking.r.first_span_mean": ("mean length of the first span (varies by draw)", "第一个片段的平均长度（随抽样变化）"),
    "masking.r.span_longer_than_10": ("spans longer than 10 words", "超过 10 个词的片段"),
    "masking.r.noise_fraction": ("noise fraction (fixed by this text's counts)", "噪声比例（由本文本的计数决定）"),
    "masking.facts.span": (
        "**Two means, on purpose.** SpanBERT draws span lengths from Geo(p = {p}) clipped at {max_len} words: their "
        "mean is {drawn:.2f} (the paper's 3.8). The spans actually masked are shorter: spans are drawn until the 15 % "
        "budget ({budget} of {tokens} tokens here) is met, and a span stops where the budget runs out, at the sentence "
        "end or at an already-masked word. The budget alone would give a masked mean of {clipped:.2f}; sentence ends "
        "and overlaps cut further, so that is an upper bound. A longer text (more budget) brings the masked mean "
        "closer to {drawn:.2f}.",
        "**有意给出两个平均值。** SpanBERT 从截断于 {max_len} 个词的 Geo(p = {p}) 抽取片段长度：平均为 {drawn:.2f}"
        "（论文的 3.8）。实际遮住的片段更短：抽取会持续到满足 15% 的预算（这里是 {tokens} 个词元中的 {budget} 个），"
        "而片段在预算用尽、句子结束或碰到已遮住的词时停下。仅预算截断时，遮住的平均长度为 {clipped:.2f}；"
        "句尾和重叠还会进一步截短，所以这是上界。文本越长（预算越多），遮住的平均长度越接近 {drawn:.2f}。",
    ),
    "masking.facts.t5": (
        "**The paper's parameters and what this text allows.** T5 corrupts 15 % of the tokens ({density}) in spans of "
        "mean length {mean_span:g}. Counts must be whole numbers: this text has {tokens} tokens, so every draw drops "
        "exactly {noise} tokens in {spans} span(s): noise fraction {noise}/{tokens} = {fraction:.3f} and mean span "
        "{noise}/{spans} = {mean:.3f}, the same in every draw (these two rows are arithmetic, not evidence of "
        "randomness). What the draws vary is where the spans fall and how the {noise} tokens split into {spans} "
        "span(s): {distinct} different masks over {draws} draws, and the span lengths below against the theory of a "
        "uniformly random split.",
        "**论文参数与本文本允许的取值。** T5 破坏 15% 的词元（{density}），片段平均长度为 {mean_span:g}。计数必须是整数："
        "本文本有 {tokens} 个词元，所以每次抽样恰好删去 {noise} 个词元、分成 {spans} 个片段：噪声比例 {noise}/{tokens} = "
        "{fraction:.3f}，平均片段长度 {noise}/{spans} = {mean:.3f}，每次都一样（这两行是算术，不是随机性的证据）。"
        "抽样真正改变的是片段的位置，以及 {noise} 个词元如何分成 {spans} 个片段：{draws} 次抽样中出现了 {distinct} 种"
        "不同的掩码；下图的片段长度与均匀随机划分的理论值对照。",
    ),
    "masking.facts.permutation": (
        "**Partial prediction, K = {k}.** XLNet predicts only the last 1/K of each factorisation order (the paper uses "
        "K = 6 to 7): here ⌈{tokens}/{k}⌉ = {predicted} of {tokens} tokens, 1/K = {share:.3f} of them.",
        "**部分预测，K = {k}。** XLNet 只预测每个分解顺序中最后 1/K 的词元（论文用 K = 6 到 7）："
        "这里是 {tokens} 个词元中的 ⌈{tokens}/{k}⌉ = {predicted} 个，1/K = {share:.3f}。",
    ),
    "masking.t5_counts": (
        "**T5's parameters**: 15 % noise, mean span 3 (the paper). This text's {tokens} tokens allow exactly {noise} "
        "noise tokens in {spans} span(s), in every draw; the seed moves only where the spans fall and how long each is.",
        "**T5 的参数**：15% 噪声，平均片段长度 3（论文）。本文本的 {tokens} 个词元每次都恰好允许 {noise} 个噪声词元、"
        "{spans} 个片段；种子只改变片段的位置和各自的长度。",
    ),
    "masking.t5_filled": (
        "**What this T5 writes for each sentinel** (greedy; the dropped span in brackets): {fills}",
        "**这个 T5 为每个哨兵写出的内容**（贪心解码；括号里是被删去的片段）：{fills}",
    ),
    "masking.t5_span_length": ("length of one span (tokens)", "单个片段的长度（词元）"),
    "masking.r.predicted": ("tokens predicted", "被预测的词元"),
    "masking.why.bert": (
        "**Why 80/10/10?** [MASK] never appears when the model is used, so always masking would teach it to care only about [MASK] positions. Random tokens force it to doubt every input token; keeping 10% unchanged ties the representation of the real word to its prediction.",
        "**为什么是 80/10/10？** 实际使用时不会出现 [MASK]；若总是替换成 [MASK]，模型只会关注这些位置。随机词迫使它怀疑每个输入词；保留 10% 不变则让真实词的表示与其预测相联系。",
    ),
    "masking.why.wwm": (
        "**Why whole words?** If `##bel` is hidden but `un` and `##ie` are visible, the piece is trivial to guess. Masking all pieces together makes the model predict a word from its context. (Whole-word masking in transformers uses the mask token for all of them.)",
        "**为什么整词？** 如果只遮住 `##bel` 而 `un`、`##ie` 可见，很容易猜出。整词一起遮住，模型必须依靠上下文预测整个词。（transformers 的整词掩码全部替换为掩码符。）",
    ),
    "masking.why.dynamic": (
        "**Why dynamic?** BERT masked its data once in preprocessing, so every epoch hid the same tokens. RoBERTa draws a new pattern each time the sentence is seen: more distinct training signals from the same text.",
        "**为什么动态？** BERT 在预处理时只掩码一次，每一轮遮住同样的词。RoBERTa 每次见到句子都重新抽样：同一文本提供更多不同的训练信号。",
    ),
    "masking.why.span": (
        "**Why spans?** Guessing one hidden word is often easy from its neighbours; hiding several consecutive words forces longer-range reasoning, and the boundary objective packs the span's content into its two edge tokens (useful for QA and coreference).",
        "**为什么用片段？** 单个被遮住的词往往能从邻词猜出；连续遮住多个词迫使模型进行更长距离的推理，边界目标则把片段内容压缩进两侧的边界词元（对问答和共指有用）。",
    ),
    "masking.why.permutation": (
        "**Why permutations?** An autoregressive model sees only the left context. Averaging over orders lets every token be predicted from context on both sides, without ever inserting an artificial [MASK]. The query stream knows the position to predict but not its token.",
        "**为什么用排列？** 自回归模型只能看到左侧上下文。对各种顺序求平均，让每个词都能从两侧上下文预测，而无需插入人工的 [MASK]。查询流知道要预测的位置，但不知道该位置的词。",
    ),
    "masking.why.electra": (
        "**Why replaced-token detection?** MLM learns from only 15% of positions. ELECTRA's discriminator gets a label for every token (original or replaced), so it learns from all of them — much more sample-efficient.",
        "**为什么做替换词检测？** 掩码语言模型只从 15% 的位置学习。ELECTRA 的判别器对每个词元都有标签（原词或被替换），因此从全部位置学习——样本效率高得多。",
    ),
    "masking.why.t5": (
        "**Why sentinels?** Each dropped span becomes one sentinel, so the input gets shorter and the target lists only the missing pieces: cheap to train, and the same text-to-text format as every other T5 task.",
        "**为什么用哨兵符？** 每个被删去的片段只换成一个哨兵符，输入变短，目标只列出缺失部分：训练代价低，且与 T5 的其他任务同为文本到文本格式。",
    ),
    "masking.why.attention": (
        "**Why different masks?** One Transformer, three objectives: bidirectional attention for understanding (BERT), causal for generation (GPT), and a prefix mask (UniLM) that reads the source fully and writes the target left to right.",
        "**为什么有不同的掩码？** 同一个 Transformer，三种目标：双向注意力用于理解（BERT），因果注意力用于生成（GPT），前缀掩码（UniLM）完整读入源文本并从左到右写出目标。",
    ),
    "masking.no_stats": (
        "Statistics are not offered for this objective: attention masks are deterministic, and ELECTRA would need a generator pass per draw.",
        "此目标不提供统计：注意力掩码是确定的，而 ELECTRA 每次抽样都需要运行一次生成器。",
    ),
    "error.masking_empty": (
        "Nothing to mask: the sentence has no tokens besides special ones.",
        "没有可掩码的内容：句子里除了特殊词元外没有词元。",
    ),
    "error.masking_split": (
        "The mask-token and random-token shares add up to more than 100%.",
        "掩码符与随机词的比例之和超过了 100%。",
    ),
    "error.masking_t5_short": ("T5 span corruption needs at least two tokens.", "T5 片段破坏至少需要两个词元。"),
    "error.masking_no_stats": (
        "No statistics for {strategy}: it is deterministic or needs a model pass per draw.",
        "{strategy} 不提供统计：它是确定的，或每次抽样都需要运行模型。",
    ),
    "error.masking_generator_no_mask": (
        "This generator has no mask token; choose a masked LM.",
        "该生成器没有掩码符，请选择掩码语言模型。",
    ),
    "error.masking_generator": (
        "Unknown generator {generator!r}: use auto, masked:<key>, causal:<key> or uniform.",
        "未知的生成器 {generator!r}：请使用 auto、masked:<key>、causal:<key> 或 uniform。",
    ),
}
