"""Give the bundled multilingual-e5-small a masked-LM head (e5-mlm), trained here on openly licensed text.

`BertForMaskedLM` on the converted e5-small (playground.e5), optionally truncated to its first `--keep` layers
(scripts/e5_mlm_layers.py measured which layer still knows the hidden token), the decoder tied to the frozen
input embeddings; the head's transform and bias and the top `--tune` kept layers are trained.

Cheap on a shared CPU: the frozen layers below the trained ones run once per batch of masked texts, and their
output (the trained layers' input) is cached (`--cache`, grown by `--feature-minutes` each run); training then
runs only the trained layers and the head, many steps per cached batch. Masking is on the text, as a student
masks a probe (scripts/e5_mlm_data.py). The softmax is restricted to the pieces such a mask can hide in the
training text (single Chinese characters and "▁word" English words); every other piece gets the bias
`min(trained biases) - 10`, so the full vocabulary is scored at run time and those rank last.

Every --eval-every steps: held-out loss, hit@5 on the official probes (assets/e5_mlm/probes.json, reported,
never used to choose) and on the dev probes (dev_probes.json, other everyday words). The overlay and summary are
written when the dev hit@5 (zh + en) beats the best so far (a tie: when the held-out loss is lower), so the best
checkpoint survives a run that goes on past it.

The Chinese half of a batch: the HSK training split (scripts/hsk_corpus.py; its held-out split is never read, and
scripts/e5_mlm_eval.py measures on it) --sentence-share of it, of the rest 3/4 CC-CEDICT word lists, 1/4 manuals.
`--snapshots DIR` also keeps every evaluated step's overlay, to be measured afterwards with scripts/e5_mlm_eval.py.

Written: --out/overlay.safetensors (float16: only what was trained), --out/summary.json; the log is appended to
--log (assets/e5_mlm/train.log). `--resume` continues from --checkpoint (float32 weights, AdamW state, step
count, best dev score); `--init-from-overlay` starts a new run from a committed overlay (its layers and head;
a trained layer that the overlay lacks starts from e5-small's own weights).

    nice -n 19 python scripts/train_e5_mlm.py --keep 8 --tune 1 --feature-minutes 20 --minutes 40
    nice -n 19 python scripts/train_e5_mlm.py --keep 8 --tune 1 --resume --feature-minutes 0 --minutes 20
    nice -n 19 python scripts/train_e5_mlm.py --keep 6 --tune 2 --init-from-overlay assets/e5_mlm/overlay.safetensors \
        --out /tmp/e5_mlm_run --feature-minutes 3 --minutes 90
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import e5_mlm_data as data  # noqa: E402


def unseen_bias(bias, cand):
    """The bias with every piece outside `cand` set to min(bias[cand]) - 10 (they then rank last)."""
    import torch

    out = bias.clone()
    unseen = torch.ones_like(out, dtype=torch.bool)
    unseen[cand] = False
    out[unseen] = out[cand].min() - 10.0
    return out


def init_from_overlay(model, path: Path, cand) -> None:
    """Copy an overlay's tensors into the model. Its bias ranked the pieces outside its own softmax last
    (`unseen_bias`); a piece of this run's softmax that was outside it starts at the median trained bias."""
    import torch
    from safetensors.torch import load_file

    overlay = load_file(str(path))
    params = dict(model.named_parameters())
    wrong = [n for n, w in overlay.items() if n not in params or params[n].shape != w.shape]
    assert not wrong, f"the overlay does not fit this model: {wrong[:3]}"
    with torch.no_grad():
        for name, w in overlay.items():
            params[name].copy_(w.float())
        bias = params["cls.predictions.bias"]
        floor = bias.min()
        trained = bias[bias > floor]
        new = cand[bias[cand] == floor]
        bias[new] = trained.median()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keep", type=int, default=12, help="encoder layers kept (the model is truncated to them)")
    parser.add_argument("--tune", type=int, default=1, help="top kept layers trained with the head (0: head only)")
    parser.add_argument("--feature-minutes", type=float, default=20.0, help="time spent growing the cache this run")
    parser.add_argument("--minutes", type=float, default=40.0, help="training time this run")
    parser.add_argument("--batch", type=int, default=32, help="texts per cached batch (half zh, half en)")
    parser.add_argument("--lr-head", type=float, default=2e-3)
    parser.add_argument("--lr-layers", type=float, default=1e-4)
    parser.add_argument("--eval-every", type=int, default=200)
    parser.add_argument("--fresh-every", type=int, default=3, help="while training, a new cached batch every N steps")
    parser.add_argument("--sources", nargs="+", default=None, help="Chinese sources (e5_corpus names); default all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/e5_mlm_cache.pt"))
    parser.add_argument("--checkpoint", type=Path, default=Path("/tmp/e5_mlm_checkpoint.pt"))
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--init-from-overlay", type=Path, default=None, help="start from this overlay's weights")
    parser.add_argument("--out", type=Path, default=data.OUT, help="where the overlay and summary go")
    parser.add_argument("--snapshots", type=Path, default=None, help="also write every evaluated overlay here")
    parser.add_argument("--log", type=Path, default=data.OUT / "train.log", help="appended to")
    parser.add_argument("--cedict-min-freq", type=int, default=None, help="jieba count a CC-CEDICT headword needs")
    parser.add_argument("--everyday-mask-rate", type=float, default=None, help="share hidden in the word lists")
    parser.add_argument("--sentence-share", type=float, default=None, help="share of the Chinese half from HSK")
    args = parser.parse_args()

    import torch
    import torch.nn.functional as F
    from safetensors.torch import save_file
    from transformers.masking_utils import create_bidirectional_mask

    import e5_corpus

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    say = data.logger(args.log)
    if args.cedict_min_freq is not None:
        e5_corpus.CEDICT_MIN_FREQ = args.cedict_min_freq
    if args.everyday_mask_rate is not None:
        data.EVERYDAY_MASK_RATE = args.everyday_mask_rate
    if args.sentence_share is not None:
        data.SENTENCE_SHARE = args.sentence_share
    model, tokenizer = data.load_e5_mlm(args.keep)
    bottom = args.keep - args.tune  # hidden_states[bottom] is the input of the first trained layer
    texts = data.Texts.build(tokenizer, args.seed, args.sources)
    cand, remap = texts.cand, texts.remap
    trained_prefixes = [f"bert.encoder.layer.{i}." for i in range(bottom, args.keep)]
    for name, p in model.named_parameters():
        p.requires_grad = name.startswith(tuple(trained_prefixes) + ("cls.predictions.transform.", "cls.predictions.bias"))
    head = [p for n, p in model.named_parameters() if p.requires_grad and n.startswith("cls.")]
    layers = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith("cls.")]
    say(
        f"--- scripts/train_e5_mlm.py: keep {args.keep} layers, train the top {args.tune} + head "
        f"({sum(p.numel() for p in head + layers):,} params); {texts.describe()}; seed {args.seed}; "
        f"lr head {args.lr_head} layers {args.lr_layers}; CC-CEDICT count >= {e5_corpus.CEDICT_MIN_FREQ}; "
        f"word lists {data.EVERYDAY_MASK_RATE:.0%} hidden; HSK sentences {data.SENTENCE_SHARE:.0%} of the Chinese "
        f"half when read"
    )
    if args.init_from_overlay and not args.resume:
        init_from_overlay(model, args.init_from_overlay, cand)
        say(f"started from {args.init_from_overlay}")

    def cached_batch(batch_texts, rng):
        """The trained layers' input for masked texts: full sequences (tune > 0) or masked positions (tune 0)."""
        masked, labels = zip(*(data.mask_text(t, rng, tokenizer, texts.rate(t)) for t in batch_texts))
        enc = tokenizer(list(masked), truncation=True, max_length=data.MAX_LENGTH, padding=True, return_tensors="pt")
        with torch.no_grad():  # only the frozen layers below the trained ones
            h = model.bert.embeddings(input_ids=enc.input_ids)
            mask = create_bidirectional_mask(config=model.config, inputs_embeds=h, attention_mask=enc.attention_mask)
            for layer in model.bert.encoder.layer[:bottom]:
                h = layer(h, mask)
        rows, cols, ys = [], [], []
        for row, want in enumerate(labels):
            found = (enc.input_ids[row] == tokenizer.mask_token_id).nonzero().flatten().tolist()
            if len(found) > len(want):
                continue
            rows += [row] * len(found)
            cols += found
            ys += want[: len(found)]
        rows, cols, y = torch.tensor(rows, dtype=torch.long), torch.tensor(cols, dtype=torch.long), remap[torch.tensor(ys)]
        if args.tune == 0:
            return {"h": h[rows, cols].half(), "y": y}
        return {"h": h.half(), "mask": enc.attention_mask.bool(), "rows": rows, "cols": cols, "y": y}

    def top_logits(b):
        """Logits over `cand` at the masked positions of one cached batch, through the trained layers and the head."""
        h = b["h"].float()
        if args.tune:
            mask = create_bidirectional_mask(config=model.config, inputs_embeds=h, attention_mask=b["mask"])
            for layer in model.bert.encoder.layer[bottom:]:
                h = layer(h, mask)
            h = h[b["rows"], b["cols"]]
        weight = model.bert.embeddings.word_embeddings.weight[cand]
        return model.cls.predictions.transform(h) @ weight.T + model.cls.predictions.bias[cand]

    def loss_of(b):
        ok = b["y"] >= 0
        return F.cross_entropy(top_logits(b)[ok], b["y"][ok])

    # The held-out masks: the same in every run, one generator per language so that a change in the Chinese text
    # (HSK added) leaves the English masks as they were (before HSK, one generator drew the Chinese masks first).
    held = {
        lang: [cached_batch(t[i : i + 50], held_rng) for i in range(0, 300, 50)]
        for lang, t, held_rng in (
            ("zh", texts.zh_held, random.Random(f"{args.seed + 1}-zh")),
            ("en", texts.en_held, random.Random(f"{args.seed + 1}-en")),
        )
    }
    batches = []
    saved = torch.load(args.cache) if args.cache.exists() else None
    key = {
        "keep": args.keep,
        "bottom": bottom,
        "sources": texts.sources,
        "seed": args.seed,
        "cedict": e5_corpus.CEDICT_MIN_FREQ,
        "everyday_rate": data.EVERYDAY_MASK_RATE,
        "sentence_share": data.SENTENCE_SHARE,
    }
    if saved is not None and saved["key"] == key:
        batches = saved["batches"]
        say(f"cache: {len(batches)} batches ({sum(len(b['y']) for b in batches)} masked positions) from {args.cache}")
    rng = random.Random(args.seed * 1000 + len(batches))
    started = time.perf_counter()
    while time.perf_counter() - started < args.feature_minutes * 60:
        batches.append(cached_batch(texts.batch(rng, args.batch), rng))
        if len(batches) % 25 == 0:
            torch.save({"key": key, "batches": batches}, args.cache)
            say(f"cache: {len(batches)} batches, {sum(len(b['y']) for b in batches)} masked positions")
    torch.save({"key": key, "batches": batches}, args.cache)
    if args.tune == 0:  # head only: one pool of vectors, drawn 256 at a time
        pool_h, pool_y = torch.cat([b["h"] for b in batches]), torch.cat([b["y"] for b in batches])
    say(f"cache: {len(batches)} batches, {sum(len(b['y']) for b in batches)} masked positions; training")

    optim = torch.optim.AdamW([{"params": head, "lr": args.lr_head}, {"params": layers, "lr": args.lr_layers}], weight_decay=0.01)
    step, minutes_before, before, best = 0, 0.0, None, None
    if args.resume and args.checkpoint.exists():
        ck = torch.load(args.checkpoint)
        assert ck["keep"] == args.keep and ck["tune"] == args.tune, "the checkpoint is of another --keep/--tune"
        model.load_state_dict(ck["model"], strict=False)
        optim.load_state_dict(ck["optim"])
        for group, lr in zip(optim.param_groups, (args.lr_head, args.lr_layers)):
            group["lr"] = lr  # this run's learning rates, not the saved ones (a resumed run may lower them)
        step, minutes_before, before, best = ck["step"], ck["minutes"], ck["before"], ck.get("best")
        say(f"resumed at step {step} ({minutes_before:.1f} min of training before)")

    def held_loss(lang):
        with torch.no_grad():
            total = [(float(loss_of(b)) * int((b["y"] >= 0).sum()), int((b["y"] >= 0).sum())) for b in held[lang]]
        return sum(t for t, _ in total) / sum(n for _, n in total)

    def probes(which):
        from mlm_head_common import answer_hit

        kept = model.cls.predictions.bias.detach().clone()
        out, shown = {}, {}
        with torch.no_grad():
            model.cls.predictions.bias.copy_(unseen_bias(kept, cand))
            for lang in ("zh", "en"):
                out[lang], shown[lang] = 0, []
                for p in which[lang]:
                    enc = tokenizer(p["text"], return_tensors="pt")
                    pos = int((enc.input_ids[0] == tokenizer.mask_token_id).nonzero()[0])
                    top = tokenizer.convert_ids_to_tokens(model(**enc).logits[0, pos].topk(5).indices.tolist())
                    out[lang] += answer_hit(top, p["answers"])
                    shown[lang].append((p["text"], top))
            model.cls.predictions.bias.copy_(kept)
        return out, shown

    def report():
        model.eval()
        loss = {lang: held_loss(lang) for lang in ("zh", "en")}
        hits, shown = probes(data.PROBES)
        dev, _ = probes(data.DEV_PROBES)
        nz, ne = len(data.PROBES["zh"]), len(data.PROBES["en"])
        dz, de = len(data.DEV_PROBES["zh"]), len(data.DEV_PROBES["en"])
        say(
            f"step {step} held-out loss zh {loss['zh']:.3f} en {loss['en']:.3f}; hit@5 zh {hits['zh']}/{nz} "
            f"en {hits['en']}/{ne}; dev hit@5 zh {dev['zh']}/{dz} en {dev['en']}/{de}"
        )
        return loss, hits, shown, dev

    def better(loss, dev):
        """The dev probes choose (zh + en hits), the held-out loss breaks a tie; never the official probes."""
        score = (dev["zh"] + dev["en"], -(loss["zh"] + loss["en"]))
        return best is None or score > tuple(best), list(score)

    def checkpoint(minutes):
        torch.save(
            {
                "model": {n: p.detach() for n, p in model.named_parameters() if p.requires_grad},
                "optim": optim.state_dict(),
                "step": step,
                "minutes": minutes,
                "before": before,
                "best": best,
                "keep": args.keep,
                "tune": args.tune,
            },
            args.checkpoint,
        )

    def save_overlay(path: Path):
        changed = {n: p.detach().float().clone() for n, p in model.named_parameters() if p.requires_grad}
        changed["cls.predictions.bias"] = unseen_bias(changed["cls.predictions.bias"], cand)
        tmp = path.with_name(path.name + ".tmp")
        meta = {"base": data.BASE, "num_hidden_layers": str(args.keep)}
        save_file({n: w.half().contiguous() for n, w in changed.items()}, str(tmp), metadata=meta)
        tmp.replace(path)

    def save(loss, hits, dev, minutes):
        save_overlay(args.out / "overlay.safetensors")
        summary = dict(
            base=data.BASE,
            recipe=f"encoder truncated to {args.keep} layers; top {args.tune} + head trained on cached inputs",
            corpus={"zh": texts.by_source, "en": "WordNet 3.0 glosses + examples"},
            licences=(
                "see scripts/e5_corpus.py and docs/models-chinese.md; trained on CC BY-SA 4.0 text (CC-CEDICT"
                + (", HSK sentences" if texts.zh_sentences else "")
                + "): the overlay is a derivative of CC BY-SA data"
            ),
            seed=args.seed,
            keep_layers=args.keep,
            tuned_layers=args.tune,
            steps=step,
            cached_batches=len(batches),
            masked_positions=int(sum(len(b["y"]) for b in batches)),
            minutes_training=round(minutes, 1),
            threads=args.threads,
            softmax_pieces=len(cand),
            held_out_texts={"zh": 300, "en": 300},
            held_out_loss_before=before,
            held_out_loss_after={k: round(v, 3) for k, v in loss.items()},
            hit_at_5={k: f"{v}/{len(data.PROBES[k])}" for k, v in hits.items()},
            dev_hit_at_5={k: f"{v}/{len(data.DEV_PROBES[k])}" for k, v in dev.items()},
            storage="float16",
        )
        (args.out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")

    def evaluate(minutes):
        nonlocal best
        loss, hits, shown, dev = report()
        improved, score = better(loss, dev)
        if args.snapshots:  # every evaluated step, for a later look (the rule above still picks the committed one)
            args.snapshots.mkdir(parents=True, exist_ok=True)
            save_overlay(args.snapshots / f"overlay-step{step}.safetensors")
        if improved:
            best = score
            save(loss, hits, dev, minutes)
            say(f"best so far (dev {score[0]}): overlay written to {args.out}")
        checkpoint(minutes)
        return shown

    loss, hits, shown, dev = report()
    if before is None:
        before = {k: round(v, 3) for k, v in loss.items()}
    if best is None:  # the starting point (an --init-from-overlay's weights) is what a checkpoint must beat
        best = better(loss, dev)[1] if args.init_from_overlay else None
    started, running = time.perf_counter(), []
    order_rng = random.Random(args.seed + step)
    while time.perf_counter() - started < args.minutes * 60:
        model.train()
        if args.tune == 0:
            pick = torch.randint(0, len(pool_y), (256,))
            b = {"h": pool_h[pick], "y": pool_y[pick]}
        else:
            b = batches[order_rng.randrange(len(batches))]
        loss_t = loss_of(b)
        loss_t.backward()
        torch.nn.utils.clip_grad_norm_(head + layers, 1.0)
        optim.step()
        optim.zero_grad(set_to_none=True)
        step += 1
        running.append(loss_t.item())
        if args.tune and args.fresh_every and step % args.fresh_every == 0:  # fresh masks and texts: less overfitting
            model.eval()
            batches.append(cached_batch(texts.batch(rng, args.batch), rng))
        if step % 25 == 0:
            say(f"step {step} train loss {sum(running) / len(running):.3f} {(time.perf_counter() - started) / 60:.1f} min")
            running = []
        if step % args.eval_every == 0:
            evaluate(minutes_before + (time.perf_counter() - started) / 60)
            torch.save({"key": key, "batches": batches}, args.cache)
            say(f"checkpoint saved; {len(batches)} cached batches")
    shown = evaluate(minutes_before + (time.perf_counter() - started) / 60)
    for lang in ("zh", "en"):
        for text, top in shown[lang]:
            say(f"  {text}  ->  {' '.join(top)}")
    say(f"done: step {step}, {minutes_before + (time.perf_counter() - started) / 60:.1f} min of training in all")


if __name__ == "__main__":
    main()
