"""Strings of the "Text to text (T5)" tab: the page, its presets, and what its script writes (assets/t5_view.js)."""

STRINGS = {
    "t5.tab": ("Text to text (T5)", "文本到文本（T5）"),
    "t5.intro": (
        "T5 casts every task as text in, text out: a prefix names the task (`translate English to German:`, "
        "`sst2 sentence:`, `summarize:`) and the answer is written as text. It is an **encoder-decoder**: the encoder "
        "reads the whole input once, in both directions; the decoder then writes the answer **one token per step**, "
        "looking at what it has written so far (masked, causal self-attention) and back at the encoder's output "
        "(**cross-attention**). Run a text, then click a step: you see the distribution the decoder wrote (the same "
        "temperature / top-k / top-p stages as the Sampling tab), the token chosen, and where that step looked in the "
        "source. The switch below shows the model's three kinds of attention from the same run.",
        "T5 把每个任务都写成“文本进、文本出”：用前缀说明任务（`translate English to German:`、`sst2 sentence:`、"
        "`summarize:`），答案也写成文本。它是**编码器-解码器**：编码器一次读完整个输入（双向）；解码器再**每步写一个词元**，"
        "既看自己已写的部分（带掩码的因果自注意力），也回看编码器的输出（**交叉注意力**）。运行一段文本，再点击某一步："
        "可以看到解码器写出的分布（与“采样”页相同的温度 / top-k / top-p 各阶段）、选中的词元，以及这一步在源文本中看向哪里。"
        "下面的开关用同一次运行展示模型的三种注意力。",
    ),
    "t5.hint": (
        "Press **Run** to watch the decoder write its answer one token at a time.",
        "按 **运行**，看解码器一个词元一个词元地写出答案。",
    ),
    "t5.text": ("Input text (with its task prefix)", "输入文本（含任务前缀）"),
    "t5.text_info": (
        "t5-small knows its training prefixes: translate English to German/French/Romanian:, summarize:, sst2 sentence:, "
        "cola sentence:. The classroom T5 knows translate Chinese to English: and translate English to Chinese:.",
        "t5-small 认识它训练时的前缀：translate English to German/French/Romanian:、summarize:、sst2 sentence:、"
        "cola sentence:。课堂 T5 认识 translate Chinese to English: 和 translate English to Chinese:。",
    ),
    "t5.model": ("Model", "模型"),
    "t5.max_new_tokens": ("Max new tokens", "最多生成词元数"),
    "t5.temperature": ("Temperature (0 = greedy)", "温度（0 = 贪心）"),
    "t5.top_k": ("Top-k (0 = off)", "Top-k（0 = 关闭）"),
    "t5.top_p": ("Top-p (1 = off)", "Top-p（1 = 关闭）"),
    "t5.seed": ("Seed", "随机种子"),
    "t5.run": ("Run", "运行"),
    "t5.presets": ("The course's examples", "课程中的例子"),
    "t5.files": ("The run as JSON", "本次运行（JSON）"),
    "t5.info": (
        "{provenance} · encoder {enc} layers, decoder {dec} layers × {heads} heads · {steps} decoder steps in {seconds} s",
        "{provenance} · 编码器 {enc} 层，解码器 {dec} 层 × {heads} 个头 · 解码 {steps} 步，用时 {seconds} 秒",
    ),
    "t5.not_finished": (
        "The decoder had not written </s> when max new tokens ran out: the answer may be cut short.",
        "达到最多生成词元数时解码器还没写出 </s>：答案可能被截断。",
    ),
    "error.t5_empty_text": (
        "Type a text for the model to read (e.g. translate English to German: That is good.).",
        "请输入要让模型读的文本（例如 translate English to German: That is good.）。",
    ),
    "error.t5_too_long": ("The text has {n} tokens; this view reads at most {limit}.", "这段文本有 {n} 个词元；本视图最多读取 {limit} 个。"),
    "error.t5_no_model": (
        "No encoder-decoder model can load here: “Models not available here” below says why for each.",
        "这里无法加载任何编码器-解码器模型：下方“此处不可用的模型”列出了各自的原因。",
    ),
    # what the page's own script writes (assets/t5_view.js); {…} are filled there
    "t5.ui.source": ("Source (what the encoder read)", "源文本（编码器读到的）"),
    "t5.ui.output": ("Output, one decoder step per token: click a step", "输出：每个词元是解码器的一步，点击某一步"),
    "t5.ui.step": ("Step {step} of {steps}", "第 {step} 步，共 {steps} 步"),
    "t5.ui.prev": ("◀ step", "◀ 上一步"),
    "t5.ui.next": ("step ▶", "下一步 ▶"),
    "t5.ui.wrote": (
        "The decoder read “{read}” and wrote “{token}”: probability {p} after the sampler's stages, rank {rank} before them.",
        "解码器读入“{read}”，写出“{token}”：经过采样各阶段后的概率为 {p}，之前排第 {rank} 名。",
    ),
    "t5.ui.looks": (
        "Where this step looked in the source (cross-attention, {which}): most at “{top}” ({p}).",
        "这一步在源文本中看向哪里（交叉注意力，{which}）：最多看向“{top}”（{p}）。",
    ),
    "t5.ui.mean": ("mean of every layer and head", "所有层和头的平均"),
    "t5.ui.one": ("layer {layer}, head {head}", "第 {layer} 层，第 {head} 个头"),
    "t5.ui.layer_mean": ("layer {layer}, mean of its heads", "第 {layer} 层，各头平均"),
    "t5.ui.head_mean": ("head {head}, mean of the layers", "第 {head} 个头，各层平均"),
    "t5.ui.distribution": ("The next-token distribution at this step", "这一步的下一个词元分布"),
    "t5.ui.stage.raw": ("raw softmax", "原始 softmax"),
    "t5.ui.stage.temperature": ("+ temperature", "+ 温度"),
    "t5.ui.stage.top_k": ("+ top-k", "+ top-k"),
    "t5.ui.stage.top_p": ("+ top-p (drawn from)", "+ top-p（从这里抽取）"),
    "t5.ui.kept": ("{kept} tokens kept · entropy {bits} bits", "保留 {kept} 个词元 · 熵 {bits} 比特"),
    "t5.ui.families": ("The three attentions of an encoder-decoder, from this one run", "编码器-解码器的三种注意力（同一次运行）"),
    "t5.ui.family.encoder": ("encoder self-attention (bidirectional)", "编码器自注意力（双向）"),
    "t5.ui.family.decoder": ("decoder self-attention (causal)", "解码器自注意力（因果）"),
    "t5.ui.family.cross": ("cross-attention (decoder steps × source)", "交叉注意力（解码步 × 源词元）"),
    "t5.ui.family_what.encoder": (
        "Each source token looks at every source token, before and after it: rows and columns are the source.",
        "每个源词元看向所有源词元（前后都看）：行和列都是源文本。",
    ),
    "t5.ui.family_what.decoder": (
        "Each step looks only at the tokens the decoder has read so far: nothing above the diagonal (the causal mask).",
        "每一步只看解码器已经读入的词元：对角线以上全为空（因果掩码）。",
    ),
    "t5.ui.family_what.cross": (
        "Each decoder step (row) looks back at the encoder's output (columns): the only path from source to answer.",
        "每个解码步（行）回看编码器的输出（列）：这是从源文本到答案的唯一通道。",
    ),
    "t5.ui.layer": ("Layer", "层"),
    "t5.ui.head": ("Head", "头"),
    "t5.ui.all": ("mean", "平均"),
    "t5.ui.rows": ("rows: {what}", "行：{what}"),
    "t5.ui.rows_source": ("source tokens", "源词元"),
    "t5.ui.rows_steps": ("decoder steps (the token each wrote)", "解码步（每步写出的词元）"),
}  # fmt: skip
