"""e5-mlm measured the same way before and after a run: everyday Chinese (held-out HSK), English, the course's example.

One function, `evaluate(model, tokenizer)`, for the script and the integration tests alike. Every number is over the
whole vocabulary (250k pieces, as the fill-mask tab ranks them), so overlays trained with different softmax
restrictions are measured alike:

- **held-out HSK**: scripts/hsk_corpus.py's held-out split (432 sentences no e5-mlm run reads), one blank per
  sentence: a Chinese character that is one piece of the vocabulary, drawn by a generator seeded with the sentence's
  id (`hsk_blanks`), so the blanks do not depend on the order, the subset or the run. Loss (mean cross-entropy at
  the blank, nats) and hit@5 (the hidden character among the top 5).
- **held-out English**: the 300 WordNet texts train_e5_mlm.py holds out (the first 300 of `split(.., seed 0, 500)`),
  ~15 % of their words hidden (`e5_mlm_data.mask_text`), each text's masks drawn by a generator seeded with its
  index. Loss and hit@5 over every hidden word.
- **probes**: hit@5 on assets/e5_mlm/probes.json (zh, en), as train_e5_mlm.py reports them.
- **the course's example** 我[MASK]自然语言处理。: the rank of 爱 (1 = the top answer) and the top 5.

    python scripts/e5_mlm_eval.py                                   # the bundled overlay
    python scripts/e5_mlm_eval.py --overlay /work/ckpt/x/overlay.safetensors
    python scripts/e5_mlm_eval.py --subset 100 --write-summary this_overlay   # into summary.json["evaluation"]

summary.json["evaluation"]["this_overlay"] is the committed overlay's measure (the fill-mask tab reads its held-out
HSK hit@5 from there); ["previous_overlay"] the one it replaced, measured by this same code.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

COURSE_TEXT = "我<mask>自然语言处理。"  # the course's MLM example; <mask> is e5's own mask token
COURSE_ANSWER = "爱"
EN_HELD_OUT = 300  # train_e5_mlm.py's held-out English texts (the first 300 of its 500)
_CJK = re.compile(r"[\u4e00-\u9fff]")


def hsk_blanks(sentences, tokenizer) -> list[tuple[str, int]]:
    """(text with one "<mask>", the hidden piece's id) per sentence that has a one-piece Chinese character."""
    out = []
    for s in sentences:
        spots = [m for m in _CJK.finditer(s.zh) if tokenizer.convert_tokens_to_ids(m.group()) != tokenizer.unk_token_id]
        if not spots:
            continue
        m = random.Random(f"hsk-blank-{s.id}").choice(spots)
        out.append((s.zh[: m.start()] + tokenizer.mask_token + s.zh[m.end() :], tokenizer.convert_tokens_to_ids(m.group())))
    return out


def english_blanks(tokenizer) -> list[tuple[str, list[int]]]:
    """(masked text, hidden piece ids) for train_e5_mlm.py's held-out English texts, masks seeded per text."""
    from e5_mlm_data import mask_text
    from mlm_head_common import split, wordnet_texts

    _train, held = split(wordnet_texts(), 0, 500)
    return [mask_text(text, random.Random(f"en-blank-{i}"), tokenizer) for i, text in enumerate(held[:EN_HELD_OUT])]


def _scores(model, tokenizer, blanks: list[tuple[str, list[int]]], batch: int = 50) -> tuple[float, float, int]:
    """(mean cross-entropy, hit@5, positions) over every mask of `blanks`, full-vocabulary logits."""
    import torch
    import torch.nn.functional as F

    total, hits, n = 0.0, 0, 0
    with torch.inference_mode():
        for i in range(0, len(blanks), batch):
            texts, labels = zip(*blanks[i : i + batch])
            enc = tokenizer(list(texts), truncation=True, max_length=128, padding=True, return_tensors="pt")
            h = model.bert(**enc).last_hidden_state
            rows, cols, ys = [], [], []
            for row, want in enumerate(labels):
                found = (enc.input_ids[row] == tokenizer.mask_token_id).nonzero().flatten().tolist()
                if len(found) != len(want):
                    continue  # truncated, or the text spelled a mask itself
                rows += [row] * len(found)
                cols += found
                ys += want
            if not ys:
                continue
            logits = model.cls(h[rows, cols]).float()
            y = torch.tensor(ys)
            total += float(F.cross_entropy(logits, y, reduction="sum"))
            hits += int((logits.topk(5).indices == y[:, None]).any(-1).sum())
            n += len(ys)
    return total / n, hits / n, n


def course_example(model, tokenizer) -> dict:
    """Where 爱 ranks for 我[MASK]自然语言处理。 over the whole vocabulary, and the top 5."""
    import torch

    enc = tokenizer(COURSE_TEXT.replace("<mask>", tokenizer.mask_token), return_tensors="pt")
    pos = int((enc.input_ids[0] == tokenizer.mask_token_id).nonzero()[0])
    with torch.inference_mode():
        logits = model(**enc).logits[0, pos].float()
    answer = tokenizer.convert_tokens_to_ids(COURSE_ANSWER)
    top = tokenizer.convert_ids_to_tokens(logits.topk(5).indices.tolist())
    return {"rank": int((logits > logits[answer]).sum()) + 1, "top5": top}


def probe_hits(model, tokenizer) -> dict[str, str]:
    """hit@5 on assets/e5_mlm/probes.json, "hits/probes" per language."""
    import torch

    from e5_mlm_data import PROBES
    from mlm_head_common import answer_hit

    out = {}
    with torch.inference_mode():
        for lang in ("zh", "en"):
            hits = 0
            for p in PROBES[lang]:
                enc = tokenizer(p["text"].replace("<mask>", tokenizer.mask_token), return_tensors="pt")
                pos = int((enc.input_ids[0] == tokenizer.mask_token_id).nonzero()[0])
                top = tokenizer.convert_ids_to_tokens(model(**enc).logits[0, pos].topk(5).indices.tolist())
                hits += answer_hit(top, p["answers"])
            out[lang] = f"{hits}/{len(PROBES[lang])}"
    return out


def evaluate(model, tokenizer, hsk_limit: int | None = None, english: bool = True) -> dict:
    """Every measure of the module doc; `hsk_limit`: only the first N held-out HSK sentences (a fast subset)."""
    import hsk_corpus

    held = hsk_corpus.split()[1][:hsk_limit]
    loss, hit5, n = _scores(model, tokenizer, [(t, [y]) for t, y in hsk_blanks(held, tokenizer)])
    out = {"hsk_held_out": {"sentences": len(held), "blanks": n, "loss": round(loss, 3), "hit_at_5": round(hit5, 4)}}
    if english:
        loss, hit5, n = _scores(model, tokenizer, english_blanks(tokenizer))
        out["en_held_out"] = {"texts": EN_HELD_OUT, "blanks": n, "loss": round(loss, 3), "hit_at_5": round(hit5, 4)}
        out["probes_hit_at_5"] = probe_hits(model, tokenizer)
    out["course_example"] = {"text": COURSE_TEXT, "answer": COURSE_ANSWER, **course_example(model, tokenizer)}
    return out


def load(overlay: Path | None):
    """e5-mlm as the app loads it (the bundled overlay), or the converted base with another overlay over it."""
    from playground import models

    if overlay is None:
        lm = models.load("e5-mlm")
        return lm.model.eval(), lm.tokenizer
    from e5_mlm_data import load_e5_mlm

    model, tokenizer = load_e5_mlm(6)
    models.apply_overlay(model, overlay)
    return model.eval(), tokenizer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--overlay", type=Path, default=None, help="default: the bundled assets/e5_mlm overlay")
    parser.add_argument("--subset", type=int, default=None, help="also measure the first N held-out HSK sentences")
    parser.add_argument(
        "--write-summary", choices=("this_overlay", "previous_overlay"), default=None, help="record into summary.json"
    )
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    import torch

    torch.set_num_threads(args.threads)
    started = time.perf_counter()
    model, tokenizer = load(args.overlay)
    result = evaluate(model, tokenizer)
    if args.subset:
        result["hsk_held_out_subset"] = evaluate(model, tokenizer, hsk_limit=args.subset, english=False)["hsk_held_out"]
    result["overlay"] = str(args.overlay or "assets/e5_mlm/overlay.safetensors")
    print(json.dumps(result, ensure_ascii=False, indent=2))
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    if args.write_summary:
        path = ROOT / "assets" / "e5_mlm" / "summary.json"
        summary = json.loads(path.read_text(encoding="utf-8"))
        summary.setdefault("evaluation", {"script": "scripts/e5_mlm_eval.py"})[args.write_summary] = result
        path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
