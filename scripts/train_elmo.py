"""Train the small ELMo bundled with the app (assets/elmo/) on WordNet glosses.

    nice -n 19 python scripts/train_elmo.py --out assets/elmo --steps 3000

Reproducible: seeded torch.Generator for init order / batch order, one CPU
thread (the machine is shared), fixed step count. Writes, in the published
AllenNLP format so playground.elmo.load_elmo reads it like any ELMo:
options.json, weights.hdf5 (+ softmax/W, softmax/b), vocab.txt, and
training_log.json / training_log.txt with held-out perplexities.

Language model: a full softmax over the vocabulary (the most frequent training
words, plus <S>, </S>, <UNK>), shared by both directions as in the original
biLM. Full rather than sampled so that the reported perplexity is exact.
OOV words are mapped to <UNK>, both as targets of the LM and of the unigram
baseline (which is add-one smoothed over the same vocabulary, from training
counts, boundary tokens included), so the two perplexities are comparable.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import elmo_corpus  # noqa: E402

from playground.elmo.chars import BOS_TOKEN, EOS_TOKEN, N_CHARACTERS, batch_char_ids  # noqa: E402
from playground.elmo.model import ElmoBiLm  # noqa: E402
from playground.elmo.options import ElmoOptions  # noqa: E402
from playground.elmo.weights import save_weights  # noqa: E402

UNK = "<UNK>"


def build_vocab(train: list[list[str]], size: int) -> list[str]:
    counts = collections.Counter(w for s in train for w in s)
    # Sorted by (-count, word): ties are broken the same way on every machine.
    words = [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))][: size - 3]
    return [BOS_TOKEN, EOS_TOKEN, UNK] + words


def batches(sentences: list[list[str]], max_tokens: int, gen: torch.Generator, shuffle: bool):
    """Length-bucketed batches (little padding), in a seeded random order."""
    order = sorted(range(len(sentences)), key=lambda i: (len(sentences[i]), i))
    out, cur, longest = [], [], 0
    for i in order:
        longest = max(longest, len(sentences[i]) + 2)
        if cur and longest * (len(cur) + 1) > max_tokens:
            out.append(cur)
            cur, longest = [], len(sentences[i]) + 2
        cur.append(i)
    if cur:
        out.append(cur)
    if shuffle:
        perm = torch.randperm(len(out), generator=gen).tolist()
        out = [out[p] for p in perm]
    return out


def lm_losses(model: ElmoBiLm, sents: list[list[str]], w2i: dict, dropout: float):
    """Summed negative log-likelihoods (forward, backward) and the number of targets."""
    char_ids = torch.from_numpy(batch_char_ids(sents))
    _, layers, mask = model(char_ids, dropout=dropout)
    fo, bo = layers[-1]
    unk = w2i[UNK]
    b, t = mask.shape
    ids = torch.full((b, t), -100, dtype=torch.long)
    for i, s in enumerate(sents):
        ids[i, : len(s) + 2] = torch.tensor([w2i[BOS_TOKEN]] + [w2i.get(w, unk) for w in s] + [w2i[EOS_TOKEN]])
    if dropout:
        fo = torch.nn.functional.dropout(fo, dropout, model.training)
        bo = torch.nn.functional.dropout(bo, dropout, model.training)
    # forward: output at j predicts token j+1; backward: output at j predicts token j-1
    # Each direction's targets: the forward LM never predicts <S>, the backward
    # one never predicts </S>. Masking them matters for sentences shorter than
    # the batch: otherwise the backward target </S> would sit opposite a padded
    # (zero) output and be counted as a prediction.
    f_ids = ids.masked_fill(ids == w2i[BOS_TOKEN], -100)[:, 1:]
    b_ids = ids.masked_fill(ids == w2i[EOS_TOKEN], -100)[:, :-1]
    f_logits = model.softmax(fo[:, :-1])
    b_logits = model.softmax(bo[:, 1:])
    f_loss = torch.nn.functional.cross_entropy(f_logits.reshape(-1, f_logits.shape[-1]), f_ids.reshape(-1), reduction="sum")
    b_loss = torch.nn.functional.cross_entropy(b_logits.reshape(-1, b_logits.shape[-1]), b_ids.reshape(-1), reduction="sum")
    assert int((f_ids >= 0).sum()) == int((b_ids >= 0).sum()) == sum(len(s) + 1 for s in sents)
    n = int(sum(len(s) + 1 for s in sents))
    return f_loss, b_loss, n


@torch.no_grad()
def evaluate(model, sents, w2i, max_tokens=4000):
    model.eval()
    f_tot = b_tot = 0.0
    n_tot = 0
    for idx in batches(sents, max_tokens, torch.Generator(), shuffle=False):
        f, b, n = lm_losses(model, [sents[i] for i in idx], w2i, 0.0)
        f_tot, b_tot, n_tot = f_tot + float(f), b_tot + float(b), n_tot + n
    return math.exp(f_tot / n_tot), math.exp(b_tot / n_tot), n_tot


def unigram_perplexity(train, test, vocab: list[str]):
    """Add-one unigram over the LM's targets: words (OOV -> <UNK>) and one boundary per sentence."""
    w2i = {w: i for i, w in enumerate(vocab)}
    counts = np.ones(len(vocab))
    for s in train:
        for w in s:
            counts[w2i.get(w, w2i[UNK])] += 1
    # The forward LM's last target is </S>, the backward one's is <S>: same count.
    counts[w2i[EOS_TOKEN]] += len(train)
    logp = np.log(counts / counts.sum())
    nll, n = 0.0, 0
    for s in test:
        nll -= sum(logp[w2i.get(w, w2i[UNK])] for w in s) + logp[w2i[EOS_TOKEN]]
        n += len(s) + 1
    return math.exp(nll / n)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="assets/elmo")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument(
        "--schedule-steps",
        type=int,
        default=None,
        help="length of the learning-rate decay (default --steps); lets a run stopped by --max-minutes "
        "at step N be replayed exactly with --steps N --schedule-steps <original --steps>",
    )
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--batch-tokens", type=int, default=1500)
    ap.add_argument("--lstm-dim", type=int, default=256)
    ap.add_argument("--proj-dim", type=int, default=128)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--dropout", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-every", type=int, default=500)
    ap.add_argument(
        "--resume",
        default=None,
        help="directory holding a previous run's weights.hdf5, vocab.txt and training_log.json: load those "
        "weights and continue the same seed-driven batch order after the batches that run already saw "
        "(--steps is then the total step count). The optimizer starts fresh (its state is not saved) with "
        "a short warmup (--resume-warmup) and a linear decay from --lr over the remaining steps.",
    )
    ap.add_argument("--resume-warmup", type=int, default=50)
    ap.add_argument(
        "--max-minutes", type=float, default=None, help="safety stop on a busy machine (logged; breaks bit-reproducibility)"
    )
    args = ap.parse_args(argv)

    torch.set_num_threads(1)  # the machine is shared; also makes runs bit-reproducible
    torch.manual_seed(args.seed)  # parameter init draws from the global generator
    gen = torch.Generator().manual_seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    log_lines: list[str] = []

    def log(msg: str) -> None:
        line = f"[{time.strftime('%H:%M:%S')}] {msg}"
        print(line, flush=True)
        log_lines.append(line)
        (out / "training_log.txt").write_text("\n".join(log_lines) + "\n")

    train, test = elmo_corpus.split_corpus(elmo_corpus.wordnet_sentences())
    vocab = build_vocab(train, args.vocab_size)
    w2i = {w: i for i, w in enumerate(vocab)}
    oov = sum(w not in w2i for s in test for w in s) / sum(len(s) for s in test)
    log(
        f"corpus: WordNet 3.0 glosses+examples, train {len(train)} sentences / {sum(map(len, train))} tokens, "
        f"held-out {len(test)} / {sum(map(len, test))} tokens, vocab {len(vocab)}, held-out OOV rate {oov:.3f}"
    )

    opts = ElmoOptions(
        char_embed_dim=16,
        filters=((1, 32), (2, 32), (3, 64), (4, 64), (5, 64)),
        n_highway=1,
        activation="relu",
        max_chars=50,
        n_characters=N_CHARACTERS,
        lstm_dim=args.lstm_dim,
        projection_dim=args.proj_dim,
        n_layers=2,
        cell_clip=3.0,
        proj_clip=3.0,
        use_skip_connections=True,
    )
    model = ElmoBiLm(opts, vocab_size=len(vocab))
    start_step = 0
    if args.resume:
        import h5py

        from playground.elmo.weights import load_weights_into, read_vocab

        src = Path(args.resume)
        if list(read_vocab(src / "vocab.txt")) != vocab:
            raise SystemExit(f"--resume: {src / 'vocab.txt'} differs from the vocabulary this corpus gives")
        with h5py.File(src / "weights.hdf5", "r") as f:
            load_weights_into(model, f)
        start_step = int(json.loads((src / "training_log.json").read_text())["steps"])
    n_params = sum(p.numel() for p in model.parameters())
    log(f"command: {' '.join(sys.argv)}")
    log(f"model: {n_params} parameters, options {json.dumps(opts.to_dict())}")
    uni = unigram_perplexity(train, test, vocab)
    log(f"unigram baseline held-out perplexity (add-one, same vocab, OOV->{UNK}): {uni:.2f}")

    optim = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched_steps = args.schedule_steps or args.steps
    if args.resume:
        # Fresh optimizer (Adam moments were not saved): short warmup, then linear decay to 5% of --lr.
        left = max(1, sched_steps - start_step)
        sched = torch.optim.lr_scheduler.LambdaLR(
            optim, lambda s: min(1.0, (s + 1) / args.resume_warmup) * max(0.05, 1 - s / left)
        )
        log(
            f"resumed from step {start_step} ({Path(args.resume) / 'weights.hdf5'}): fresh Adam, warmup "
            f"{args.resume_warmup} steps, lr {args.lr} decaying linearly over steps {start_step}..{sched_steps}; "
            f"the seed-driven batch order is kept and its first {start_step} batches are skipped"
        )
    else:
        sched = torch.optim.lr_scheduler.LambdaLR(optim, lambda s: min(1.0, (s + 1) / 200) * max(0.05, 1 - s / sched_steps))
    planned_steps = args.steps
    step, epoch, t0 = 0, 0, time.time()
    skip = start_step
    batches_per_epoch = len(batches(train, args.batch_tokens, torch.Generator(), shuffle=False))
    run_f = run_b = run_n = 0.0
    history = []
    while step < args.steps:
        for idx in batches(train, args.batch_tokens, gen, shuffle=True):
            if skip:  # batches the resumed run already trained on
                skip -= 1
                step += 1
                continue
            model.train()
            f, b, n = lm_losses(model, [train[i] for i in idx], w2i, args.dropout)
            optim.zero_grad()
            ((f + b) / (2 * n)).backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optim.step()
            sched.step()
            step += 1
            run_f, run_b, run_n = run_f + f.item(), run_b + b.item(), run_n + n
            if step % 100 == 0:
                log(
                    f"step {step} epoch {epoch} train ppl fwd {math.exp(run_f / run_n):.1f} bwd {math.exp(run_b / run_n):.1f} "
                    f"({time.time() - t0:.0f}s)"
                )
                run_f = run_b = run_n = 0.0
            if step % args.eval_every == 0 or step == args.steps:
                pf, pb, _ = evaluate(model, test, w2i)
                history.append({"step": step, "fwd": pf, "bwd": pb})
                log(f"held-out perplexity at step {step}: forward {pf:.2f}, backward {pb:.2f} (unigram {uni:.2f})")
                save_weights(model, out / "weights.hdf5")
            if args.max_minutes and time.time() - t0 > 60 * args.max_minutes and step < args.steps:
                log(
                    f"stopped early at step {step}: --max-minutes {args.max_minutes} reached; replay exactly with "
                    f"--steps {step} --schedule-steps {sched_steps}"
                    + (f" --resume <the weights it started from> --lr {args.lr}" if args.resume else "")
                )
                args.steps = step
            if step >= args.steps:
                break
        epoch += 1

    pf, pb, n_targets = evaluate(model, test, w2i)
    save_weights(model, out / "weights.hdf5")
    (out / "options.json").write_text(json.dumps(opts.to_dict(), indent=2) + "\n")
    (out / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    summary = {
        "corpus": "WordNet 3.0 glosses and examples (Debian wordnet-base), crc32 % 50 == 0 held out",
        "train_sentences": len(train),
        "heldout_sentences": len(test),
        "heldout_targets": n_targets,
        "vocab_size": len(vocab),
        "heldout_oov_rate": oov,
        "steps": step,
        "planned_steps": planned_steps,
        "epochs": step / batches_per_epoch,
        "seed": args.seed,
        "resumed_from_step": start_step or None,
        "args": vars(args),
        "parameters": n_params,
        "train_seconds": time.time() - t0,
        "heldout_perplexity": {"forward": pf, "backward": pb, "unigram": uni},
        "history": history,
    }
    (out / "training_log.json").write_text(json.dumps(summary, indent=2) + "\n")
    log(f"done in {time.time() - t0:.0f}s: held-out perplexity forward {pf:.2f}, backward {pb:.2f}, unigram {uni:.2f}")


if __name__ == "__main__":
    main()
