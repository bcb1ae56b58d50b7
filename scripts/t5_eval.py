"""How well the classroom T5 translates the held-out HSK sentences, and whether its cross-attention lines words up.

Three measures, each in both directions (Chinese -> English, English -> Chinese), greedy decoding:

- **chrF** (sacrebleu's `corpus_chrf`, character 6-grams, beta 2) of the outputs against the package's translations.
- **key word**: a sentence's key word is, among its words (the package's segmentation) that jieba's dictionary tags
  as a noun or a verb (tag n* or v*) and whose CC-CEDICT senses share a content word with the reference English
  (`matches`), the longest (ties: the rarer by jieba's count, then the first). Chinese -> English: translated when
  a content word of its CC-CEDICT senses is in the output (`matches`); English -> Chinese: when the word itself is
  in the output. Sentences without such a word are not counted.
- **alignment**: the dictionary pairs of a sentence are its words whose CC-CEDICT senses match exactly one word of
  the reference English (teacher-forced: the model reads the source and is fed the reference translation). For
  each pair, the source word's cross-attention (summed over its tokens; averaged over heads, over all decoder
  layers and, separately, the last) goes to one decoder step most strongly; it is a hit when that step writes a
  token of the word's dictionary translation. The reverse reading (a translation word's steps look most at which
  source token) and chance (the translation's share of the target tokens; for the reverse, the source word's share
  of the source tokens, task prefix included) are reported too.

    python scripts/t5_eval.py                    # the bundled model (through the registry), all 432 held-out
    python scripts/t5_eval.py --subset 40 --write assets/t5_classroom/eval_subset.json
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import t5_data as data  # noqa: E402

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


def stem(word: str) -> str:
    """A crude English stem, enough to let 'books' match 'book' and 'helped' match 'help'."""
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def english_words(text: str) -> list[tuple[str, int, int]]:
    return [(m.group().lower(), m.start(), m.end()) for m in _WORD.finditer(text)]


def matches(glosses: set[str], text: str) -> list[tuple[int, int]]:
    """Character spans of the words of `text` that a gloss word matches (equal stems)."""
    stems = {stem(g) for g in glosses}
    return [(a, b) for w, a, b in english_words(text) if stem(w) in stems]


@dataclass(frozen=True)
class Lexicon:
    senses: dict
    counts: dict
    tags: dict

    @classmethod
    @functools.cache  # 2-3 s of parsing: once per process (the integration tests ask twice)
    def load(cls) -> Lexicon:
        return cls(data.cedict_senses(), data.jieba_counts(), data.jieba_tags())

    def glosses(self, word: str) -> set[str]:
        return data.gloss_words(self.senses.get(word, []))


def key_word(sentence, lex: Lexicon) -> str:
    """The sentence's key content word (see the module doc), or "" when it has none."""
    best = None
    for i, word in enumerate(sentence.words):
        if not lex.tags.get(word, "").startswith(("n", "v")) or not matches(lex.glosses(word), sentence.en):
            continue
        rank = (len(word), -lex.counts.get(word, 0), -i)
        if best is None or rank > best[0]:
            best = (rank, word)
    return best[1] if best else ""


