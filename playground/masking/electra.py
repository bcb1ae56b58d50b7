"""ELECTRA's replaced-token detection: a small generator fills masked positions with plausible tokens,
and the discriminator learns, for every token, whether it is the original or a replacement.

Three generators, from best to plainest: a masked LM (ELECTRA's own generator online), the bundled
causal LM filling whole words by sentence rescoring (playground.fill_mask.causal), or uniform random
tokens (no model at all). A sampled token equal to the original counts as "original", as in the paper.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable

import numpy as np
import torch

from playground import availability, device
from playground.errors import InputError
from playground.masking.bert import mlm_draws
from playground.masking.encoding import Encoded, encode, result_of
from playground.masking.pieces import readable
from playground.masking.results import MaskingResult, Note
from playground.registry import ModelSpec, get_spec
from playground.fill_mask.causal import fill_blanks_causal

MASK_PROB = 0.15
CAUSAL_TOP_K = 10  # the filler's candidates a replacement is sampled from
MAX_BLANKS = 8
CAUSAL_POOL = 30  # candidates per source the filler rescores: a sample, not a leaderboard, so fewer suffice

# A generator's or discriminator's pass is the slow part: kept in the runtime's caches, shared by all users, so a
# redraw (a language switch, 30 students on one preset) reuses it instead of running the model again.
CORRUPTIONS = ("masking electra corruptions", 64)
REPLACED_PROBS = ("masking electra discriminator", 64)


def _result(
    enc: Encoded,
    tokenizer,
    ids: list[int],
    word_ids: list[int],
    replaced: list[bool],
    special: list[bool],
    generator: str,
    **details: Any,
) -> MaskingResult:
    """The corrupted sentence is what the discriminator reads: tokens, actions, labels and word ids are its own
    (a whole-word replacement may have a different number of pieces); the original sentence rides along in details."""
    actions = ["special" if s else "replaced" if r else "original" for s, r in zip(special, replaced)]
    labels = [int(r) for r in replaced]  # the discriminator's targets: 1 = replaced
    tokens = readable(tokenizer, ids)
    original = {"original_tokens": enc.shown, "original_word_ids": enc.word_ids}
    return result_of(
        "electra",
        enc,
        actions,
        labels,
        tokens,
        tokens=tokens,
        word_ids=word_ids,
        details={**original, "generator": generator, "corrupted_ids": ids, **details},
    )


def _selected(tokenizer, enc: Encoded, seed: int, mask_prob: float, whole_word: bool = False) -> list[int]:
    _, labels = mlm_draws(tokenizer, enc, 1, seed, mask_prob, 1.0, 0.0, whole_word=whole_word)
    return [pos for pos, lab in enumerate(labels[0].tolist()) if lab != -100]


@device.entry(4)
@torch.inference_mode()
def electra_mlm(generator_lm, text: str, seed: int, mask_prob: float = MASK_PROB, **_: Any) -> MaskingResult:
    """Generator = a masked LM: one pass over the masked sentence, one sample per masked position."""
    tok = generator_lm.tokenizer
    if tok.mask_token is None:
        raise InputError("masking_generator_no_mask", "This generator has no mask token; choose a masked LM.")
    enc = encode(tok, text)
    chosen = _selected(tok, enc, seed, mask_prob)
    masked = torch.tensor([[enc.mask_id if p in chosen else i for p, i in enumerate(enc.ids)]])
    logits = generator_lm.model(input_ids=masked.to(generator_lm.device)).logits[0].float().cpu()
    logits[:, [i for i in tok.all_special_ids if i < logits.shape[-1]]] = float("-inf")  # never sample [PAD], [CLS]...
    g = torch.Generator().manual_seed(int(seed))
    ids = list(enc.ids)
    for pos in chosen:
        ids[pos] = int(torch.multinomial(logits[pos].softmax(-1), 1, generator=g))
    return _result(
        enc,
        tok,
        ids,
        enc.word_ids,
        [a != b for a, b in zip(ids, enc.ids)],
        enc.special,
        generator_lm.spec.hf_id,
        masked_positions=chosen,
    )


def electra_uniform(tokenizer, text: str, seed: int, mask_prob: float = MASK_PROB, **_: Any) -> MaskingResult:
    """Generator = none: each masked token becomes a uniformly random non-special vocabulary token."""
    enc = encode(tokenizer, text)
    chosen = _selected(tokenizer, enc, seed, mask_prob)
    specials = set(tokenizer.all_special_ids)
    rng = np.random.default_rng(seed)
    ids = list(enc.ids)
    for pos in chosen:
        while (new := int(rng.integers(enc.vocab_size))) in specials:
            pass
        ids[pos] = new
    return _result(
        enc,
        tokenizer,
        ids,
        enc.word_ids,
        [a != b for a, b in zip(ids, enc.ids)],
        enc.special,
        "uniform",
        masked_positions=chosen,
    )


@device.entry(6)  # every replaced word is drawn from a causal filler's candidates
def electra_causal(tokenizer, filler_lm, text: str, seed: int, mask_prob: float = MASK_PROB, **_: Any) -> MaskingResult:
    """Generator = the causal LM filling whole words (sentence rescoring), re-tokenized with `tokenizer`."""
    enc = encode(tokenizer, text)
    chosen = set(_selected(tokenizer, enc, seed, mask_prob, whole_word=True))
    words = sorted({enc.word_ids[p] for p in chosen})[:MAX_BLANKS]  # the filler takes at most 8 blanks
    chosen = {p for p in chosen if enc.word_ids[p] in words}
    spans = {
        w: (
            min(enc.offsets[p][0] for p in chosen if enc.word_ids[p] == w),
            max(enc.offsets[p][1] for p in chosen if enc.word_ids[p] == w),
        )
        for w in words
    }
    masked_text, cut = "", 0
    for w in words:
        masked_text += text[cut : spans[w][0]] + "[MASK]"
        cut = spans[w][1]
    masked_text += text[cut:]
    fill = (
        fill_blanks_causal(filler_lm, [masked_text], top_k=CAUSAL_TOP_K, pool=CAUSAL_POOL)[0].whole.predictions if words else []
    )
    rng = np.random.default_rng(seed)
    sampled = {}
    for w, preds in zip(words, fill):
        p = np.array([c.probability for c in preds], dtype=float)
        sampled[w] = preds[int(rng.choice(len(preds), p=p / p.sum()))].word
    ids, word_ids, replaced, special, done = [], [], [], [], set()
    for pos, (tid, w) in enumerate(zip(enc.ids, enc.word_ids)):
        if w not in sampled:
            ids.append(tid), word_ids.append(w), replaced.append(False), special.append(enc.special[pos])
        elif w not in done:  # the word's pieces become the replacement's pieces, however many there are
            done.add(w)
            new = tokenizer(sampled[w], add_special_tokens=False)["input_ids"]
            old = [i for i, ww in zip(enc.ids, enc.word_ids) if ww == w]
            ids += new
            word_ids += [w] * len(new)
            replaced += [new != old] * len(new)
            special += [False] * len(new)
    return _result(
        enc,
        tokenizer,
        ids,
        word_ids,
        replaced,
        special,
        filler_lm.spec.hf_id,
        masked_text=masked_text,
        masked_positions=sorted(chosen),
        sampled_words={str(w): sampled[w] for w in words},
    )


@device.entry(4)
@torch.inference_mode()
def discriminator_probs(disc_lm, ids: list[int]) -> list[float]:
    """The discriminator's P(replaced) per token (ELECTRA: sigmoid of one logit per position)."""
    logits = disc_lm.model(input_ids=torch.tensor([ids]).to(disc_lm.device)).logits
    return torch.sigmoid(logits[0].float()).cpu().tolist()


