"""Build assets/mlm_lab/medicine.txt, the MLM lab's sample corpus, from Princeton WordNet 3.0.

Medical glosses and usage examples: the WordNet entries whose definition mentions a medical
keyword (disease, infection, tissue, ...), written as plain sentences ("Hepatitis is an
inflammation of the liver ..."). Reads Debian's `wordnet-base` (apt-get install wordnet-base);
WordNet 3.0 licence: /usr/share/doc/wordnet-base/copyright (copied to assets/mlm_lab/LICENSE-WordNet).

    python scripts/make_sample_corpus.py
"""

from __future__ import annotations

import re
from pathlib import Path

WORDNET = Path("/usr/share/wordnet")
OUT = Path(__file__).resolve().parent.parent / "assets" / "mlm_lab"
KEYWORDS = re.compile(
    r"\b(disease|diseases|infection|infections|inflammation|symptom|symptoms|tissue|tissues|gland|glands|tumor|"
    r"syndrome|disorder|patient|patients|surgery|surgical|medical|medicine|drug|drugs|virus|bacteria|bacterial|"
    r"blood|organ|organs|chronic|acute|fever|pain|therapy|treatment|diagnosis|physician|nerve|nerves|artery|"
    r"kidney|liver|lungs?|heart|cancer|hormone|hormones|vaccine|antibiotic|inflamed|dose|clinical)\b",
    re.IGNORECASE,
)
LIMIT_CHARS = 150_000


def sentences() -> list[str]:
    out, seen = [], set()
    for part in ("noun", "adj", "verb"):
        for line in (WORDNET / f"data.{part}").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("  ") or "|" not in line:
                continue
            head, gloss = line.split("|", 1)
            lemma = re.sub(r"\(.*?\)$", "", head.split()[4]).replace("_", " ")
            pieces = [p.strip() for p in gloss.split(";") if p.strip()]
            definition = next((p for p in pieces if not p.startswith('"')), "")
            if not KEYWORDS.search(definition) or "(" in definition:
                continue
            if part == "noun":
                text = f"{lemma.capitalize()} is {'an' if definition[0] in 'aeiou' else 'a'} {definition}."
                if re.match(r"^(a|an|the|any|one|two|some)\b", definition):
                    text = f"{lemma.capitalize()} is {definition}."
            else:
                text = f"{lemma.capitalize()} means {definition}."
            examples = [p.strip('"').strip() for p in pieces if p.startswith('"') and len(p.split()) >= 4]
            for s in [text] + [e[0].upper() + e[1:] + ("" if e[-1] in ".!?" else ".") for e in examples]:
                if s not in seen and len(s) < 300:
                    seen.add(s)
                    out.append(s)
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    kept, size = [], 0
    for s in sentences():
        if size + len(s) + 1 > LIMIT_CHARS:
            break
        kept.append(s)
        size += len(s) + 1
    (OUT / "medicine.txt").write_text("\n".join(kept) + "\n", encoding="utf-8")
    (OUT / "LICENSE-WordNet").write_text(Path("/usr/share/doc/wordnet-base/copyright").read_text(encoding="utf-8"))
    print(f"{len(kept)} sentences, {size} characters")


if __name__ == "__main__":
    main()
