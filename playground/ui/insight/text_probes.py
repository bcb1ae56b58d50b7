"""Strings of the probes view ("Look inside a prediction" tab): its figure, its reading, its options."""

STRINGS = {
    "insight.view.probes": ("Probes: syntax vs semantics per layer", "探针：各层的句法与语义"),
    "insight.probe_model": ("Probed model", "被探测的模型"),
    "insight.probe_lang": ("Probe data", "探针数据"),
    "insight.probe_lang.en": ("English (WordNet examples)", "英文（WordNet 例句）"),
    "insight.probe_lang.zh": ("Chinese (HSK sentences + polysemy presets)", "中文（HSK 句子 + 多义词预设）"),
    "insight.probes.table": (
        "| layer | POS accuracy % | POS control % | POS selectivity | sense accuracy % | sense control % | sense selectivity |",
        "| 层 | 词性准确率 % | 词性控制 % | 词性选择性 | 词义准确率 % | 词义控制 % | 词义选择性 |",
    ),
    "error.probes_not_english": (
        "{model} was not trained on English text; the English probes run on: {models}.",
        "{model} 没有在英文文本上训练过；英文探针只在这些模型上运行：{models}。",
    ),
    "error.probes_not_chinese": (
        "{model} was not trained on Chinese text; the Chinese probes run on: {models}.",
        "{model} 没有在中文文本上训练过；中文探针只在这些模型上运行：{models}。",
    ),
    "error.probes_not_shipped": (
        "No probes are shipped for {model}; they are for: {models}.",
        "没有为 {model} 预先计算的探针；有探针的模型：{models}。",
    ),
    "error.probes_not_computed": (
        "The {lang} probes of {model} have not been computed here (python scripts/probes.py).",
        "这里还没有计算 {model} 的 {lang} 探针（python scripts/probes.py）。",
    ),
    "insight.probes.title": ("{model}: what a linear probe reads from each layer", "{model}：线性探针从每一层读出了什么"),
    "insight.probes.accuracy": ("Held-out accuracy (dashed: control task)", "留出集准确率（虚线：控制任务）"),
    "insight.probes.selectivity": ("Selectivity = accuracy − control", "选择性 = 准确率 − 控制任务准确率"),
    "insight.probes.points": ("points", "百分点"),
    "insight.probes.layer": ("Layer", "层"),
    "insight.probes.hover": ("layer %{x}: %{y:.1f}", "第 %{x} 层：%{y:.1f}"),
    "insight.probes.pos": ("part of speech", "词性"),
    "insight.probes.sense": ("word sense", "词义"),
    "insight.probes.pos_control": ("part of speech: control", "词性：控制任务"),
    "insight.probes.sense_control": ("word sense: control", "词义：控制任务"),
    "insight.probes.alone": ("word sense from the word alone", "只看词本身猜词义"),
    "insight.probes.data": (
        "**{model}**, probes trained on {pos_train} and tested on {pos_test} held-out tokens for part of speech "
        "({pos_classes} tags), {sense_test} tokens ({sense_split}) for word sense ({sense_classes} senses). Data: "
        "{source}. Probe: {probe}; the probes took {seconds} s to train.",
        "**{model}**：词性探针在 {pos_train} 个词元上训练、在 {pos_test} 个留出词元上测试（{pos_classes} 个词性）；"
        "词义探针测试 {sense_test} 个词元（{sense_split}，{sense_classes} 个义项）。数据：{source}。探针：{probe}；"
        "训练全部探针用时 {seconds} 秒。",
    ),
    "insight.probes.split.fixed": ("a fixed held-out set", "固定留出集"),
    "insight.probes.split.leave-one-out": ("each held out once, leave-one-out", "留一法，每个词元各留出一次"),
    "insight.probes.source.en": (
        "WordNet 3.0's example sentences, each labelled with its headword's synset and part of speech",
        "WordNet 3.0 的例句，中心词标注其同义词集（词义）和词性",
    ),
    "insight.probes.source.zh": (
        "HSK sentences tagged by jieba (part of speech) and the 苹果 / 打 / 花 polysemy presets (sense)",
        "HSK 句子经 jieba 标注词性；词义来自 苹果 / 打 / 花 三个多义词预设",
    ),
    "insight.probes.layer_n": ("layer {n}", "第 {n} 层"),
    "insight.probes.layer_named": ("the {n}", "{n}"),
    "insight.probes.peak": (
        "**{task}**: best at {name} ({acc} %); within noise of that from {first} on. Most selective: "
        "{selective} ({selectivity} points above its control task).",
        "**{task}**：{name}最好（{acc}%）；从{first}起已在误差范围内达到该水平。选择性最高：{selective}"
        "（比控制任务高 {selectivity} 个百分点）。",
    ),
    "insight.probes.order.holds": (
        "**Syntax low, semantics high: holds here.** Part of speech reaches its best at {pos}, word sense only at {sense}.",
        "**“低层句法、高层语义”：在这里成立。** 词性在{pos}就达到最好水平，词义要到{sense}。",
    ),
    "insight.probes.order.reversed": (
        "**Syntax low, semantics high: not here.** Word sense reaches its best at {sense}, before part of speech ({pos}).",
        "**“低层句法、高层语义”：在这里不成立。** 词义在{sense}就达到最好水平，早于词性（{pos}）。",
    ),
    "insight.probes.order.same": (
        "**Syntax low, semantics high: cannot be told here.** Both reach their best at {pos}, within the noise "
        "of this many tokens.",
        "**“低层句法、高层语义”：这里分辨不出。** 在这么多词元的误差范围内，两者都在{pos}达到最好水平。",
    ),
    "insight.probes.context.yes": (
        "Context carries the sense: at {name} the sense probe gets {acc} %, {gain} points above guessing from "
        "the word alone ({alone} %).",
        "上下文带来了词义：{name}的词义探针达到 {acc}%，比只看词本身猜（{alone}%）高 {gain} 个百分点。",
    ),
    "insight.probes.context.no": (
        "No layer's sense probe beats guessing from the word alone ({alone} %) by more than the noise: these vectors "
        "show no sense the word itself does not give.",
        "没有哪一层的词义探针比只看词本身猜（{alone}%）高出误差范围：这些向量没有显示出词本身之外的词义信息。",
    ),
    "insight.probes.verdict.agrees": ("as the paper found", "与论文一致"),
    "insight.probes.verdict.disagrees": ("the other way round from the paper", "与论文相反"),
    "insight.probes.verdict.too_close": ("too close to call on this many tokens", "在这么多词元上差距太小，无法判断"),
    "insight.probes.peters_pos": (
        "Peters et al. (2018) found ELMo's first biLSTM layer better for part of speech than its second (97.3 vs "
        "96.8 % on the Penn Treebank); here layer 1 {one} % vs layer 2 {two} %: {verdict}.",
        "Peters 等（2018）发现 ELMo 第一层 biLSTM 的词性标注好于第二层（Penn Treebank 上 97.3% 对 96.8%）；"
        "这里第 1 层 {one}%，第 2 层 {two}%：{verdict}。",
    ),
    "insight.probes.peters_sense": (
        "They found the second layer better for word sense (F1 69.0 vs 67.4); here layer 1 {one} % vs layer 2 "
        "{two} %: {verdict}.",
        "他们发现第二层的词义消歧更好（F1 69.0 对 67.4）；这里第 1 层 {one}%，第 2 层 {two}%：{verdict}。",
    ),
    "insight.probes.hewitt_liang": (
        "Hewitt & Liang (2019) found ELMo's second layer's part-of-speech probes more selective than the first's "
        "(though less accurate); here selectivity layer 1 {one} vs layer 2 {two} points: {verdict}.",
        "Hewitt 和 Liang（2019）发现 ELMo 第二层的词性探针比第一层更有选择性（尽管准确率略低）；"
        "这里选择性第 1 层 {one}、第 2 层 {two} 个百分点：{verdict}。",
    ),
    "insight.probes.papers_elmo_only": (
        "The papers compared ELMo's two biLSTM layers; this model has {layers} layers (embeddings included), so the "
        "comparison is the curve itself: where each label peaks, and how selective each layer is.",
        "论文比较的是 ELMo 的两层 biLSTM；本模型有 {layers} 层（含嵌入层），所以比较的就是曲线本身："
        "每种标签在哪一层达到峰值、每层的选择性有多高。",
    ),
    "insight.probes.few": (
        "Only {n} tokens for {task} ({classes} classes): two layers less than about {width} points apart cannot be "
        "told apart. This probe can show whether the sense is readable at all, not which layer reads it best.",
        "{task}只有 {n} 个词元（{classes} 类）：相差不到约 {width} 个百分点的两层无法区分。"
        "这个探针只能说明词义能不能读出来，说明不了哪一层读得最好。",
    ),
    "insight.probes.seen_text": (
        "This ELMo was trained on WordNet's glosses and examples, these sentences included: it has read them (never "
        "their labels), so its numbers here are not those of unseen text.",
        "这个 ELMo 就是在 WordNet 的释义和例句上训练的，包括这些句子：它读过这些句子（但从没见过标签），"
        "所以这里的数字不等于在没见过的文本上的表现。",
    ),
    "insight.probes.silver": (
        "Chinese part-of-speech tags are jieba's guesses (silver), not a treebank's: the probe learns to copy jieba.",
        "中文词性是 jieba 的自动标注（银标准），不是树库人工标注：探针学的是模仿 jieba。",
    ),
    "insight.probes.control": (
        "Control tasks (Hewitt & Liang 2019): for part of speech every word gets one random tag; for sense each "
        "word's own senses are dealt out at random among its tokens. A probe can fit those only by memorising "
        "words, so a high control accuracy means the probe, not the layer, did the work.",
        "控制任务（Hewitt 和 Liang 2019）：词性任务给每个词随机指定一个词性；词义任务把每个词自己的义项随机分给它的各个词元。"
        "探针只能靠记住词来拟合这些标签，所以控制任务准确率高，说明是探针而不是这一层做了工作。",
    ),
}
