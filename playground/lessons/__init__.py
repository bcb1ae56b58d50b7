"""The course as data: one lesson per concept (and the course's five exercises), each pointing at the view that shows it.

A lesson is a text key (its prose lives in `playground/ui/lessons/text.py`), a formula in LaTeX, and one or more
"try it" links. A link lists variants, best first: the first whose models are available here (and whose tab exists)
is the one offered, with a note saying what runs and why. Nothing here imports gradio.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode


@dataclass(frozen=True)
class Variant:
    needs: tuple[str, ...]  # model keys that must be available
    params: dict[str, Any] = field(default_factory=dict)  # share-link parameters of the tab
    note: str = ""  # text key: what runs here and why ("" when nothing needs saying)


@dataclass(frozen=True)
class TryIt:
    label: str  # text key of the button
    tab: str  # tab id in app.TABS
    variants: tuple[Variant, ...]
    missing: str = "lessons.missing.models"  # text key shown when no variant can run here


@dataclass(frozen=True)
class Lesson:
    key: str  # texts under lessons.<key>.{title,body,notice,question}
    formula: str  # LaTeX, rendered in the browser by Gradio's bundled KaTeX
    tries: tuple[TryIt, ...]
    exercise: bool = False  # one of the course's five exercises


@dataclass(frozen=True)
class Link:
    """A try-it link resolved for this server: the query (without `lang`), or why there is none."""

    label: str
    tab: str
    query: str  # "" when unavailable
    params: dict[str, Any]
    note: str  # text key ("" for none)


def encode(value: Any) -> str:
    """A parameter value as the share link carries it (what playground.ui.common.share.decode reads back)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return json.dumps(list(value), ensure_ascii=False)
    return str(value)


def resolve(tryit: TryIt, available: Iterable[str], tabs: Iterable[str], registered: Iterable[str]) -> Link:
    """The first variant that can run here (its tab exists, its models are available), as a link.

    With none: the lesson's own `missing` note when the view or model does not exist in this app at all
    (not built yet), else the generic "needs models that are unavailable here" note.
    """
    available, tabs, registered = set(available), set(tabs), set(registered)
    if tryit.tab in tabs:
        for variant in tryit.variants:
            if set(variant.needs) <= available:
                query = urlencode({"tab": tryit.tab, **{k: encode(v) for k, v in variant.params.items()}})
                return Link(tryit.label, tryit.tab, query, dict(variant.params), variant.note)
    absent = tryit.tab not in tabs or not set(tryit.variants[0].needs) <= registered
    return Link(tryit.label, tryit.tab, "", {}, tryit.missing if absent else "lessons.missing.models")


def _v(needs: tuple[str, ...] | str, note: str = "", **params: Any) -> Variant:
    return Variant((needs,) if isinstance(needs, str) else tuple(needs), params, note)


