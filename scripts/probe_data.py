"""The probes' fixed data: tokens with a syntactic label (part of speech) and a semantic label (sense), and the split.

English (WordNet 3.0, Debian `wordnet-base`, WordNet licence): every example sentence of a synset ("the bank
approved the loan") that contains one of the synset's one-word lemmas, in any inflection, gives one token: that word,
labelled with the synset's part of speech (n, v, a, r; adjective satellites count as a) and with the synset itself
(its sense). One source for both labels, on the same tokens. Kept: lemmas with at least two senses that each have at
least three examples (so the sense is ambiguous and every test sense was seen in training); all their tokens.

Chinese: part of speech from jieba's `posseg` (silver: a tagger's output, not a treebank) on the HSK sentences
(scripts/hsk_corpus.py, CC BY-SA 4.0: the file written from them is CC BY-SA 4.0 too), one token per word, their
split (hsk_corpus.held_out); sense from the polysemy presets (assets/polysemy/presets.json): the Chinese, one-word
presets whose two groups are two senses (苹果, 打, 花; 银行's "same_sense" preset is left out, its two groups are one
sense), 24 tokens, each held out in turn (leave-one-out), since 24 tokens cannot spare a test set.

The split is a fixed function of the text (crc32), never of file order or a seed, so every machine gets the same one.

    python scripts/probe_data.py            # writes assets/probes/data-en.json and data-zh.json, prints counts
"""

from __future__ import annotations

import json
import re
import zlib
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "assets" / "probes"
WORDNET_DIR = Path("/usr/share/wordnet")
POS_OF_FILE = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
TOKEN = re.compile(r"[A-Za-z0-9]+(?:['\-][A-Za-z0-9]+)*|[^\sA-Za-z0-9]")  # as scripts/elmo_corpus.py, without '.'
MIN_EXAMPLES = 3  # per sense of a lemma: two to train on and one to test on, at least
TEST_SHARE = 3  # one test token per 3 examples of a sense (at least one), the rest train
MAX_LEMMAS = 0  # 0: every lemma that qualifies (184 of them); a smaller number keeps the first in crc32 order
ZH_PRESETS = ("pingguo", "da", "hua")
HSK_MAX_TRAIN, HSK_MAX_TEST = 1500, 300  # sentences; every word of each is one token

