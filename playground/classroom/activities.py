"""The class's activities, one table row each: what students answer, and the model's answer computed once on the server.

Each row names the model kinds it runs on, how a student answers ("word": free text; "choice": one of the shown
options; "match": a label for each shown item; "sense": a sentence using the teacher's word, and its sense) and a
`build` that runs an existing backend entry once, when the teacher adds the question, and keeps what the reveal
shows. Every model answer is deterministic: a rank-0 reading (fill-mask, next token, attention), seeded samples
(temperature), or the polysemy backend's vectors of the students' own sentences (sentences.py: the same sentence
gives the same point, PCA with a fixed seed), never a draw at reveal time.
"""

from __future__ import annotations

import random
import re
import unicodedata
from dataclasses import asdict, dataclass, replace
from typing import Callable

import numpy as np

from playground import checks
from playground.alignment import find_word
from playground.attention import AttentionRequest, run_attention
from playground.classroom.sentences import probe
from playground.errors import InputError
from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.runtime import Runtime
from playground.sampling import NextTokenRequest, run_next_token
from playground.sampling.generation import CompareRequest, run_compare

MATCH_SHOWN = " / "  # "1.5|0.1|0.8" as people read it: the texts' labels in order
MAX_TEXT = 300  # the teacher's sentence / prompt
MAX_ANSWER = 40  # a student's word, after normalising
TOP = 5  # the model's answers shown at the reveal
TEMPERATURES = (0.1, 0.8, 1.5)  # the course's exercise 2
NEW_TOKENS = 20  # each continuation of "which temperature wrote this?"
SENSE_SHOWN = " | "  # "0|I sat by the bank" as people read it: "river | I sat by the bank"
MAX_SENSES, MAX_SENSE = 4, 24  # "our sentences": 2 to 4 sense labels, each at most 24 characters
MAX_SENTENCE = 160  # a student's sentence, after cleaning
MAX_TARGET = 30  # the teacher's word


@dataclass(frozen=True)
class Question:
    """One question of a session, as stored: what students see, and the model's answer (shown only at the reveal)."""

    kind: str  # a key of ACTIVITIES
    prompt: str  # the sentence / prompt everyone reads
    model: str  # the registry key that answered
    model_label: str
    model_id: str
    form: str  # "word" | "choice" | "match" | "sense"
    choices: tuple[str, ...] = ()  # "choice": the options (the answer is an option's index); "match": the labels;
    # "sense": the teacher's sense labels (the answer is "<label's index>|<sentence>")
    items: tuple[str, ...] = ()  # "match": the texts to label, in the order shown
    focus: str = ""  # "where does it look": the highlighted token
    layer: int = 0
    head: int = 0
    model_top: tuple[tuple[str, float], ...] = ()  # the model's answer: (word or option, probability or weight)
    truth: str = ""  # the right answer in the students' form ("" for word questions: the model's top-1 is compared)

    def public(self) -> dict:
        """What a student's phone and the board show before the reveal: no model answer."""
        return {
            "kind": self.kind, "prompt": self.prompt, "form": self.form, "choices": list(self.choices),
            "items": list(self.items), "focus": self.focus, "layer": self.layer, "head": self.head,
            "model_label": self.model_label,
        }  # fmt: skip

    def reference(self) -> str:
        """The answer the class is compared with: the truth, or the model's top-1."""
        if self.truth:
            return self.truth
        return normalize_word(self.model_top[0][0]) if self.model_top else ""


def normalize_word(raw: str) -> str:
    """A typed word as it is counted: NFKC, trimmed, case folded, outer punctuation and the visible-space mark gone,
    inner spaces collapsed ("  Paris. " and "paris" are one answer)."""
    text = unicodedata.normalize("NFKC", raw).replace("␣", " ").replace("Ġ", " ").replace("▁", " ")
    text = re.sub(r"\s+", " ", text).strip().casefold()
    text = text.strip(".,!?;:\"'()[]{}<>«»“”‘’，。！？；：、（）【】《》")
    return text[:MAX_ANSWER]


