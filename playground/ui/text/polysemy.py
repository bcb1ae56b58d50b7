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
    "polysemy.preset.apple": ("apple (fruit / company)", "apple（水果 / 公司）"),
    "polysemy.preset.run": ("run (verb / noun)", "run（动词 / 名词）"),
    "polysemy.preset.bank-repeated": ("bank twice per sentence, [[marked]]", "每句两个 bank，用 [[标记]] 指定"),
    "polysemy.preset.yinhang": ("银行 (存钱 / 散步) — needs a Chinese model", "银行（存钱 / 散步）——需要中文模型"),
    "polysemy.preset.pingguo": ("苹果 (fruit / phone) — needs a Chinese model", "苹果（水果 / 手机）——需要中文模型"),
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
    "polysemy.layer_info": ("0 = embeddings; the curve below always covers all layers", "0 = 嵌入层；下方曲线始终覆盖所有层"),
    "polysemy.layer_last": ("last layer", "最后一层"),
    "polysemy.pooling": ("Word split into pieces: use", "词被切成多个子词时取"),
    "polysemy.pooling_mean": ("mean of the pieces", "各子词的平均"),
    "polysemy.pooling_first": ("first piece", "第一个子词"),
    "polysemy.projection": ("Projection", "降维方法"),
    "polysemy.pca": ("PCA", "PCA"),
    "polysemy.tsne": ("t-SNE (5+ sentences)", "t-SNE（至少 5 句）"),
    "polysemy.dims": ("Dimensions", "维数"),
    "polysemy.run": ("Compare", "比较"),
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
    "polysemy.exports": (
        "Vectors and scores (CSV), figures (HTML), everything (JSON)",
        "向量与得分（CSV）、图（HTML）、全部（JSON）",
    ),
    "polysemy.api_json": ("Result as JSON (what the API returns)", "JSON 结果（API 返回的内容）"),
    "polysemy.read_static": (
        "{model}: one vector for every sentence, so it cannot separate the senses, by construction.",
        "{model}：每个句子都是同一个向量，因此从原理上就无法区分词义。",
    ),
    "polysemy.read_from": (
        "{model} separates the senses from layer {layer} on (nearest-neighbour accuracy ≥ 90%).",
        "{model} 从第 {layer} 层起区分开了词义（最近邻准确率 ≥ 90%）。",
    ),
    "polysemy.read_first": (" (It first reached 90% at layer {layer}.)", "（第 {layer} 层首次达到 90%。）"),
    "polysemy.read_never": (
        "{model} does not cleanly separate them here (best nearest-neighbour accuracy {acc:.0%}, layer {layer}).",
        "{model} 在这里没有清楚地区分词义（最近邻准确率最高 {acc:.0%}，第 {layer} 层）。",
    ),
    "polysemy.read_causal": (
        "{model} reads left to right only: in “the bank of the river” the vector of “bank” cannot know about the river.",
        "{model} 只从左往右读：在 “the bank of the river” 中，“bank” 的向量看不到后面的 river。",
    ),
    "polysemy.read_no_labels": (
        "Add sense labels (“label | sentence”, at least two senses) to get scores.",
        "请添加词义标签（“标签 | 句子”，至少两种词义）才能计算得分。",
    ),
    "polysemy.missing": (
        "The word was not found in sentence(s) {rows}; they are left out.",
        "在第 {rows} 句中没有找到该词，已略去。",
    ),
    "polysemy.note": ("{model}: {note}", "{model}：{note}"),
    "polysemy.note.no_piece": ("{n} sentence(s) had no piece at the word", "{n} 个句子中没有词元覆盖该词"),
    "polysemy.note.not_in_vocabulary": ("'{word}' is not in the {model} vocabulary", "“{word}”不在 {model} 的词表中"),
    "polysemy.zh_needs_model": (
        "Chinese needs a Chinese-capable model such as **BERT base Chinese** (`bert-chinese`), which loads from the Hugging Face "
        "Hub. The bundled offline models (MiniLM, SmolLM2, GloVe) are English-only: they will run, but their vectors for Chinese "
        "characters mean little.",
        "中文需要能处理中文的模型，例如 **BERT base Chinese**（`bert-chinese`），它需要从 Hugging Face Hub 下载。"
        "离线内置的模型（MiniLM、SmolLM2、GloVe）只懂英文：可以运行，但它们对汉字给出的向量意义不大。",
    ),
    "polysemy.not_chinese": (
        "{models} not trained on Chinese: read these vectors with care.",
        "{models} 没有用中文训练，这些向量仅供参考。",
    ),
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
    "error.polysemy_options": (
        "Options: pooling {pooling}, projection {projection}, dims 2 or 3.",
        "可选项：子词合并 {pooling}，降维 {projection}，维数 2 或 3。",
    ),
    "error.polysemy_no_models": ("Choose at least one model.", "请至少选择一个模型。"),
    "error.polysemy_kind": ("{model} gives no word vectors to compare.", "{model} 不提供可比较的词向量。"),
    "error.polysemy_layer": (
        "Layer must be 'last' or a number from 0; got {layer!r}.",
        "层必须是 'last' 或从 0 开始的数字；现在是 {layer!r}。",
    ),
}
