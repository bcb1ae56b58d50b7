"""The MLM lab as a script: the course's exercise, fine-tuning a masked LM with the Trainer API, for the exact run.

The script reads the corpus file, holds out the same 10 % (the playground's own sentence splitter and seeded
split, so the sentences are the page's), and trains with `Trainer` + `TrainingArguments` built from the same
option table the lab trains with (`training.trainer_options`) over `DataCollatorForLanguageModeling`. It
prints the held-out loss before and after. On a GPU at home it runs as it is (Trainer picks the device).
Its held-out loss is not the page's to the digit: the page scores one fixed draw of masks, `trainer.evaluate`
draws new ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from playground import checks
from playground.mlm_lab import corpus as corpus_mod
from playground.mlm_lab.training import MAX_HELD_OUT, MAX_TOKENS, LabSettings, check_settings, trainer_options
from playground.registry import get_spec
from playground.snippets import Snippet, comment, header, join, load_model, offline, py

SAMPLE_FILE = "assets/mlm_lab/medicine.txt"  # the default sample, relative to the playground's folder
SETTINGS = ("base", "whole_word", "mlm_probability", "learning_rate", "max_steps", "max_seconds", "seed")
PARAMS = {"corpus", "use_sample", "sample", *SETTINGS}  # /mlm_lab_train's (lang aside)


@dataclass(frozen=True)
class LabCodeRequest:
    settings: LabSettings
    corpus_file: str  # the file the script reads (the sample's path, an upload's name, or corpus.txt)


def request_of(params: dict) -> LabCodeRequest:
    """/mlm_lab_train's parameters (the corpus itself is not needed: the script reads it from `corpus_file`)."""
    unknown = set(params) - PARAMS - {"corpus_file"}
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    fields = {k: params[k] for k in SETTINGS if k in params}
    settings = check_settings(LabSettings(**fields))
    use_sample = checks.flag(params.get("use_sample", False), "use_sample")
    sample = corpus_mod.SAMPLES[checks.choice(params.get("sample", "medicine"), "sample", corpus_mod.SAMPLES)]
    default = f"assets/mlm_lab/{sample.file}" if use_sample else "corpus.txt"
    name = checks.text(params.get("corpus_file") or default, "corpus_file", 200)
    return LabCodeRequest(settings, name)


def _indented(text: str, spaces: int) -> list[str]:
    return [" " * spaces + line for line in text.splitlines()]