def same_vocabulary(tokenizer_a, tokenizer_b) -> bool:
    return len(tokenizer_a) == len(tokenizer_b) and tokenizer_a.get_vocab() == tokenizer_b.get_vocab()


def _masked_generator(key: str, model: str, text: str, seed: int, p: float, load, load_tokenizer):
    lm = load(key)
    return electra_mlm(lm, text, seed, mask_prob=p), lm.tokenizer, lm.device


def _causal_generator(key: str, model: str, text: str, seed: int, p: float, load, load_tokenizer):
    tokenizer, filler = load_tokenizer(model), load(key)
    return electra_causal(tokenizer, filler, text, seed, mask_prob=p), tokenizer, filler.device


def _uniform_generator(key: str, model: str, text: str, seed: int, p: float, load, load_tokenizer):
    tokenizer = load_tokenizer(model)
    return electra_uniform(tokenizer, text, seed, mask_prob=p), tokenizer, "cpu"


@dataclass(frozen=True)
class Generator:
    corrupt: Callable  # (key, model, text, seed, p, load, load_tokenizer) -> (result, tokenizer used, device)
    model_kind: str | None  # the registry kind its key must have; None: it takes no model
    note: str | None  # a note the page shows about this generator (a stand-in for ELECTRA's own)


# Generator choice as data: "<kind>:<registry key>", or a bare kind for one without a model.
GENERATORS: dict[str, Generator] = {
    "masked": Generator(_masked_generator, "masked", None),
    "causal": Generator(_causal_generator, "causal", "causal_generator"),
    "uniform": Generator(_uniform_generator, None, "uniform_generator"),
}