# Patching and attribution (the insight tab): B receives A's hidden state where they differ ("France" / "Italy").
PATCH_B, PATCH_A = "The capital of France is [MASK].", "The capital of Italy is [MASK]."
PATCH_GPT = ("The capital of France is", "The capital of Italy is")  # GPT continues the sentence: no blank
# The block lesson's one sentence: a masked LM fills its blank, a causal LM continues it (the same words before).
BLOCK_MASKED = "The animal didn't cross the street because it was too [MASK]."
BLOCK_CAUSAL = "The animal didn't cross the street because it was too"
BANK = "\n".join(
    [
        "money | She deposited her salary at the bank this morning.",
        "money | The bank approved the loan for our new house.",
        "river | They had a picnic on the bank of the river.",
        "river | The fisherman sat quietly on the muddy bank.",
    ]
)
BANK_PAIR = "money | I deposited money at the bank.\nriver | I took a walk along the bank."
YINHANG = "存钱 | 我在银行存钱。\n散步 | 我在银行散步。"
MASKING_TEXT = "The unbelievable tokenizer splits playground sentences into subword pieces."
NSP_TEXT = (
    "The cat sat on the mat. It fell asleep in the sun. Later it woke up hungry.\n\n"
    "Stock markets fell sharply today. Investors worried about interest rates. Bonds rallied."
)
SAME_MASK = "The goal of life is [MASK]."
ANIMAL = "The animal didn't cross the street because it was too tired."
# Where the attention lesson's point shows on the bundled MiniLM: layer 3, head 1, query "it" (position 10) sends about
# two thirds of its attention to "animal" (layer 0 / head 0 / [SEP], the view's default, shows nothing standing out);
# tests/integration/test_lesson_readings.py measures it.
ANIMAL_POINT = {"layer": 3, "head": 1, "query": 10}
# Lesson 6's fill-mask sentence: the word after the blank decides it ("Paris"), so reading both sides wins; with the
# blank at the end ("The capital of France is [MASK].") the causal model won and taught the opposite (issue 37).
RIGHT_DECIDES = "The [MASK] of France is Paris."
MASK_ZH = "我[MASK]自然语言处理。"  # the course's own masked-LM example
NSP_ZH = "我爱NLP。NLP很有趣。\n\n北京是首都。"  # the course's NSP example; the blank line puts 北京是首都 in another document
PROMPT_ZH = "人工智能的未来是"
# T5's lesson: the course's three examples (t5-small was trained with these prefixes) and the classroom T5 offline.
T5_EXAMPLES = (
    ("translate", "translate English to German: That is good."),
    ("sst2", "sst2 sentence: This movie is great!"),
    (
        "summarize",
        "summarize: The students trained a small language model on everyday sentences. It learned to translate short "
        "sentences, but long ones still confuse it, so they plan to train it for longer on more text.",
    ),
)
# a training sentence, which the classroom T5 translates: the decoder visibly looks at 茶 while writing "tea" (on held-out
# sentences it is a beginner: docs/models.md)
T5_ZH_EN = "translate Chinese to English: 我想喝一杯茶。"
T5_EN_ZH_GOOD = "translate English to Chinese: That is good."
T5_EN_ZH = "translate English to Chinese: I want to drink a cup of tea."
PROMPT_STEP_ZH = "我爱"  # the course's GPT step by step: 我 爱 -> 自然 -> 语言 -> 处理


def _ask(activity: str, *variants: tuple[str, str]) -> TryIt:
    """ "Ask the class": the Class tab set up with this lesson's activity, sentence and model (the teacher then starts
    the session there); variants as (model, text), best first."""
    return TryIt(f"lessons.ask.{activity}", "classroom", tuple(_v(m, activity=activity, text=x, model=m) for m, x in variants))


def _masking(strategy: str, **extra: Any) -> tuple[Variant, ...]:
    return (_v("minilm", text=MASKING_TEXT, model="minilm", strategy=strategy, seed=0, **extra),)