def dictionary_pairs(sentence, lex: Lexicon) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(zh span, en span) character spans of the words whose senses match exactly one English word, each zh word once."""
    pairs, start = [], 0
    for word in sentence.words:
        at = sentence.zh.find(word, start)
        if at < 0:
            continue
        start = at + len(word)
        if sentence.zh.count(word) != 1:
            continue
        found = matches(lex.glosses(word), sentence.en)
        if len(found) == 1:
            pairs.append(((at, at + len(word)), found[0]))
    return pairs


def _token_index(offsets, span, shift=0) -> list[int]:
    a, b = span[0] + shift, span[1] + shift
    return [i for i, (s, e) in enumerate(offsets) if e > s and s < b and e > a]


def alignment(model, tokenizer, sentences, lex: Lexicon) -> dict:
    """The cross-attention alignment hit rates (module doc), per direction, over the sentences' dictionary pairs."""
    import torch

    out = {}
    for direction, prefix, src_of, tgt_of, flip in (
        ("zh_en", data.ZH_EN, lambda s: s.zh, lambda s: s.en, False),
        ("en_zh", data.EN_ZH, lambda s: s.en, lambda s: s.zh, True),
    ):
        counts = {"pairs": 0, "all_layers": 0, "last_layer": 0, "reverse_all_layers": 0, "chance": 0.0, "reverse_chance": 0.0}
        for s in sentences:
            pairs = dictionary_pairs(s, lex)
            if not pairs:
                continue
            src = tokenizer(prefix + src_of(s), return_offsets_mapping=True, return_tensors="pt")
            tgt = tokenizer(tgt_of(s), return_offsets_mapping=True, return_tensors="pt")
            with torch.no_grad():
                run = model(
                    input_ids=src.input_ids.to(model.device),
                    attention_mask=src.attention_mask.to(model.device),
                    labels=tgt.input_ids.to(model.device),
                    output_attentions=True,
                )
            if not run.cross_attentions or run.cross_attentions[0] is None:
                raise ValueError("load the model with attn_implementation='eager': SDPA returns no attention weights")
            layers = torch.stack([a[0].float().mean(0) for a in run.cross_attentions])  # layers x steps x source
            for name, att in (("all_layers", layers.mean(0)), ("last_layer", layers[-1])):
                for zh_span, en_span in pairs:
                    src_span, tgt_span = (en_span, zh_span) if flip else (zh_span, en_span)
                    s_tok = _token_index(src.offset_mapping[0].tolist(), src_span, len(prefix))
                    t_tok = _token_index(tgt.offset_mapping[0].tolist(), tgt_span)
                    if not s_tok or not t_tok:
                        continue
                    step = int(att[:, s_tok].sum(1).argmax())  # row t is the step that writes target token t
                    counts[name] += step in t_tok
                    if name == "all_layers":
                        counts["pairs"] += 1
                        counts["chance"] += len(t_tok) / att.shape[0]
                        counts["reverse_chance"] += len(s_tok) / att.shape[1]
                        source_token = int(att[t_tok].sum(0).argmax())
                        counts["reverse_all_layers"] += source_token in s_tok
        n = max(counts["pairs"], 1)
        out[direction] = {
            "pairs": counts["pairs"],
            "all_layers": round(counts["all_layers"] / n, 3),
            "last_layer": round(counts["last_layer"] / n, 3),
            "reverse_all_layers": round(counts["reverse_all_layers"] / n, 3),
            "chance": round(counts["chance"] / n, 3),
            "reverse_chance": round(counts["reverse_chance"] / n, 3),
        }
    return out


def evaluate(model, tokenizer, sentences, lex: Lexicon | None = None) -> dict:
    """chrF, key word and alignment over `sentences` (module doc), as a JSON-able dict."""
    from train_t5 import chrf, translate

    lex = lex or Lexicon.load()
    model.eval()
    zh_en = translate(model, tokenizer, [data.ZH_EN + s.zh for s in sentences])
    en_zh = translate(model, tokenizer, [data.EN_ZH + s.en for s in sentences])
    keys = [key_word(s, lex) for s in sentences]
    with_key = [i for i, k in enumerate(keys) if k]
    hit_en = [i for i in with_key if matches(lex.glosses(keys[i]), zh_en[i])]
    hit_zh = [i for i in with_key if keys[i] in en_zh[i]]
    return {
        "sentences": len(sentences),
        "chrf": {"zh_en": chrf(zh_en, [s.en for s in sentences]), "en_zh": chrf(en_zh, [s.zh for s in sentences])},
        "key_word": {
            "sentences_with_one": len(with_key),
            "zh_en": round(len(hit_en) / max(len(with_key), 1), 3),
            "en_zh": round(len(hit_zh) / max(len(with_key), 1), 3),
        },
        "alignment": alignment(model, tokenizer, sentences, lex),
        "examples": [
            {"zh": sentences[i].zh, "en": sentences[i].en, "key": keys[i], "zh_en": zh_en[i], "en_zh": en_zh[i]}
            for i in range(min(8, len(sentences)))
        ],
    }


def held_out(subset: int = 0):
    """The held-out HSK sentences (hsk_corpus's split), or its first `subset` in the package's order."""
    held = data.hsk_splits()[2]
    return held[:subset] if subset else held


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--subset", type=int, default=0, help="only the first N held-out sentences (0: all)")
    parser.add_argument("--folder", type=Path, default=None, help="a saved model folder instead of the registry's")
    parser.add_argument("--write", type=Path, default=None, help="write the result here as JSON")
    args = parser.parse_args()

    import torch

    torch.set_num_threads(1)
    if args.folder:
        from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

        model = AutoModelForSeq2SeqLM.from_pretrained(args.folder, attn_implementation="eager").float()
        tokenizer = AutoTokenizer.from_pretrained(args.folder)
    else:
        from playground import models

        loaded = models.load("t5-classroom")
        model, tokenizer = loaded.model, loaded.tokenizer
    result = evaluate(model, tokenizer, held_out(args.subset))
    text = json.dumps(result, indent=2, ensure_ascii=False)
    print(text)
    if args.write:
        args.write.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
