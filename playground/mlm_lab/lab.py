"""The MLM lab's backend entry: corpus + settings in, before/after measurements and a fine-tuned model out.

`run_mlm_lab(LabRequest, runtime, progress)` checks the request, splits the corpus (10 % held out by
seed), finds the corpus's domain words and their held-out probes, measures the base model, trains a
private copy with transformers' Trainer (playground.mlm_lab.trainer) and measures it again. It reports
through one `LabProgress` object, so the worker process can stream it to the server; it keeps no state.
It seeds the global RNGs (Trainer does): the app runs it only in its worker (playground.mlm_lab.worker).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path

from playground import availability, checks
from playground.errors import InputError
from playground.mlm_lab import corpus as corpus_mod
from playground.mlm_lab.training import (
    LAB_KINDS,
    CurvePoint,
    DomainRow,
    LabResult,
    LabSettings,
    ProbeCompare,
    answered_pieces,
    check_settings,
    evaluate,
    fixed_eval_batches,
    locate,
    planned_schedule,
    read_probes,
    trainable_copy,
)
from playground.models import LoadedModel
from playground.runtime import Runtime
from playground.registry import LAB_MODEL_ID, LAB_MODEL_KEY, LAB_MODEL_LABEL, get_spec

DOMAIN_WORDS = 12  # rows of the domain-word table
PROBES_SHOWN = 6  # probe sentences shown side by side


@dataclass(frozen=True)
class LabRequest:
    corpus: str  # the text itself (the UI reads an upload or the sample into it); at most MAX_CORPUS_CHARS
    settings: LabSettings = LabSettings()


def _english_ranks() -> tuple[dict[str, int], str]:
    """Frequency rank of each word in general English (the bundled GloVe 6B's vocabulary order), and its name."""
    try:
        spec = get_spec("glove")
        folder = availability.bundle_dir(spec)
        if folder is None:
            return {}, ""
        import pyarrow.parquet as pq  # deferred: pyarrow takes a second to import; only the bundled tables need it

        (index,) = sorted(folder.glob("*_index.parquet"))
        words = pq.read_table(index).column(0).to_pylist()
        return {w: i + 1 for i, w in enumerate(words)}, spec.hf_id
    except (ValueError, OSError):
        return {}, ""


def _chinese_ranks() -> tuple[dict[str, int], str]:
    """Frequency rank of each Chinese word in jieba's dictionary (its counts, largest first), and its name."""
    try:
        import jieba  # deferred: jieba is slow to import; only Chinese text needs it

        path = Path(jieba.__file__).parent / "dict.txt"
        counts = []
        for line in path.read_text(encoding="utf-8").splitlines():
            word, count, *_ = line.split(" ")
            if corpus_mod.is_chinese(word):
                counts.append((-int(count), word))
        return {w: i + 1 for i, (_, w) in enumerate(sorted(counts))}, "jieba dict.txt"
    except (ImportError, OSError, ValueError):
        return {}, ""


@functools.lru_cache(maxsize=1)
def general_ranks() -> tuple[dict[str, int], str]:
    """Each word's frequency rank in general text of its language (English: GloVe 6B; Chinese: jieba's
    dictionary), and the references' names. The two vocabularies share no word (letters vs CJK characters)."""
    english, en_name = _english_ranks()
    chinese, zh_name = _chinese_ranks()
    english = {w: r for w, r in english.items() if not corpus_mod.is_chinese(w)}
    return {**english, **chinese}, " + ".join(n for n in (en_name, zh_name) if n)


def check_base(key: str) -> None:
    checks.model_key(key, "base", LAB_KINDS)


# Past this share of a corpus's tokens read as the unknown token, the lab refuses the base: one blank in five would
# teach it to predict [UNK] (minilm-mlm reads 69 % of the Chinese sample so, and "learned" from 8.99 to 4.43).
MAX_UNKNOWN_SHARE = 0.2


def check_readable(texts: list[str], tokenizer, spec) -> None:
    """Refuse (InputError, naming the bases that read its language here) a corpus the base reads mostly as its
    unknown token. A Chinese corpus asks for a base that reads Chinese; any other, for one that reads English."""
    unk = tokenizer.unk_token_id
    if unk is None:  # a byte-level vocabulary reads every text
        return
    ids = tokenizer(texts, add_special_tokens=False)["input_ids"]
    total, unknown = sum(map(len, ids)), sum(i == unk for row in ids for i in row)
    if not total or unknown / total <= MAX_UNKNOWN_SHARE:
        return
    chinese = sum(corpus_mod.is_chinese(c) for text in texts for c in text)
    lang = "zh" if chinese * 2 > sum(c.isalpha() for text in texts for c in text) else "en"
    readers = [s.key for s in availability.available_specs(*LAB_KINDS) if s.speaks(lang) and s.key != spec.key]
    raise InputError(
        "lab_unreadable_corpus",
        "{model} reads {share} of this corpus as its unknown token {unk}: it would learn to predict {unk}. "
        "Choose a base that reads the corpus's language: {readers}.",
        model=spec.label,
        share=f"{unknown / total:.0%}",
        unk=tokenizer.unk_token,
        readers=", ".join(readers) or "—",
    )


class LabProgress:
    """What a training tells as it runs, and whether it should stop (one object; this one hears nothing)."""

    def point(self, point: CurvePoint) -> None:
        """A curve point: a step's training loss, or a held-out loss."""

    def phase(self, phase: str, partial: LabResult | None = None) -> None:
        """before | training | after; `partial` is the result so far (the "before" measurements)."""

    def should_stop(self) -> bool:
        return False


def lab_base(key: str, texts: list[str], runtime: Runtime) -> LoadedModel:
    """The base a training starts from, loaded through `runtime` (damaged or missing files refused in words by the
    load path), refused too when it has no mask token or reads `texts` mostly as its unknown token.

    The runner calls it before a job queues (a refusal at once, no worker started) and the training again in its
    worker: one list of what makes a base unusable."""
    base = runtime.model(key)
    check_readable(texts, base.tokenizer, base.spec)
    if base.tokenizer.mask_token is None:
        raise InputError("no_mask_token", "{model} has no mask token: it cannot fill in blanks.", model=base.spec.label)
    return base


def run_mlm_lab(
    request: LabRequest, runtime: Runtime, progress: LabProgress | None = None, ranks: dict[str, int] | None = None
) -> tuple[LabResult, LoadedModel | None]:
    """Measure, train, measure again. Returns the result and the fine-tuned model (None if cancelled before step 1).

    `ranks`: words' general frequency ranks (default: the bundled GloVe's vocabulary order).
    """
    from playground.mlm_lab.trainer import train  # transformers' Trainer: only where a training runs

    progress = progress or LabProgress()
    on_phase, should_stop = progress.phase, progress.should_stop
    settings = check_settings(request.settings)
    check_base(settings.base)
    texts = corpus_mod.sentences(request.corpus)
    train_texts, held = corpus_mod.split(texts, settings.seed)
    if ranks is None:
        ranks, reference = general_ranks()
    else:
        reference = "given"
    on_phase("before")
    base = lab_base(settings.base, texts, runtime)
    tok = base.tokenizer

    def single_token(word: str) -> bool:
        """The model reads the part a probe hides as one token (the word, or a Chinese word's last character)."""
        hidden = corpus_mod.hidden_part(word)
        pieces = tok.tokenize(" " + word)
        return len(pieces) == 1 if hidden == word else tok.convert_tokens_to_string(pieces[-1:]).strip() == hidden

    candidates = corpus_mod.domain_words(train_texts, ranks, single_token, k=4 * DOMAIN_WORDS)
    answers = answered_pieces(base)  # e5-mlm's head answers part of the vocabulary: blanks (and probes) only there
    located, rows_src = [], []
    for probe in corpus_mod.probes(held, candidates):
        where = locate(tok, probe)
        if where is not None and (answers is None or answers[where[2]]) and len(rows_src) < DOMAIN_WORDS:
            located.append(where)
            rows_src.append((probe, next(d for d in candidates if d.word == probe.word)))
    eval_batches = fixed_eval_batches(tok, held, settings, answers)
    before = evaluate(base, eval_batches)
    readings = read_probes(base, located)
    domain = [
        DomainRow(dw.word, dw.count, dw.general_rank, probe.masked, reading) for (probe, dw), reading in zip(rows_src, readings)
    ]
    probes = [ProbeCompare(row.probe, row.word, row.before) for row in domain[:PROBES_SHOWN]]
    notes = [] if domain else ["no_probes"]
    result = LabResult(
        settings, base.spec.hf_id, str(base.device), len(train_texts), len(held), 0, 0.0, "running", before, None, [],
        planned_schedule(settings), probes, domain, reference, notes,
    )  # fmt: skip
    on_phase("training", result)
    if should_stop():
        return replace(result, stopped="cancelled"), None
    tuned = trainable_copy(base)
    curve: list[CurvePoint] = []

    def record(point: CurvePoint) -> None:
        curve.append(point)
        progress.point(point)

    steps, seconds, why = train(tuned, train_texts, eval_batches, settings, record, should_stop, answers=answers)
    on_phase("after")
    after = evaluate(tuned, eval_batches)
    final = CurvePoint(steps, seconds, 0.0, held_loss=after.loss)
    record(final)
    after_readings = read_probes(tuned, located)
    domain = [replace(row, after=r) for row, r in zip(domain, after_readings)]
    probes = [replace(p, after=row.after) for p, row in zip(probes, domain)]
    spec = replace(
        base.spec,
        key=LAB_MODEL_KEY,  # reserved: never a registry key, so no shared cache can hold or serve it
        hf_id=LAB_MODEL_ID.format(base=base.spec.key, steps=steps),  # provenance: not the base's weights
        label=LAB_MODEL_LABEL.format(base=base.spec.label, steps=steps),
    )
    tuned = LoadedModel(spec, tuned.model, tok, tuned.device)
    result = replace(result, steps=steps, seconds=seconds, stopped=why, after=after, curve=curve, probes=probes, domain=domain)
    return result, (tuned if steps > 0 else None)