def lab_code(request: LabCodeRequest) -> Snippet:
    """The Trainer script of one lab run: corpus file, base model, settings and seed as the page ran them."""
    s = request.settings
    partial = get_spec(s.base).partial_head  # e5-mlm: blanks only where its head answers (training.answered_pieces)
    lines = header(
        "MLM lab, fine-tuning with the Trainer API",
        "MLM 实验室：用 Trainer API 微调",
        "import math",
        "",
        "from transformers import (\n    AutoModelForMaskedLM,\n    AutoTokenizer,\n    DataCollatorForLanguageModeling,"
        "\n    Trainer,\n    TrainingArguments,\n)",
        "",
        comment(
            "the playground's sentence splitter and held-out split: the same sentences as the page",
            "游乐场的分句与留出划分：与页面上的句子相同",
        ),
        "from playground.mlm_lab.corpus import sentences, split",
        *(["from playground.mlm_lab.training import word_gaps"] if s.whole_word else []),
    )
    lines += [
        f"corpus_file = {py(request.corpus_file)}",
        f"seed = {s.seed}",
        'texts = sentences(open(corpus_file, encoding="utf-8").read())',
        comment(f"{corpus_mod.HELD_OUT_FRACTION:.0%} held out, by the seed", f"按种子留出 {corpus_mod.HELD_OUT_FRACTION:.0%}"),
        "train_texts, held_texts = split(texts, seed)",
        'print(f"{len(train_texts)} training sentences, {len(held_texts)} held out")',
        "",
        *load_model(s.base, "AutoModelForMaskedLM"),
        "model = model.float()  "
        + comment("train in float32 (weights load in half precision on a GPU)", "用 float32 训练（GPU 上权重以半精度加载）"),
        *(
            [
                "",
                comment(
                    "its head answers only the pieces it was trained on (the rest share one lowest bias): "
                    "the rest count as special tokens, never hidden (as on the page)",
                    "它的预测头只回答训练过的词元（其余共用最低偏置）：其余当作特殊词元，不遮盖（与页面相同）",
                ),
                "bias = model.get_output_embeddings().bias",
                "answered = (bias > bias.min()).tolist()",
            ]
            if partial
            else []
        ),
        "",
        "",
        "def encode(texts):",
        "    enc = tokenizer(",
        f"        texts, truncation=True, max_length={MAX_TOKENS}, return_special_tokens_mask=True,",
        *(
            [
                *_indented(
                    comment(
                        "whole words: the collator finds them by the offsets, which it pads only when rows are one length",
                        "整词掩码：数据整理器靠 offsets 找词，且只在各行等长时才能补齐",
                    ),
                    8,
                ),
                '        return_offsets_mapping=True, padding="longest",',
            ]
            if s.whole_word
            else []
        ),
        "    )",
        *(
            [
                *_indented(
                    comment(
                        "Chinese text: a gap before each word jieba finds, so whole words are its words, as on the page",
                        "中文文本：在 jieba 切出的每个词前留出间隔，整词即 jieba 的词，与页面相同",
                    ),
                    4,
                ),
                '    enc["offset_mapping"] = [word_gaps(t, o) for t, o in zip(texts, enc["offset_mapping"])]',
            ]
            if s.whole_word
            else []
        ),
        *(
            [
                '    enc["special_tokens_mask"] = [',
                "        [int(s or not answered[i]) for s, i in zip(sp, ids)]",
                '        for sp, ids in zip(enc["special_tokens_mask"], enc["input_ids"])',
                "    ]",
            ]
            if partial
            else []
        ),
        "    return [dict(zip(enc.keys(), row)) for row in zip(*enc.values())]",
        "",
        "",
        "collator = DataCollatorForLanguageModeling(",
        f"    tokenizer, mlm_probability={s.mlm_probability!r}, whole_word_mask={s.whole_word!r}, seed=seed",
        ")",
        f"train_set, held_set = encode(train_texts), encode(held_texts[:{MAX_HELD_OUT}])",
        "args = TrainingArguments(",
        '    output_dir="mlm-lab-run",',
        *[f"    {k}={py(v) if k != 'seed' else 'seed'}," for k, v in trainer_options(s).items()],
        ")",
        "trainer = Trainer(model=model, args=args, train_dataset=train_set, eval_dataset=held_set, data_collator=collator)",
        'before = trainer.evaluate()["eval_loss"]',
        'print(f"held-out loss before: {before:.4f} (perplexity {math.exp(before):.2f})")',
        "trainer.train()",
        'after = trainer.evaluate()["eval_loss"]',
        'print(f"held-out loss after:  {after:.4f} (perplexity {math.exp(after):.2f})")',
        comment("keep your model (a folder AutoModelForMaskedLM loads)", "保存你的模型（AutoModelForMaskedLM 能加载的文件夹）"),
        'trainer.save_model("my-mlm")',
        'tokenizer.save_pretrained("my-mlm")',
    ]
    if s.max_seconds < 300:
        lines.insert(
            lines.index("trainer.train()"),
            comment(
                f"the page stops a run after {s.max_seconds:g} s; this script runs every step",
                f"页面上的训练最多运行 {s.max_seconds:g} 秒；这个脚本会跑完每一步",
            ),
        )
    return Snippet(join(lines), offline([s.base]))


VIEWS = {"mlm_lab": (request_of, lab_code)}
