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

Written: assets/e5_mlm/overlay.safetensors (float16: only what was trained), summary.json; the log is appended to
assets/e5_mlm/train.log. `--resume` continues from --checkpoint (float32 weights, AdamW state, step count).

    nice -n 19 python scripts/train_e5_mlm.py --keep 8 --tune 1 --feature-minutes 20 --minutes 40
    nice -n 19 python scripts/train_e5_mlm.py --keep 8 --tune 1 --resume --feature-minutes 0 --minutes 20
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
    parser.add_argument("--out", type=Path, default=data.OUT, help="where the overlay, summary and log go")
    args = parser.parse_args()

    import torch
    import torch.nn.functional as F
    from safetensors.torch import save_file
    from transformers.masking_utils import create_bidirectional_mask

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    say = data.logger(args.out / "train.log")
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
        f"({sum(p.numel() for p in head + layers):,} params); {texts.describe()}; seed {args.seed}"
    )

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

    held_rng = random.Random(args.seed + 1)  # the held-out masks: the same in every run
    held = {
        lang: [cached_batch(t[i : i + 50], held_rng) for i in range(0, 300, 50)]
        for lang, t in (("zh", texts.zh_held), ("en", texts.en_held))
    }
    batches = []
    saved = torch.load(args.cache) if args.cache.exists() else None
    key = {"keep": args.keep, "bottom": bottom, "sources": texts.sources, "seed": args.seed}
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
    step, minutes_before, before = 0, 0.0, None
    if args.resume and args.checkpoint.exists():
        ck = torch.load(args.checkpoint)
        assert ck["keep"] == args.keep and ck["tune"] == args.tune, "the checkpoint is of another --keep/--tune"
        model.load_state_dict(ck["model"], strict=False)
        optim.load_state_dict(ck["optim"])
        for group, lr in zip(optim.param_groups, (args.lr_head, args.lr_layers)):
            group["lr"] = lr  # this run's learning rates, not the saved ones (a resumed run may lower them)
        step, minutes_before, before = ck["step"], ck["minutes"], ck["before"]
        say(f"resumed at step {step} ({minutes_before:.1f} min of training before)")

    def held_loss(lang):
        with torch.no_grad():
            total = [(float(loss_of(b)) * int((b["y"] >= 0).sum()), int((b["y"] >= 0).sum())) for b in held[lang]]
        return sum(t for t, _ in total) / sum(n for _, n in total)

    def probes():
        from mlm_head_common import answer_hit

        kept = model.cls.predictions.bias.detach().clone()
        out, shown = {}, {}
        with torch.no_grad():
            model.cls.predictions.bias.copy_(unseen_bias(kept, cand))
            for lang in ("zh", "en"):
                out[lang], shown[lang] = 0, []
                for p in data.PROBES[lang]:
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
        hits, shown = probes()
        nz, ne = len(data.PROBES["zh"]), len(data.PROBES["en"])
        say(f"step {step} held-out loss zh {loss['zh']:.3f} en {loss['en']:.3f}; hit@5 zh {hits['zh']}/{nz} en {hits['en']}/{ne}")
        return loss, hits, shown

    def save(loss, hits, minutes):
        changed = {n: p.detach().float().clone() for n, p in model.named_parameters() if p.requires_grad}
        changed["cls.predictions.bias"] = unseen_bias(changed["cls.predictions.bias"], cand)
        tmp = args.out / "overlay.safetensors.tmp"
        meta = {"base": data.BASE, "num_hidden_layers": str(args.keep)}
        save_file({n: w.half().contiguous() for n, w in changed.items()}, str(tmp), metadata=meta)
        tmp.replace(args.out / "overlay.safetensors")
        summary = dict(
            base=data.BASE,
            recipe=f"encoder truncated to {args.keep} layers; top {args.tune} + head trained on cached inputs",
            corpus={"zh": texts.by_source, "en": "WordNet 3.0 glosses + examples"},
            licences="see scripts/e5_corpus.py and docs/models-chinese.md",
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
            storage="float16",
        )
        (args.out / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
        torch.save(
            {
                "model": {n: p.detach() for n, p in model.named_parameters() if p.requires_grad},
                "optim": optim.state_dict(),
                "step": step,
                "minutes": minutes,
                "before": before,
                "keep": args.keep,
                "tune": args.tune,
            },
            args.checkpoint,
        )

    loss, hits, shown = report()
    if before is None:
        before = {k: round(v, 3) for k, v in loss.items()}
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
            loss, hits, shown = report()
            save(loss, hits, minutes_before + (time.perf_counter() - started) / 60)
            torch.save({"key": key, "batches": batches}, args.cache)
            say(f"checkpoint saved; {len(batches)} cached batches")
    loss, hits, shown = report()
    save(loss, hits, minutes_before + (time.perf_counter() - started) / 60)
    for lang in ("zh", "en"):
        for text, top in shown[lang]:
            say(f"  {text}  ->  {' '.join(top)}")
    say(f"done: step {step}, {minutes_before + (time.perf_counter() - started) / 60:.1f} min of training in all")


if __name__ == "__main__":
    main()