def _sampling_zh(temperature: float | None) -> TryIt:
    """Exercise 2 at one temperature (three samples), or None: the three side by side with one seed. GPT-2 Chinese
    online, else the small Chinese GPT trained here, else the bundled SmolLM2 (the note says what differs). The link
    reopens the samples or the comparison (`show`), not only the next-token distribution."""
    show = "generate" if temperature is not None else "compare"
    temperature = 0.8 if temperature is None else temperature
    label = f"lessons.try.temperature_{str(temperature).replace('.', '_')}"
    label = "lessons.try.temperature_compare" if show == "compare" else label

    def variant(model: str, note: str) -> Variant:
        settings = dict(temperature=temperature, top_k=0, top_p=1.0, max_new_tokens=30, samples=3, seed=0, show=show)
        settings.update(t1=0.1, t2=0.8, t3=1.5)  # the comparison's three, whatever the tab's defaults become
        return _v(model, note, prompt=PROMPT_ZH, model=model, **settings)

    return TryIt(
        label,
        "sampling",
        (
            variant("gpt2-chinese", "lessons.note.gpt2_chinese"),
            variant("gpt-zh", "lessons.note.gpt_zh"),  # offline: reads Chinese characters, but small (the note says)
            variant("smollm2-instruct", "lessons.note.smollm_zh"),
        ),
    )


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "static",
        r"$$\text{static: } v(\text{bank}) = E[\text{bank}] \qquad \text{contextual: } h_i = f(w_1, \dots, w_n)_i$$",
        (
            TryIt(
                "lessons.try.polysemy",
                "polysemy",
                (
                    _v(("bert", "glove"), word="bank", sentences=BANK, models=["bert", "glove"]),
                    _v(("minilm", "glove"), "lessons.note.minilm", word="bank", sentences=BANK, models=["minilm", "glove"]),
                    _v("minilm", "lessons.note.minilm", word="bank", sentences=BANK, models=["minilm"]),
                ),
            ),
            # the class's own sentences for one word, contextual beside static (the polysemy demo's vectors)
            _ask("sentences", ("minilm", "bank | river | money"), ("e5-small", "苹果 | 水果 | 公司")),
        ),
    ),
    Lesson(
        "elmo",
        r"$$\mathrm{ELMo}_k = \gamma \sum_{j=0}^{L} s_j\, h_{k,j}, \qquad s = \mathrm{softmax}(w)$$",
        (
            TryIt(
                "lessons.try.elmo_mix",
                "elmo",
                (_v("elmo-small", "lessons.note.elmo_small", model="elmo-small", s0=0.0, s1=0.0, s2=2.0),),
                missing="lessons.missing.elmo",
            ),
            TryIt(
                "lessons.try.elmo",
                "polysemy",
                (
                    _v(
                        ("elmo-small", "glove"),
                        "lessons.note.elmo_small",
                        word="bank",
                        sentences=BANK,
                        models=["elmo-small", "glove"],
                    ),
                ),
                missing="lessons.missing.elmo",
            ),
            # "lower layers syntax, higher layers meaning", tested: probes per layer with control tasks
            TryIt(
                "lessons.try.elmo_probes",
                "insight",
                (_v("elmo-small", "lessons.note.elmo_probes", view="probes", probe_model="elmo-small", probe_lang="en"),),
                missing="lessons.missing.elmo",
            ),
        ),
    ),
    Lesson(
        "embeddings",
        r"$$e_i = \mathrm{LayerNorm}\big(E_{\text{tok}}[x_i] + E_{\text{seg}}[s_i] + E_{\text{pos}}[i]\big)$$",
        (
            TryIt(
                "lessons.try.embeddings",
                "inside",
                (
                    _v(
                        "minilm",
                        view="embeddings",
                        text_a="The cat sat on the mat.",
                        text_b="It fell asleep in the sun.",
                        model="minilm",
                    ),  # fmt: skip
                ),
            ),
        ),
    ),
    Lesson(
        "mlm",
        r"$$\mathcal{L}_{\text{MLM}} = -\sum_{i \in M} \log p(x_i \mid \tilde{x}), \quad |M| \approx 15\%:"
        r"\ 80\%\ \texttt{[MASK]},\ 10\%\ \text{random},\ 10\%\ \text{unchanged}$$",
        (
            TryIt("lessons.try.masking", "masking", _masking("bert", p=0.15, pm=0.8, pr=0.1, draws=2000, stats=True)),
            _ask(
                "fill_blank", ("minilm-mlm", "The capital of France is [MASK]."), ("e5-mlm", "The capital of France is [MASK].")
            ),
        ),
    ),
    Lesson(
        "nsp",
        r"$$p(\text{IsNext} \mid A, B) = \mathrm{softmax}\big(W\, h_{\texttt{[CLS]}}\big), \quad"
        r"\texttt{[CLS]}\ A\ \texttt{[SEP]}\ B\ \texttt{[SEP]}$$",
        (
            TryIt("lessons.try.nsp", "inside", (_v((), view="nsp", text=NSP_TEXT, seed=0),)),
            TryIt("lessons.try.nsp_zh", "inside", (_v("e5-nsp", "lessons.note.nsp_zh_e5", view="nsp", text=NSP_ZH, seed=0),)),
        ),
    ),
    Lesson(
        "causal",
        r"$$\text{BERT: } p(x_i \mid x_{\setminus i}) \qquad \text{GPT: } p(x_t \mid x_{<t}), \quad"
        r" M_{ij} = \begin{cases} 0 & j \le i \\ -\infty & j > i \end{cases}$$",
        (
            TryIt(
                "lessons.try.attention_compare",
                "attention",
                (
                    _v(
                        "minilm",
                        model="minilm",
                        text="The animal didn't cross the street because it was too tired.",
                        view="compare",
                    ),
                ),
            ),
            TryIt(
                "lessons.try.fill_mask_causal",
                "fill_mask",
                (
                    _v(("bert", "gpt2"), text=RIGHT_DECIDES, models=["bert", "gpt2"]),
                    _v(
                        ("minilm-mlm", "smollm2-instruct"),
                        "lessons.note.causal_minilm",
                        text=RIGHT_DECIDES,
                        models=["minilm-mlm", "smollm2-instruct"],
                    ),
                    _v(
                        "smollm2-instruct",
                        "lessons.note.causal_only",
                        text=RIGHT_DECIDES,
                        models=["smollm2-instruct"],
                    ),  # fmt: skip
                ),
            ),
            TryIt(  # the same difference as an effect: a patched hidden state reaches the left only in BERT
                "lessons.try.patching_bert",
                "insight",
                (_v("minilm-mlm", view="patching", model="minilm-mlm", text=PATCH_B, source=PATCH_A, patch_layer=1),),
            ),
            TryIt(
                "lessons.try.patching_gpt",
                "insight",
                tuple(
                    _v(model, view="patching", model=model, text=PATCH_GPT[0], source=PATCH_GPT[1], patch_layer=1)
                    for model in ("gpt2", "smollm2-instruct")
                ),  # fmt: skip
            ),
            TryIt(  # the course's GPT step by step: 我 爱 -> the next character, from the left only
                "lessons.try.next_zh",
                "sampling",
                tuple(
                    _v(model, note, prompt=PROMPT_STEP_ZH, model=model, temperature=1.0, top_k=0, top_p=1.0, seed=0, show="next")
                    for model, note in (("gpt2-chinese", "lessons.note.gpt2_chinese"), ("gpt-zh", "lessons.note.gpt_zh"))
                ),
            ),
            _ask("next_token", ("smollm2-instruct", "The cat sat on the"), ("gpt-zh", PROMPT_STEP_ZH)),
        ),
    ),
    Lesson(
        "sampling",
        r"$$p_i = \frac{\exp(z_i / T)}{\sum_j \exp(z_j / T)}, \quad \text{top-}k: i \in \text{top } k, \quad"
        r"\text{top-}p: \min |S| \text{ s.t.} \sum_{i \in S} p_i \ge p$$",
        (
            TryIt(
                "lessons.try.sampling",
                "sampling",
                (
                    _v("gpt2", prompt="The future of AI is", model="gpt2", temperature=0.8, top_k=40, top_p=0.9, seed=0),
                    _v(
                        "smollm2-instruct",
                        prompt="The future of AI is",
                        model="smollm2-instruct",
                        temperature=0.8,
                        top_k=40,
                        top_p=0.9,
                        seed=0,
                    ),  # fmt: skip
                ),
            ),
        ),
    ),
    Lesson(
        "roberta",
        r"$$M^{(e)} \sim \text{a fresh 15\% draw in every epoch } e, \qquad \text{vs. BERT: } M^{(e)} = M \text{ (static)}$$",
        (TryIt("lessons.try.dynamic", "masking", _masking("dynamic", epochs=6)),),
    ),
    Lesson(
        "albert",
        r"$$V \cdot H \;\longrightarrow\; V \cdot E + E \cdot H \quad (E \ll H), \qquad"
        r" L \cdot P_{\text{layer}} \;\longrightarrow\; P_{\text{layer}}$$",
        (TryIt("lessons.try.params", "inside", (_v((), view="params", base="bert-base", E=128, share="none"),)),),
    ),
    Lesson(
        "spanbert",
        r"$$y_i = f\big(x_{s-1},\, x_{e+1},\, p_{i-s+1}\big), \qquad"
        r"\mathcal{L}(x_i) = \mathcal{L}_{\text{MLM}}(x_i) + \mathcal{L}_{\text{SBO}}(x_i)$$",
        (TryIt("lessons.try.span", "masking", _masking("span")),),
    ),
    Lesson(
        "electra",
        r"$$\min_{\theta_G, \theta_D} \sum_{x} \mathcal{L}_{\text{MLM}}(x, \theta_G)"
        r" + \lambda\, \mathcal{L}_{\text{Disc}}(x, \theta_D),"
        r"\quad \mathcal{L}_{\text{Disc}} = \sum_{t=1}^{n} \text{BCE}\big(D(\hat{x}, t),\ \hat{x}_t = x_t\big)$$",
        (
            TryIt(
                "lessons.try.electra",
                "masking",
                (
                    _v(
                        ("minilm", "minilm-mlm"),
                        "lessons.note.electra_minilm",
                        text=MASKING_TEXT,
                        model="minilm",
                        strategy="electra",
                        seed=0,
                        generator="masked:minilm-mlm",
                    ),
                    *_masking("electra"),
                ),
            ),
        ),
    ),
    Lesson(
        "xlnet",
        r"$$\max_\theta\ \mathbb{E}_{z \sim \mathcal{Z}_T}"
        r" \Big[\sum_{t=1}^{T} \log p_\theta\big(x_{z_t} \mid x_{z_{<t}}\big)\Big]$$",
        (
            TryIt("lessons.try.permutation", "masking", _masking("permutation")),
            TryIt("lessons.try.unilm", "masking", _masking("attention")),
            TryIt("lessons.try.t5", "masking", _masking("t5")),
        ),
    ),
    Lesson(
        "attention",
        r"$$\mathrm{Attention}(Q, K, V) = \mathrm{softmax}\Big(\frac{Q K^\top}{\sqrt{d_k}}\Big) V, \qquad"
        r" PE_{(pos, 2i)} = \sin\big(pos / 10000^{2i/d}\big)$$",
        tuple(
            TryIt(
                f"lessons.try.attention_{view}",
                "attention",
                (_v("minilm", model="minilm", text=ANIMAL, view=view, **(ANIMAL_POINT if view != "positional" else {})),),
            )
            for view in ("step", "head", "positional")
        )
        + (
            TryIt("lessons.try.block_whole", "forward", (_v("minilm-mlm", model="minilm-mlm", text=BLOCK_MASKED),)),
            TryIt(  # attention is not explanation: what drove the prediction, beside where the heads looked
                "lessons.try.attribution",
                "insight",
                (_v("minilm-mlm", view="attribution", model="minilm-mlm", text=PATCH_B, head_layer=-1, head=0, steps=32),),
            ),
        )
        + (_ask("attention", ("minilm", "The animal didn't cross the street because *it* was too tired.")),),
    ),
    Lesson(
        "block",
        r"$$\mathrm{MHA}(x) = \mathrm{Concat}(\mathrm{head}_1, \dots, \mathrm{head}_h)\, W^O, \quad"
        r" h = \mathrm{LN}\big(x + \mathrm{MHA}(x)\big), \quad"
        r" y = \mathrm{LN}\big(h + W_2\, \mathrm{GELU}(W_1 h)\big)$$",
        (
            TryIt(
                "lessons.try.block_bert",
                "forward",
                (
                    _v("bert", model="bert", text=BLOCK_MASKED),
                    _v("minilm-mlm", "lessons.note.block_bert", model="minilm-mlm", text=BLOCK_MASKED),
                ),
            ),
            TryIt(
                "lessons.try.block_gpt",
                "forward",
                (
                    _v("gpt2", model="gpt2", text=BLOCK_CAUSAL),
                    _v("smollm2-instruct", "lessons.note.block_gpt", model="smollm2-instruct", text=BLOCK_CAUSAL),
                ),
            ),
        ),
    ),
    Lesson(
        "t5",
        r"$$\text{every task: } y = \mathrm{T5}(\text{prefix} \oplus x), \qquad"
        r" p(y) = \prod_{t} p\big(y_t \mid y_{<t},\ \mathrm{Enc}(\text{prefix} \oplus x)\big)$$",
        tuple(
            TryIt(
                f"lessons.try.t5_{name}",
                "t5",
                (
                    _v("t5-small", text=text, model="t5-small", max_new_tokens=24),
                    # offline: the classroom T5 reads the same text; it knows only its two translation prefixes
                    _v("t5-classroom", f"lessons.note.t5_offline_{name}", text=offline, model="t5-classroom", max_new_tokens=24),
                ),
            )
            for (name, text), offline in zip(T5_EXAMPLES, (T5_EN_ZH_GOOD, T5_EXAMPLES[1][1], T5_EXAMPLES[2][1]))
        ),
    ),
    Lesson(
        "encdec",
        r"$$\mathrm{Cross}(Q_{\text{dec}}, K_{\text{enc}}, V_{\text{enc}})"
        r" = \mathrm{softmax}\big(Q_{\text{dec}} K_{\text{enc}}^\top\big) V_{\text{enc}}, \qquad"
        r" \text{decoder block: self (causal)} \longrightarrow \text{cross} \longrightarrow \text{FFN}$$",
        (
            TryIt(
                "lessons.try.t5_zh_en",
                "t5",
                (_v("t5-classroom", "lessons.note.t5_classroom", text=T5_ZH_EN, model="t5-classroom", max_new_tokens=24),),
            ),
            TryIt(
                "lessons.try.t5_en_zh",
                "t5",
                (_v("t5-classroom", "lessons.note.t5_classroom", text=T5_EN_ZH, model="t5-classroom", max_new_tokens=24),),
            ),
            TryIt("lessons.try.t5_german", "t5", (_v("t5-small", text=T5_EXAMPLES[0][1], model="t5-small"),)),
        ),
    ),
    Lesson(
        "finetune",
        r"$$\hat{y} = \mathrm{softmax}\big(W h_{\texttt{[CLS]}} + b\big), \quad W \in \mathbb{R}^{K \times H}; \qquad"
        r"\text{QA: } p_{\text{start}}(i) = \mathrm{softmax}_i(w_s^\top h_i)$$",
        (TryIt("lessons.try.heads", "inside", (_v((), view="heads", source="bert-base"),)),),
    ),
    # The course's five exercises, with its exact inputs where the models exist here.
    Lesson(
        "ex1",
        r"$$\cos(h_{\text{银行}}^{(1)}, h_{\text{银行}}^{(2)})"
        r" = \frac{h^{(1)} \cdot h^{(2)}}{\lVert h^{(1)} \rVert\, \lVert h^{(2)} \rVert}$$",
        (
            TryIt(
                "lessons.try.ex1",
                "polysemy",
                (
                    _v("bert-chinese", "lessons.note.bert_chinese", word="银行", sentences=YINHANG, models=["bert-chinese"]),
                    _v("e5-small", "lessons.note.ex1_e5", word="银行", sentences=YINHANG, models=["e5-small"]),
                    _v(
                        ("minilm", "elmo-small", "glove"),
                        "lessons.note.ex1_offline",
                        word="bank",
                        sentences=BANK_PAIR,
                        models=["minilm", "elmo-small", "glove"],
                    ),  # fmt: skip
                    _v(
                        ("minilm", "glove"),
                        "lessons.note.ex1_offline",
                        word="bank",
                        sentences=BANK_PAIR,
                        models=["minilm", "glove"],
                    ),  # fmt: skip
                ),
            ),
        ),
        exercise=True,
    ),
    Lesson(
        "ex2",
        r"$$p_i = \frac{\exp(z_i / T)}{\sum_j \exp(z_j / T)}, \qquad T \in \{0.1,\ 0.8,\ 1.5\}$$",
        (
            *(_sampling_zh(temperature) for temperature in (0.1, 0.8, 1.5, None)),
            _ask("temperature", ("smollm2-instruct", "Once upon a time"), ("gpt-zh", PROMPT_ZH)),
        ),
        exercise=True,
    ),
    Lesson(
        "ex3",
        r"$$\hat{x} = \arg\max_{w \in V}\ p_{\text{BERT}}(w \mid \tilde{x}) \quad \text{vs.} \quad"
        r"\arg\max_{w \in V}\ p_{\text{RoBERTa}}(w \mid \tilde{x})$$",
        (
            TryIt(
                "lessons.try.ex3",
                "fill_mask",
                (
                    _v(("bert", "roberta"), "lessons.note.ex3_online", text=SAME_MASK, models=["bert", "roberta"]),
                    _v(("minilm-mlm", "e5-mlm"), "lessons.note.ex3_two_mlms", text=SAME_MASK, models=["minilm-mlm", "e5-mlm"]),
                    _v(
                        ("minilm-mlm", "smollm2-instruct"),
                        "lessons.note.ex3_minilm",
                        text=SAME_MASK,
                        models=["minilm-mlm", "smollm2-instruct"],
                    ),  # fmt: skip
                    _v("smollm2-instruct", "lessons.note.ex3_causal", text=SAME_MASK, models=["smollm2-instruct"]),
                ),
            ),
            TryIt(
                "lessons.try.ex3_zh",
                "fill_mask",
                (
                    _v("bert-chinese", "lessons.note.ex3_zh_online", text=MASK_ZH, models=["bert-chinese"]),
                    _v("e5-mlm", "lessons.note.ex3_zh_e5", text=MASK_ZH, models=["e5-mlm"]),
                ),
            ),
        ),
        exercise=True,
    ),
    Lesson(
        "ex4",
        r"$$y_i = f\big(x_{s-1},\, x_{e+1},\, p_{i-s+1}\big)$$",
        (TryIt("lessons.try.span", "masking", _masking("span")),),
        exercise=True,
    ),
    Lesson(
        "ex5",
        r"$$\theta^\ast = \arg\min_\theta\ \mathbb{E}_{x \sim \text{your corpus}}\ \mathcal{L}_{\text{MLM}}(x; \theta),"
        r"\quad \theta_0 = \theta_{\text{pre-trained}}$$",
        (TryIt("lessons.try.mlm_lab", "mlm_lab", (_v((), "lessons.note.mlm_lab"),), missing="lessons.missing.mlm_lab"),),
        exercise=True,
    ),
)