# WordNet's morphy: its detachment rules, written out here because nltk (the library that ships them) needs a
# corpus download this machine cannot make; the exception lists (ran -> run) come from WordNet itself.
DETACH = {
    "n": (("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"), ("ies", "y"), ("s", "")),
    "v": (("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""), ("s", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}


def _exceptions(wordnet_dir: Path) -> dict[str, dict[str, set[str]]]:
    out: dict[str, dict[str, set[str]]] = {}
    for name, pos in POS_OF_FILE.items():
        table: dict[str, set[str]] = defaultdict(set)
        path = wordnet_dir / f"{name}.exc"
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                form, *bases = line.split()
                table[form].update(bases)
        out[pos] = table
    return out


def base_forms(word: str, pos: str, exceptions: dict[str, dict[str, set[str]]]) -> set[str]:
    """Every lemma `word` may be an inflection of, as WordNet's morphy finds candidates (lower case)."""
    word = word.lower()
    forms = {word} | exceptions.get(pos, {}).get(word, set())
    for suffix, ending in DETACH[pos]:
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            forms.add(word[: -len(suffix)] + ending)
    return forms


def wordnet_examples(wordnet_dir: Path = WORDNET_DIR) -> list[dict]:
    """(synset, pos, lemmas, example) for every quoted example of every synset, in file order."""
    if not (wordnet_dir / "data.noun").exists():
        raise FileNotFoundError(f"{wordnet_dir}/data.noun not found: apt-get install wordnet-base")
    out = []
    for name, pos in POS_OF_FILE.items():
        with open(wordnet_dir / f"data.{name}", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("  ") or " | " not in line:
                    continue
                head, gloss = line.rstrip().split(" | ", 1)
                fields = head.split()
                offset, count = fields[0], int(fields[3], 16)
                lemmas = [re.sub(r"\(.*\)$", "", fields[4 + 2 * i]).lower() for i in range(count)]
                lemmas = [w for w in lemmas if "_" not in w]
                for example in re.findall(r'"([^"]+)"', gloss):
                    out.append({"synset": f"{offset}-{pos}", "pos": pos, "lemmas": lemmas, "text": example.strip()})
    return out


def _stable(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def english_tokens(wordnet_dir: Path = WORDNET_DIR, max_lemmas: int = MAX_LEMMAS) -> list[dict]:
    """The English probe tokens: text, character span of the headword, lemma, pos, sense, split ("train"/"test")."""
    exceptions = _exceptions(wordnet_dir)
    found = []
    for ex in wordnet_examples(wordnet_dir):
        for match in TOKEN.finditer(ex["text"]):
            hit = [lemma for lemma in ex["lemmas"] if lemma in base_forms(match.group(), ex["pos"], exceptions)]
            if hit:
                found.append({**ex, "lemma": hit[0], "span": [match.start(), match.end()], "word": match.group().lower()})
                break
    per_sense = Counter((t["lemma"], t["synset"]) for t in found)
    senses_of: dict[str, set[str]] = defaultdict(set)
    for t in found:
        if per_sense[t["lemma"], t["synset"]] >= MIN_EXAMPLES:
            senses_of[t["lemma"]].add(t["synset"])
    lemmas = sorted((w for w, s in senses_of.items() if len(s) >= 2), key=lambda w: (_stable(w), w))[: max_lemmas or None]
    keep = set(lemmas)
    tokens = [t for t in found if t["lemma"] in keep and t["synset"] in senses_of[t["lemma"]]]
    by_sense: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for t in tokens:
        by_sense[t["lemma"], t["synset"]].append(t)
    out = []
    for lemma, synset in sorted(by_sense):
        group = sorted(by_sense[lemma, synset], key=lambda t: (_stable(t["text"]), t["text"]))
        n_test = max(1, len(group) // TEST_SHARE)
        for i, t in enumerate(group):
            out.append(
                {
                    "text": t["text"],
                    "span": t["span"],
                    "word": t["word"],
                    "lemma": t["lemma"],
                    "pos": t["pos"],
                    "sense": synset,
                    "split": "test" if i < n_test else "train",
                }
            )
    return out


def chinese_pos_tokens(max_train: int = HSK_MAX_TRAIN, max_test: int = HSK_MAX_TEST) -> list[dict]:
    """Every word of the first HSK sentences of each split, tagged by jieba.posseg (punctuation, tag x, left out)."""
    import jieba
    import jieba.posseg as posseg
    from hsk_corpus import split

    jieba.setLogLevel(60)  # jieba prints its dictionary loading to stderr otherwise
    train, test = split()
    out = []
    for name, sentences in (("train", train[:max_train]), ("test", test[:max_test])):
        for s in sentences:
            at = 0
            for pair in posseg.cut(s.zh):
                start = s.zh.index(pair.word, at)
                at = start + len(pair.word)
                if pair.flag != "x" and pair.word.strip():
                    out.append({"text": s.zh, "span": [start, at], "word": pair.word, "pos": pair.flag, "split": name})
    return out


def chinese_sense_tokens() -> list[dict]:
    """The presets' target words, with the preset's sense label and jieba's tag of the word in its sentence."""
    import jieba.posseg as posseg

    presets = json.loads((ROOT / "assets" / "polysemy" / "presets.json").read_text(encoding="utf-8"))
    out = []
    for key in ZH_PRESETS:
        preset = presets[key]
        for line in preset["sentences"]:
            label, text = (part.strip() for part in line.split("|", 1))
            start = text.index(preset["word"])
            span = [start, start + len(preset["word"])]
            at, tag = 0, "x"
            for pair in posseg.cut(text):
                begin = text.index(pair.word, at)
                at = begin + len(pair.word)
                if begin <= start < at:
                    tag = pair.flag
                    break
            out.append({"text": text, "span": span, "word": preset["word"], "pos": tag, "sense": f"{preset['word']}:{label}"})
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    en = english_tokens()
    zh = {"pos": chinese_pos_tokens(), "sense": chinese_sense_tokens()}
    (OUT / "data-en.json").write_text(json.dumps(en, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    (OUT / "data-zh.json").write_text(json.dumps(zh, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    split = Counter(t["split"] for t in en)
    print(f"en: {len(en)} tokens ({split}), {len({t['lemma'] for t in en})} lemmas, {len({t['sense'] for t in en})} senses")
    print(f"en pos: {Counter(t['pos'] for t in en)}")
    print(
        f"zh pos: {len(zh['pos'])} tokens ({Counter(t['split'] for t in zh['pos'])}), {len({t['pos'] for t in zh['pos']})} tags"
    )
    print(f"zh sense: {len(zh['sense'])} tokens, tags {Counter(t['pos'] for t in zh['sense'])}")


if __name__ == "__main__":
    main()
