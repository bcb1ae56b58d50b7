"""Build assets/mlm_lab/gimp-zh.txt, the MLM lab's Chinese sample corpus, from the GIMP user manual in Chinese.

The Simplified-Chinese GIMP 2 user manual as Debian ships it (`apt-get install gimp-help-zh-cn`): its HTML pages'
visible text, split into sentences at 。！？； (scripts/e5_corpus.sentences_of: 5-200 characters, at least half of
them Chinese), deduplicated, in file order. The pages of the GNU FDL itself and its translation (gfdl-*.html,
legal.html) are left out: they are the licence, not the manual's domain. Only part of the manual is translated
(about 185 of its 685 pages have Chinese sentences), so the corpus is small.

This text is kept out of e5-mlm's training (scripts/e5_corpus.RESERVED), so a lab run on it shows adaptation to
text the model never saw.

Licence: GFDL 1.2 or later, no Invariant Sections, no Front-Cover or Back-Cover Texts
(/usr/share/doc/gimp-help-zh-cn/copyright, copied to assets/mlm_lab/LICENSE-GIMP-help together with the GFDL 1.2
text). The corpus is a modified version of the manual (sentences extracted); the notice says so and by whom.

    python scripts/make_chinese_sample_corpus.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from e5_corpus import _html_text, sentences_of  # noqa: E402

MANUAL = Path("/usr/share/gimp/2.0/help/zh_CN")
COPYRIGHT = Path("/usr/share/doc/gimp-help-zh-cn/copyright")
GFDL = Path("/usr/share/common-licenses/GFDL-1.2")
OUT = ROOT / "assets" / "mlm_lab"
LICENCE_PAGES = ("gfdl", "legal")  # the licence's own pages


def sentences() -> list[str]:
    out, seen = [], set()
    for page in sorted(MANUAL.glob("*.html")):
        if page.name.startswith(LICENCE_PAGES):
            continue
        for sent in sentences_of(_html_text(page), shortest=5, longest=200):
            if sent not in seen:
                seen.add(sent)
                out.append(sent)
    return out


NOTICE = """The MLM lab's Chinese sample corpus (assets/mlm_lab/gimp-zh.txt) is a modified version of the
GIMP 2 user manual in Simplified Chinese, as shipped by Debian's gimp-help-zh-cn package: the sentences of its
HTML pages, extracted by scripts/make_chinese_sample_corpus.py (Transformer Playground), one per line. Nothing
was added or reworded; pages and sentences were left out (the licence's own pages, short or mostly non-Chinese
lines, repeats).

Copyright 2002-2010 The GIMP Documentation Team (see /usr/share/doc/gimp-help-zh-cn/AUTHORS).
Permission is granted to copy, distribute and/or modify this document under the terms of the GNU Free
Documentation License, version 1.2 or any later version published by the Free Software Foundation, with no
Invariant Sections, no Front-Cover Texts, and no Back-Cover Texts. The text of version 1.2 follows the Debian
copyright file below.

----- /usr/share/doc/gimp-help-zh-cn/copyright -----
"""


def main() -> None:
    kept = sentences()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "gimp-zh.txt").write_text("\n".join(kept) + "\n", encoding="utf-8")
    licence = NOTICE + COPYRIGHT.read_text(encoding="utf-8") + "\n----- GFDL 1.2 -----\n" + GFDL.read_text(encoding="utf-8")
    (OUT / "LICENSE-GIMP-help").write_text(licence, encoding="utf-8")
    print(f"{len(kept)} sentences, {sum(len(s) + 1 for s in kept)} characters")


if __name__ == "__main__":
    main()
