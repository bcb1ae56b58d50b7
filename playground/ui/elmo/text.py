"""Strings of the ELMo tab (layer mix, the biLM made visible, out-of-vocabulary words)."""

STRINGS = {
    "elmo.tab": ("ELMo", "ELMo"),
    "kind.elmo": ("ELMo (char CNN + biLSTM LM)", "ELMo（字符 CNN + 双向 LSTM 语言模型）"),
    "avail.url_offline": (
        "its files are downloaded from AllenNLP's server, and this server works offline without a copy of them",
        "它的文件需要从 AllenNLP 的服务器下载，而此服务器处于离线模式且没有它的副本",
    ),
    "avail.url_unreachable": (
        "its files are downloaded from AllenNLP's server, which this server cannot reach right now",
        "它的文件需要从 AllenNLP 的服务器下载，而此服务器目前无法访问该服务器",
    ),
    "elmo.intro": (
        "ELMo reads characters, not a fixed word list: a **character CNN** gives every word a context-free vector "
        "(layer 0), then a **forward** and a **backward** LSTM language model (layers 1 and 2) add context. "
        "A task uses the mix ELMo = γ · Σ_j s_j · h_j with weights s = softmax(w): the sliders set the raw scores w. "
        "The bundled model is a **small classroom model** trained here on WordNet glosses: expect weak numbers.",
        "ELMo 读的是字符，而不是固定词表：**字符 CNN** 为每个词给出与上下文无关的向量（第 0 层），"
        "再由**前向**和**后向** LSTM 语言模型（第 1、2 层）加入上下文。下游任务使用混合 ELMo = γ · Σ_j s_j · h_j，"
        "其中权重 s = softmax(w)：滑块设置的是原始分数 w。内置模型是在此用 WordNet 释义训练的**小型教学模型**：数值会比较弱。",
    ),
    "elmo.model": ("ELMo model", "ELMo 模型"),
    "elmo.view": ("View", "视图"),
    "elmo.view.mix": ("Layer mix", "层混合"),
    "elmo.view.bilm": ("The biLM, each direction", "双向语言模型的两个方向"),
    "elmo.view.oov": ("Out-of-vocabulary words", "未登录词"),
    # mix
    "elmo.mix.hint": (
        "One word in several sentences (`sense | sentence` per line). Move the sliders: the mixed vectors move, "
        "with no new forward pass. The axes are fixed (PCA of all three layers' vectors together), so a move means "
        "the mix changed, not the axes.",
        "同一个词出现在多个句子中（每行 `词义 | 句子`）。拖动滑块，混合向量随之移动，无需重新前向计算。"
        "坐标轴是固定的（对三层向量一起做 PCA），所以点的移动表示混合变了，而不是坐标轴变了。",
    ),
    "elmo.mix.press": (
        "Press **Embed** to see the word's vectors in each sentence, layer by layer and mixed, on one map.",
        "按 **计算向量** 查看该词在每个句子中的向量：逐层的和混合后的，画在同一张图上。",
    ),
    "elmo.mix.word": ("Word", "词"),
    "elmo.mix.sentences": ("Sentences (sense | sentence)", "句子（词义 | 句子）"),
    "elmo.mix.s0": ("w₀ (layer 0: char CNN, no context)", "w₀（第 0 层：字符 CNN，无上下文）"),
    "elmo.mix.s1": ("w₁ (layer 1: first biLSTM)", "w₁（第 1 层：第一层双向 LSTM）"),
    "elmo.mix.s2": ("w₂ (layer 2: second biLSTM)", "w₂（第 2 层：第二层双向 LSTM）"),
    "elmo.mix.gamma": ("γ (scale)", "γ（缩放）"),
    "elmo.mix.preset": ("Preset weights", "预设权重"),
    "elmo.mix.preset.equal": ("equal", "平均"),
    "elmo.mix.preset.syntax": ("syntax-heavy (more layer 1)", "偏句法（多用第 1 层）"),
    "elmo.mix.preset.semantics": ("semantics-heavy (more layer 2)", "偏语义（多用第 2 层）"),
    "elmo.mix.preset.layer0": ("layer 0 only (static baseline)", "只用第 0 层（静态基线）"),
    "elmo.mix.preset.custom": ("your own weights", "自定义权重"),
    "elmo.mix.run": ("Embed", "计算向量"),
    "elmo.mix.weights": (
        "Normalised weights s = softmax(w): layer 0 **{w0:.2f}** · layer 1 **{w1:.2f}** · layer 2 **{w2:.2f}** · γ **{gamma:.2f}**",
        "归一化权重 s = softmax(w)：第 0 层 **{w0:.2f}** · 第 1 层 **{w1:.2f}** · 第 2 层 **{w2:.2f}** · γ **{gamma:.2f}**",
    ),
    "elmo.mix.sep": (
        "Sense separation (mean cosine within a sense − across senses; 0 = no separation): layer 0 {s0} · "
        "layer 1 {s1} · layer 2 {s2} · **this mix {mix}**.",
        "词义区分度（同义项内平均余弦 − 跨义项平均余弦；0 表示没有区分）：第 0 层 {s0} · 第 1 层 {s1} · "
        "第 2 层 {s2} · **当前混合 {mix}**。",
    ),
    "elmo.mix.one_label": (
        "All sentences carry one sense label, so there is no separation to measure: label them `sense | sentence`.",
        "所有句子只有一个词义标签，无法计算区分度：请按 `词义 | 句子` 标注。",
    ),
    "elmo.mix.changed": (
        "Since the previous weights, the mix's sense separation went from {before} to {after} ({verdict}).",
        "与上一次的权重相比，混合向量的词义区分度从 {before} 变为 {after}（{verdict}）。",
    ),
    "elmo.mix.up": ("the senses moved further apart", "两个词义分得更开了"),
    "elmo.mix.down": ("the senses moved closer together", "两个词义靠得更近了"),
    "elmo.mix.same": ("practically unchanged", "几乎没有变化"),
    "elmo.mix.best": (
        "Of the contextual layers, layer {layer} separates the senses of “{word}” more ({sep}). Layer 0 is not a "
        "contender: it is context-free (one vector per word whatever the sentence), so its {s0} is the tie value, "
        "the baseline the biLSTMs are measured against.",
        "在上下文层中，第 {layer} 层更能区分“{word}”的词义（{sep}）。第 0 层不参与比较：它与上下文无关（无论句子如何，"
        "每个词只有一个向量），所以它的 {s0} 是平局值，是衡量双向 LSTM 的基线。",
    ),
    "elmo.mix.best_none": (
        "Neither contextual layer separates the senses of “{word}” more than layer 0's tie value {s0} (layer 1 {s1}, "
        "layer 2 {s2}): layer 0 is context-free, so this is no separation at all, not a win for layer 0.",
        "两个上下文层对“{word}”词义的区分都不超过第 0 层的平局值 {s0}（第 1 层 {s1}，第 2 层 {s2}）：第 0 层与上下文无关，"
        "所以这表示完全没有区分，而不是第 0 层胜出。",
    ),
    "elmo.mix.weak": (
        "All separations are below 0.05: this small model barely tells the senses apart — the points of the two "
        "senses overlap whatever the weights.",
        "所有区分度都低于 0.05：这个小模型几乎分不清两个词义——无论权重如何，两组点都相互重叠。",
    ),
    "elmo.mix.unknown_word": (
        "“{word}” is not in the model's word list; its layer-0 vector comes from its letters alone.",
        "“{word}”不在模型的词表中；它的第 0 层向量仅来自字母。",
    ),
    "elmo.fig.mix_title": (
        "“{word}”: the mix (filled) and each layer alone (hollow), fixed axes",
        "“{word}”：混合向量（实心）与各层单独的向量（空心），坐标轴固定",
    ),
    "elmo.fig.layer": ("layer {k}", "第 {k} 层"),
    "elmo.fig.mix": ("mix", "混合"),
    "elmo.fig.layer0_one_point": (
        "layer 0: one point for all sentences (no context)",
        "第 0 层：所有句子重合为一个点（无上下文）",
    ),
    "elmo.fig.pc1": ("PC 1 (of all layers)", "主成分 1（所有层）"),
    "elmo.fig.pc2": ("PC 2 (of all layers)", "主成分 2（所有层）"),
    # biLM
    "elmo.bilm.hint": (
        "For each word: what the **forward** LM guessed from the words **before** it only, and what the **backward** "
        "LM guessed from the words **after** it only. Neither direction ever sees both sides at once — ELMo is "
        "“pseudo-bidirectional”: two one-sided LMs whose states are concatenated, unlike BERT, whose every layer "
        "reads both sides together.",
        "对每个词：**前向**语言模型只根据它**前面**的词做出的猜测，**后向**语言模型只根据它**后面**的词做出的猜测。"
        "两个方向都从不同时看到两边——ELMo 是“伪双向”的：两个单向语言模型的状态拼接在一起；而 BERT 的每一层都同时读取两边。",
    ),
    "elmo.bilm.press": (
        "Press **Predict** to see, word by word, what each direction guessed and how likely it found the actual word.",
        "按 **预测** 逐词查看每个方向的猜测，以及它给实际词的概率。",
    ),
    "elmo.bilm.sentence": ("Sentence", "句子"),
    "elmo.bilm.top_k": ("Guesses shown per direction", "每个方向显示的猜测数"),
    "elmo.bilm.run": ("Predict", "预测"),
    "elmo.bilm.no_softmax": (
        "{model} has no word softmax: AllenNLP published only the encoder (char CNN + LSTMs), not the output layer, "
        "so it cannot guess words. Choose the bundled small classroom model to see the biLM's guesses.",
        "{model} 没有词 softmax：AllenNLP 只发布了编码器（字符 CNN + LSTM），没有输出层，因此无法猜词。"
        "请选择内置的小型教学模型来查看双向语言模型的猜测。",
    ),
    "elmo.bilm.col_pos": ("#", "#"),
    "elmo.bilm.col_word": ("word", "词"),
    "elmo.bilm.col_fwd": ("forward LM: sees ← only the left", "前向 LM：只看到左边 ←"),
    "elmo.bilm.col_fwd_p": ("P(word) forward", "前向 P(该词)"),
    "elmo.bilm.col_bwd": ("backward LM: sees only the right →", "后向 LM：只看到右边 →"),
    "elmo.bilm.col_bwd_p": ("P(word) backward", "后向 P(该词)"),
    "elmo.bilm.unk": ("(unknown: P of <UNK>)", "（未登录：<UNK> 的概率）"),
    "elmo.bilm.reading": (
        "The forward LM gives the actual word a higher probability at {nf} of {n} positions, the backward LM at {nb}. "
        "Geometric-mean probability of the actual words: forward {gf}, backward {gb} (a uniform guess over the "
        "softmax's {v:,} rows, `<S>`, `</S>` and `<UNK>` among them, would give {u}). {unk}",
        "在 {n} 个位置中，前向 LM 在 {nf} 个位置给实际词更高的概率，后向 LM 在 {nb} 个位置。"
        "实际词概率的几何平均：前向 {gf}，后向 {gb}（在 softmax 的 {v:,} 行上均匀猜测为 {u}；"
        "其中包括 `<S>`、`</S>` 和 `<UNK>`）。{unk}",
    ),
    "elmo.bilm.unk_note": (
        "{k} word(s) are not in the vocabulary; for them the table shows the probability of `<UNK>`.",
        "有 {k} 个词不在词表中；表中给出的是 `<UNK>` 的概率。",
    ),
    "elmo.fig.bilm_title": ("Probability of the actual word, each direction", "每个方向给实际词的概率"),
    "elmo.fig.forward": ("forward (left context)", "前向（左侧上下文）"),
    "elmo.fig.backward": ("backward (right context)", "后向（右侧上下文）"),
    # OOV
    "elmo.oov.hint": (
        "Type made-up or misspelled words. ELMo builds every word's layer-0 vector from its letters, so it never "
        "runs out of vocabulary; GloVe looks words up in a fixed list and has nothing for a word it never saw.",
        "输入自造或拼错的词。ELMo 由字母构建每个词的第 0 层向量，因此永远不会遇到未登录词；"
        "GloVe 在固定词表中查词，对没见过的词没有向量。",
    ),
    "elmo.oov.press": (
        "Press **Look up** to see each word's ELMo vector, its nearest vocabulary words, and whether GloVe has it.",
        "按 **查询** 查看每个词的 ELMo 向量、与之最近的词表词，以及 GloVe 是否收录它。",
    ),
    "elmo.oov.words": ("Words (spaces or commas between)", "词（以空格或逗号分隔）"),
    "elmo.oov.run": ("Look up", "查询"),
    "elmo.oov.col_word": ("word", "词"),
    "elmo.oov.col_in_vocab": ("in ELMo's word list?", "在 ELMo 词表中？"),
    "elmo.oov.col_norm": ("ELMo layer-0 vector length", "ELMo 第 0 层向量长度"),
    "elmo.oov.col_nn": ("nearest ELMo vocabulary words (layer 0)", "最近的 ELMo 词表词（第 0 层）"),
    "elmo.oov.col_glove": ("GloVe", "GloVe"),
    "elmo.oov.glove_none": ("no vector (not in its list)", "没有向量（不在词表中）"),
    "elmo.oov.glove_nn": ("vector; nearest: {nn}", "有向量；最近：{nn}"),
    "elmo.oov.glove_missing": ("GloVe is not installed here", "此处未安装 GloVe"),
    "elmo.oov.yes": ("yes", "是"),
    "elmo.oov.no": ("no", "否"),
    "elmo.oov.no_vocab": (
        "{model} ships no word list, so there are no vocabulary neighbours to show.",
        "{model} 没有附带词表，因此无法显示词表近邻。",
    ),
    "elmo.oov.reading": (
        "ELMo gave all {n} word(s) a vector ({k} of them not in its word list); GloVe had a vector for {g}. "
        "{shared} of the {total} neighbours shown share at least three letters in a row with their word. {verdict}",
        "ELMo 为全部 {n} 个词给出了向量（其中 {k} 个不在其词表中）；GloVe 只有 {g} 个词有向量。"
        "所列 {total} 个近邻中有 {shared} 个与对应词有至少连续三个相同字母。{verdict}",
    ),
    "elmo.oov.spelling": (
        "Layer 0 is built from spelling: here most neighbours are look-alikes, not synonyms.",
        "第 0 层来自拼写：这里的近邻多是形近词，而非近义词。",
    ),
    "elmo.oov.not_spelling": (
        "Fewer than half do: spelling alone does not explain these neighbours (they are still context-free, "
        "and in a model this small most are not related in meaning either).",
        "不到一半如此：仅凭拼写无法解释这些近邻（它们仍与上下文无关；在这么小的模型中，多数在意义上也并不相关）。",
    ),
    "elmo.oov.centred": (
        "Neighbours by cosine after subtracting the average vocabulary vector (the char-CNN vectors share one large "
        "common direction).",
        "近邻按减去词表平均向量后的余弦计算（字符 CNN 的向量有一个很大的共同方向）。",
    ),
    "elmo.exports": ("Downloads (JSON)", "下载（JSON）"),
    # errors from the backend
    "error.elmo_word_missing": ("Sentence {n} does not contain the word {word}.", "第 {n} 句不包含词 {word}。"),
    "error.elmo_one_word": ("Give one word (no spaces).", "请输入一个词（不含空格）。"),
    "error.elmo_two_sentences": ("Give at least two sentences, one per line.", "请至少输入两个句子，每行一个。"),
    "error.elmo_too_many": ("At most {n} sentences.", "最多 {n} 个句子。"),
    "error.elmo_weights": ("Give three layer weights s_0, s_1, s_2.", "请给出三个层权重 s_0、s_1、s_2。"),
    "error.elmo_empty": ("Type a sentence.", "请输入一个句子。"),
    "error.elmo_empty_words": (
        "Type one or more words, separated by spaces or commas.",
        "请输入一个或多个词，以空格或逗号分隔。",
    ),
}