def generator_options() -> list[tuple[str, str | None]]:
    """(kind, registry key) of every generator that can run here: auto, each available masked and causal LM, uniform."""
    out: list[tuple[str, str | None]] = [("auto", None)]
    for kind, gen in GENERATORS.items():
        out += [(kind, s.key) for s in availability.available_specs(gen.model_kind)] if gen.model_kind else [(kind, None)]
    return out


def same_weights_files(a: ModelSpec, b: ModelSpec) -> bool:
    """Two bundled specs read from the same files (so one tokenizer): e5-small and e5-mlm, minilm and minilm-mlm."""
    where = lambda s: (s.bundle, s.subdir, s.converter, s.gguf_file)  # noqa: E731
    return a.source == b.source == "bundled" and where(a) == where(b)


def resolve_generator(generator: str, model: str) -> tuple[str, str]:
    """ "auto" -> the chosen model itself when it is a masked LM, else an available masked LM on the same bundled
    weights (its tokenizer: e5-small -> e5-mlm, so Chinese text gets a Chinese generator), else the first available
    causal filler, else uniform."""
    if generator == "auto":
        spec = get_spec(model)
        if spec.kind == "masked":
            return "masked", model
        sibling = [s.key for s in availability.available_specs("masked") if same_weights_files(s, spec)]
        if sibling:
            return "masked", sibling[0]
        causal = availability.available_specs("causal")
        return ("causal", causal[0].key) if causal else ("uniform", "")
    kind, _, key = str(generator).partition(":")
    wrong = InputError(
        "masking_generator",
        "Unknown generator {generator!r}: use auto, masked:<key>, causal:<key> or uniform.",
        generator=str(generator)[:80],
    )
    if kind not in GENERATORS:
        raise wrong
    needs = GENERATORS[kind].model_kind
    if needs is None:
        if key:
            raise wrong
        return kind, ""
    try:
        if get_spec(key).kind != needs:
            raise wrong
    except ValueError:
        raise wrong from None
    return kind, key


def electra_masking(
    model: str, text: str, seed: int, mlm_probability: float, generator: str, load, load_tokenizer, cache, **_: Any
) -> MaskingResult:
    """ELECTRA's objective end to end: corrupt with the chosen generator, then the first available discriminator
    that shares the generator's vocabulary gives P(replaced) per token (its weights load only when it fits)."""
    kind, key = resolve_generator(generator or "auto", model)
    gen = GENERATORS[kind]
    result, tokenizer, device = cache(*CORRUPTIONS).get(
        (kind, key, model, text, int(seed), float(mlm_probability)),
        lambda: gen.corrupt(key, model, text, int(seed), float(mlm_probability), load, load_tokenizer),
    )
    notes = [Note(gen.note)] if gen.note else []
    if "replaced" not in result.actions:
        notes.insert(0, _nothing_replaced(result, int(seed), float(mlm_probability)))
    details = dict(result.details)
    for spec in availability.available_specs("discriminator"):
        if not same_vocabulary(load_tokenizer(spec.key), tokenizer):
            continue
        ids = tuple(details["corrupted_ids"])
        details["replaced_prob"] = list(cache(*REPLACED_PROBS).get((spec.key, ids), lambda: _probs(load(spec.key), ids)))
        notes.append(Note("discriminator", {"model": spec.hf_id}))
        break
    return replace(result, details=details, notes=list(result.notes) + notes, device=device)  # the cached draw stays as drawn


def _nothing_replaced(result: MaskingResult, seed: int, p: float) -> Note:
    """A draw whose discriminator targets are all "original" says why: nothing was masked, or the generator sampled
    the original token back at every masked position (which counts as original, as in the paper)."""
    n = sum(a != "special" for a in result.actions)
    selected = len(result.details.get("masked_positions", ()))
    return Note("nothing_replaced", {"seed": seed, "selected": selected, "n": n, "p": p, "chance": (1 - p) ** n})


def _probs(disc_lm, ids: tuple[int, ...]) -> tuple[float, ...]:
    return tuple(discriminator_probs(disc_lm, list(ids)))
