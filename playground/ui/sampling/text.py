"""Sampling tab strings."""

STRINGS = {
    "sampling.tab": ("Sampling", "采样"),
    "sampling.intro": (
        "A GPT-style model gives a probability to every possible next token; generation **draws** one and repeats. "
        "**Temperature** sharpens (< 1) or flattens (> 1) the distribution, **top-k** keeps only the k most probable tokens, "
        "**top-p** keeps the smallest set whose probabilities add up to p. Temperature 0 is greedy: always the most probable token. "
        "The same seed gives the same text.",
        "GPT 式模型给每个可能的下一个词元一个概率；生成就是**抽取**一个，然后重复。"
        "**温度**让分布更尖锐（< 1）或更平坦（> 1），**top-k** 只保留概率最高的 k 个词元，"
        "**top-p** 保留概率之和达到 p 的最小集合。温度 0 即贪心：总是选概率最高的词元。相同的随机种子给出相同的文本。",
    ),
    "sampling.prompt": ("Prompt", "提示词"),
    "sampling.prompt_info": ("The model continues this text.", "模型会接着这段文字往下写。"),
    "sampling.temperature": ("Temperature", "温度"),
    "sampling.temperature_info": ("0 = greedy (argmax) … 2 = very random", "0 = 贪心（取最大）… 2 = 非常随机"),
    "sampling.top_k_info": ("Keep the k most probable tokens; 0 = off", "只保留概率最高的 k 个词元；0 = 关闭"),
    "sampling.top_p": ("Top-p (nucleus)", "Top-p（核采样）"),
    "sampling.top_p_info": (
        "Keep the smallest set reaching this probability; 1 = off",
        "保留概率之和达到此值的最小集合；1 = 关闭",
    ),
    "sampling.max_new": ("Max new tokens", "最多新词元数"),
    "sampling.samples": ("Number of samples", "样本数"),
    "sampling.next_button": ("Show next-token distribution", "显示下一个词元的分布"),
    "sampling.generate_button": ("Generate", "生成"),
    "sampling.hint": (
        "Press **Show next-token distribution** to see how temperature, top-k and top-p reshape the model's next-token "
        "probabilities, or **Generate** to sample text.",
        "按 **显示下一个词元的分布** 查看温度、top-k 和 top-p 如何改变模型下一个词元的概率，或按 **生成** 采样文本。",
    ),
    "sampling.next_header": (
        "### Next token: how each setting reshapes the distribution",
        "### 下一个词元：每个设置如何改变分布",
    ),
    "sampling.generate_header": (
        "### Generated text, coloured by the probability of each chosen token",
        "### 生成的文本（按所选词元的概率着色）",
    ),
    "sampling.compare_header": ("### Temperature comparison", "### 温度对比"),
    "sampling.compare_info": (
        "The same prompt and the same seed at three temperatures: the distribution each one samples from, and one continuation each.",
        "相同的提示词与随机种子，在三个温度下：各自采样所用的分布，以及各一段续写。",
    ),
    "sampling.compare_button": ("Compare temperatures", "对比温度"),
    "sampling.t1": ("Temperature A", "温度 A"),
    "sampling.t2": ("Temperature B", "温度 B"),
    "sampling.t3": ("Temperature C", "温度 C"),
    "sampling.step_header": ("### Step by step", "### 逐步生成"),
    "sampling.step_info": (
        "Each click draws one token (the model reuses its key/value cache, so a step costs one token). "
        "The bars show the distribution it was drawn from; the drawn token is red. "
        "You may change temperature, top-k and top-p between steps; a new prompt, model or seed starts again.",
        "每点一次抽取一个词元（模型复用键/值缓存，每步只计算一个词元）。"
        "柱状图是它被抽取时的分布，红色为抽中的词元。步骤之间可以修改温度、top-k 和 top-p；更换提示词、模型或种子会重新开始。",
    ),
    "sampling.step_button": ("Next token", "下一个词元"),
    "sampling.restart_button": ("Start again", "重新开始"),
    "sampling.step_status": (
        "Step {step}: drew **{token}** — rank {rank} before sampling, probability {p:.1%} in the distribution it was drawn from.",
        "第 {step} 步：抽中 **{token}**——采样前排第 {rank}，在其抽取分布中的概率为 {p:.1%}。",
    ),
    "sampling.step_done": (
        "Finished: the end-of-text token or the token limit was reached. Press “Start again”.",
        "已结束：遇到文本结束词元或达到词元上限。请点“重新开始”。",
    ),
    "sampling.exports": ("Downloads (JSON, HTML)", "下载（JSON、HTML）"),
    "sampling.prob_axis": ("probability", "概率"),
    "sampling.stage.raw": ("Raw softmax", "原始 softmax"),
    "sampling.stage.temperature": ("After temperature {t:g}", "温度 {t:g} 之后"),
    "sampling.stage.top_k": ("After top-k {k}", "top-k {k} 之后"),
    "sampling.stage.top_k_off": ("Top-k off", "top-k 关闭"),
    "sampling.stage.top_p": ("After top-p {p:g}", "top-p {p:g} 之后"),
    "sampling.stage.top_p_off": ("Top-p off", "top-p 关闭"),
    "sampling.stage.stats": ("H = {h:.2f} bits · {n} tokens", "熵 H = {h:.2f} 比特 · {n} 个词元"),
    "sampling.compare_title": ("T = {t:g}", "T = {t:g}"),
    "sampling.summary": (
        "Entropy of the distribution drawn from: **{h:.2f} bits** (raw: {raw:.2f} bits). "
        "Tokens left to draw from (nucleus): **{n}** of {vocab}. Grey bars with × are filtered out.",
        "抽取所用分布的熵：**{h:.2f} 比特**（原始：{raw:.2f} 比特）。可抽取的词元（核）：**{n}** / {vocab}。带 × 的灰色柱已被过滤。",
    ),
    "sampling.greedy_note": (
        "Temperature 0 is greedy: the most probable token always wins; top-k and top-p do not matter.",
        "温度 0 即贪心：总是选概率最高的词元，top-k 和 top-p 不起作用。",
    ),
    "sampling.sample_label": ("Sample {n}:", "样本 {n}："),
    "sampling.hover": (
        "p = {p} (before sampling settings: {raw}, rank {rank})\nmost probable: {alternatives}",
        "p = {p}（采样设置之前：{raw}，排第 {rank}）\n最可能的：{alternatives}",
    ),
    "sampling.legend": ("Probability of the chosen token:", "所选词元的概率："),
    "sampling.ended": ("end of text", "文本结束"),
    "sampling.no_chinese": (  # after common.not_chinese
        "a Chinese prompt gets poor continuations. "
        "Chinese needs GPT-2 Chinese (uer/gpt2-chinese-cluecorpussmall), which loads only with Hugging Face Hub access, "
        "or, offline, the small classroom GPT trained here (gpt-zh), which reads Chinese characters.",
        "中文提示词的续写效果很差。中文需要 GPT-2 Chinese（uer/gpt2-chinese-cluecorpussmall），它只能在可访问 Hugging Face Hub 时加载；"
        "离线时可选在此训练的小型课堂 GPT（gpt-zh），它按汉字读写。",
    ),
    "sampling.measured": (
        "This model is small ({params:.1f} M parameters, trained on {tokens:.1f} M tokens): on everyday sentences it never "
        "saw (HSK, held out) its perplexity is **{ppl:.0f}** per character, against {bigram:.0f} for a bigram model and "
        "{unigram:.0f} for character frequencies alone. Its characters and their probabilities are real; expect "
        "sentences that rarely make sense.",
        "该模型很小（{params:.1f} M 参数，训练文本 {tokens:.1f} M 词元）：在它没见过的日常句子（HSK 保留集）上，"
        "每个汉字的困惑度为 **{ppl:.0f}**，二元语法模型为 {bigram:.0f}，仅用字频则为 {unigram:.0f}。"
        "汉字及其概率是真实的，但生成的句子很少通顺。",
    ),
    "sampling.no_model": ("No causal language model is available here.", "此处没有可用的因果语言模型。"),
    "error.input_temperature_tiny": (
        "{name} must be 0 (greedy) or from {low} to {high}: a smaller temperature overflows the scores "
        "(0 is its limit, the greedy choice).",
        "{name} 必须是 0（贪心）或 {low} 到 {high} 之间的数：更小的温度会让分数溢出（它的极限 0 就是贪心选择）。",
    ),
    "error.sampling_budget": (
        "This asks for {total} tokens in all (max new tokens × samples{times}); one request may draw at most {max}.",
        "这次请求共需 {total} 个词元（最多新词元数 × 样本数{times}）；每次请求最多生成 {max} 个。",
    ),
    "error.sampling_time_limit": (
        "Stopped after {s} s: the server is busy. Ask for fewer tokens or samples, or try again in a moment.",
        "已在 {s} 秒后停止：服务器繁忙。请减少词元数或样本数，或稍后再试。",
    ),
    "error.sampling_empty_prompt": ("Type a prompt for the model to continue.", "请输入让模型续写的提示词。"),
    "error.sampling_too_long": (
        "Prompt ({n} tokens) plus new tokens ({new}) exceeds the model's {limit} positions.",
        "提示词（{n} 个词元）加新词元（{new} 个）超过了模型的 {limit} 个位置。",
    ),
}