def clean_sentence(raw: str) -> str:
    """A sentence as kept: NFKC, control and direction characters gone, spaces collapsed, trimmed."""
    text = unicodedata.normalize("NFKC", raw)
    text = re.sub(r"[\x00-\x1f\x7f\u200b-\u200f\u2028-\u202e\u2066-\u2069]", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def _sense(question: Question, raw: str) -> str:
    """ "<index>|<sentence>": a shown sense, and a sentence (at most MAX_SENTENCE) that uses the teacher's word."""
    index, bar, sentence = raw.partition("|")
    if not bar or index not in [str(i) for i in range(len(question.choices))]:
        raise InputError("class_pick_sense", "Pick the sense your sentence uses.")
    sentence = clean_sentence(sentence)
    if not sentence:
        raise InputError("class_empty_answer", "Type an answer first.")
    if len(sentence) > MAX_SENTENCE:
        raise InputError("class_long_sentence", "Keep your sentence under {limit} characters.", limit=MAX_SENTENCE)
    if find_word(sentence, question.prompt) is None:  # the polysemy demo's own rule: whole words, CJK inside words
        raise InputError("class_no_target", "Your sentence must use the word “{word}”.", word=question.prompt)
    return f"{index}|{sentence}"


def tallied(question: Question, answer: str) -> str:
    """What the histogram counts of a kept answer: the sense's index of a sentence, else the answer itself."""
    return answer.partition("|")[0] if question.form == "sense" else answer


def entry_of(question: Question, answer: str) -> str:
    """What the teacher hides an answer by: a sentence (its sense aside), else the answer itself."""
    return answer.partition("|")[2] if question.form == "sense" else answer


def normalize(question: Question, raw: str) -> str:
    """A student's answer in its counted form, or InputError (an option that is not shown, an unlabelled item, a
    sentence without the teacher's word)."""
    if question.form == "sense":
        return _sense(question, raw)
    if question.form == "word":
        word = normalize_word(raw)
        if not word:
            raise InputError("class_empty_answer", "Type an answer first.")
        return word
    if question.form == "choice":
        if raw not in [str(i) for i in range(len(question.choices))]:
            raise InputError("class_bad_choice", "Pick one of the options shown.")
        return raw
    labels = raw.split("|")
    if len(labels) != len(question.items) or sorted(labels) != sorted(question.choices):
        raise InputError("class_bad_match", "Give each text a different label.")
    return raw


def shown(question: Question, answer: str) -> str:
    """An answer as people read it (an option's text rather than its index)."""
    if question.form == "choice" and answer.isdigit() and int(answer) < len(question.choices):
        return question.choices[int(answer)]
    if question.form == "match":
        return MATCH_SHOWN.join(answer.split("|"))
    if question.form == "sense":
        index, bar, sentence = answer.partition("|")
        label = question.choices[int(index)] if index.isdigit() and int(index) < len(question.choices) else index
        return label + SENSE_SHOWN + sentence if bar else label
    return answer


# ---- the builds: one backend entry each ----------------------------------------------------------------------------
def _fill_blank(text: str, model: str, runtime: Runtime, seed: int) -> Question:
    run = run_fill_mask(FillMaskRequest(text, (model,), TOP), runtime)
    fill = run.fills[0]
    first = fill.readings[0].predictions[0]  # the first blank, the model's masked reading
    top = tuple((p.word, float(p.probability)) for p in first)
    return Question("fill_blank", text, fill.model_key, fill.label, fill.model_id, "word", model_top=top)


def _next_token(text: str, model: str, runtime: Runtime, seed: int) -> Question:
    run = run_next_token(NextTokenRequest(text, model, temperature=1.0), runtime)
    view = run.views[0]
    top = tuple((token, float(p)) for token, p in zip(view.tokens[:TOP], view.probs["raw"][:TOP]))
    return Question("next_token", text, run.model_key, run.model_label, run.model_id, "word", model_top=top)


def _temperature(text: str, model: str, runtime: Runtime, seed: int) -> Question:
    run = run_compare(CompareRequest(text, model, TEMPERATURES, max_new_tokens=NEW_TOKENS, seed=seed), runtime)
    texts = [c.samples[0].text for c in run.continuations]
    order = list(range(len(TEMPERATURES)))
    random.Random(seed).shuffle(order)  # a local generator: the shown order is the session's, reproducible
    labels = tuple(f"{t:g}" for t in TEMPERATURES)
    nt = run.next_token
    return Question(
        "temperature", text, nt.model_key, nt.model_label, nt.model_id, "match", choices=labels,
        items=tuple(texts[i] for i in order), truth="|".join(labels[i] for i in order),
    )  # fmt: skip


FOCUS = re.compile(r"\*([^*]+)\*")


def _attention(text: str, model: str, runtime: Runtime, seed: int) -> Question:
    """The token between asterisks ("because *it* was") is the one whose attention students guess; the head is the
    last layer's most decided one about it (its largest weight on another word is the highest)."""
    marked = FOCUS.search(text)
    plain = FOCUS.sub(r"\1", text)
    view = run_attention(AttentionRequest(model, plain), runtime)
    maps = view.maps
    labels = maps.labels
    words = [i for i, special in enumerate(maps.special) if not special]
    target = (marked.group(1) if marked else "").strip().casefold()
    found = [i for i in words if target and normalize_word(labels[i]) == normalize_word(target)]
    found = found or [i for i in words if target and normalize_word(target).startswith(normalize_word(labels[i]) or "\0")]
    focus = found[0] if found else words[-1]
    # the options: the other words (a piece that is only punctuation, "." or "'", is no one's guess)
    others = [i for i in words if i != focus and normalize_word(labels[i])]
    if not others:
        raise InputError("class_attention_short", "Write a sentence of at least two words.")
    layer = maps.attentions.shape[0] - 1
    rows = maps.attentions[layer][:, focus][:, others]  # (heads, others)
    head = int(np.argmax(rows.max(axis=1)))
    weights = rows[head] / max(float(rows[head].sum()), 1e-12)  # over the options only
    choices = tuple(labels[i] for i in others)
    best = str(int(np.argmax(weights)))
    top = tuple((choices[i], float(weights[i])) for i in np.argsort(-weights)[: max(TOP, len(choices))])
    return Question(
        "attention", plain, view.model, view.model_label, view.model_id, "choice", choices=choices,
        focus=marked.group(1).strip() if marked and found else labels[focus], layer=layer, head=head, model_top=top, truth=best,
    )  # fmt: skip


def parse_senses(text: str) -> tuple[str, tuple[str, ...]]:
    """The teacher's "word | sense | sense [| sense | sense]" -> (word, 2 to 4 distinct sense labels)."""
    parts = [re.sub(r"\s+", " ", p).strip() for p in clean_sentence(text).split("|")]
    word, labels = parts[0], tuple(dict.fromkeys(p for p in parts[1:] if p))
    if not word or len(word) > MAX_TARGET or not 2 <= len(labels) <= MAX_SENSES or max(map(len, labels)) > MAX_SENSE:
        raise InputError(
            "class_bad_senses",
            "Write the word, then 2 to {most} senses, all after bars: “bank | river | money”.",
            most=MAX_SENSES,
        )
    return word, labels


def _sentences(text: str, model: str, runtime: Runtime, seed: int) -> Question:
    """Students' sentences for the teacher's word: the model's answer is computed from them as they arrive
    (sentences.py); here, once, the word in a sentence of its own, which loads the model and refuses a word no token
    of the model covers before any student types."""
    word, labels = parse_senses(text)
    spec, depth = probe(word, model, runtime)
    return Question("sentences", word, spec.key, spec.label, spec.hf_id, "sense", choices=labels, layer=depth)


@dataclass(frozen=True)
class Activity:
    kind: str
    model_kinds: tuple[str, ...]  # the registry kinds its model may be
    examples: dict[str, str]  # lang -> the default text
    models: dict[str, str]  # lang -> the default model (bundled: it works offline)
    build: Callable[[str, str, Runtime, int], Question]


MASKED_LM = {"en": "minilm-mlm", "zh": "e5-mlm"}
CAUSAL_LM = {"en": "smollm2-instruct", "zh": "gpt-zh"}
ACTIVITIES: dict[str, Activity] = {
    a.kind: a
    for a in (
        Activity(
            "fill_blank",
            ("masked",),
            {"en": "The capital of France is [MASK].", "zh": "我爱自然[MASK]处理。"},
            MASKED_LM,
            _fill_blank,
        ),
        Activity("temperature", ("causal",), {"en": "Once upon a time", "zh": "从前有一个"}, CAUSAL_LM, _temperature),
        Activity(
            "attention",
            ("encoder", "masked", "discriminator", "causal"),
            {"en": "The animal didn't cross the street because *it* was too tired.", "zh": "小猫没有过马路，因为*它*太累了。"},
            MASKED_LM,
            _attention,
        ),
        Activity("next_token", ("causal",), {"en": "The cat sat on the", "zh": "我今天很"}, CAUSAL_LM, _next_token),
        # The polysemy demo's kinds (a transformer's hidden states and its input-embedding rows, side by side); the
        # encoders by default, as in the polysemy tab: a left-to-right model's vector of a word cannot see what follows
        Activity(
            "sentences",
            ("encoder", "masked", "causal"),
            {"en": "bank | river | money", "zh": "苹果 | 水果 | 公司"},
            {"en": "minilm", "zh": "e5-small"},
            _sentences,
        ),
    )
}


def build_question(kind: str, text: str, model: str, runtime: Runtime, seed: int = 0) -> Question:
    """The question of activity `kind` on the teacher's text and model, its model answer computed now (once)."""
    kind = checks.choice(kind, "activity", ACTIVITIES)
    text = checks.text(text, "text", MAX_TEXT)
    seed = checks.seed(seed)
    activity = ACTIVITIES[kind]
    model = runtime.spec(model, "model", activity.model_kinds).key
    if not text.strip():
        raise InputError("class_empty_text", "Type the question's sentence first.")
    return activity.build(text, model, runtime, seed)


def to_json(question: Question) -> dict:
    return asdict(question)


def from_json(data: dict) -> Question:
    fields = {**data}
    for name in ("choices", "items"):
        fields[name] = tuple(fields.get(name, ()))
    fields["model_top"] = tuple((str(w), float(p)) for w, p in fields.get("model_top", ()))
    return replace(
        Question(**{k: fields[k] for k in ("kind", "prompt", "model", "model_label", "model_id", "form")}),
        **{k: v for k, v in fields.items() if k not in ("kind", "prompt", "model", "model_label", "model_id", "form")},
    )
