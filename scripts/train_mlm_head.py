"""Give the bundled all-MiniLM-L6-v2 encoder a masked-LM head, trained here on WordNet text.

The bundled MiniLM is a real pretrained BERT-architecture encoder shipped without an MLM head.
This script builds `BertForMaskedLM` on its weights (the decoder tied to the input embeddings,
which stay frozen), unfreezes the top `--layers` encoder layers plus the head's transform and
bias, and trains them with transformers' `DataCollatorForLanguageModeling` (15 %, 80/10/10) on
the glosses and usage examples of Princeton WordNet 3.0 (Debian's `wordnet-base`:
`apt-get install wordnet-base`; licence in /usr/share/doc/wordnet-base/copyright).

Only what changed is written: assets/minilm_mlm/overlay.safetensors (float16) plus the log and a
JSON summary. `playground.models` loads the overlay over the bundled MiniLM at run time.

    nice -n 19 python scripts/train_mlm_head.py --steps 700 --minutes 42
    nice -n 19 python scripts/train_mlm_head.py --resume --steps 900 --minutes 80   # continue it

`--resume` loads the committed overlay, appends to the log and adds its steps and minutes to the
summary; the held-out split is the same (it comes from `--seed`), the batch order is reshuffled
from the seed plus the steps already done, and the learning rate warms up again and decays over
the new steps (AdamW's moments are not saved: the overlay is float16 weights only).

Seeded and reproducible on one thread (the corpus order, the held-out split and the masking all
come from `--seed`); wall time depends on the machine.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "minilm_mlm"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from mlm_head_common import split, wordnet_texts  # noqa: E402

# Everyday fill-mask probes, one unambiguous word each, shared with tests/integration/test_mlm_bundled.py.
EVERYDAY_PROBES = [
    (p["text"], set(p["answers"])) for p in json.loads((ROOT / "assets" / "minilm_mlm" / "probes.json").read_text())
]


def masked_loss(model, batch):
    """MLM loss computed on the masked positions only (the 30k-way decoder runs on ~15 % of tokens)."""
    import torch.nn.functional as F

    hidden = model.bert(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).last_hidden_state
    chosen = batch["labels"] != -100
    logits = model.cls(hidden[chosen])
    return F.cross_entropy(logits, batch["labels"][chosen])


def evaluate(model, collator, tokenizer, texts, seed, batch_size=64) -> float:
    """Mean held-out MLM loss with a fixed masking seed (the same masks every time it is called)."""
    import torch

    model.eval()
    total, count = 0.0, 0
    generator_state = torch.random.get_rng_state()
    torch.manual_seed(seed)  # the collator draws its masks from torch's global RNG
    with torch.no_grad():
        for start in range(0, len(texts), batch_size):
            enc = tokenizer(texts[start : start + batch_size], truncation=True, max_length=64)
            batch = collator([{"input_ids": ids} for ids in enc["input_ids"]])
            n = int((batch["labels"] != -100).sum())
            if n:
                total += float(masked_loss(model, batch)) * n
                count += n
    torch.random.set_rng_state(generator_state)
    model.train()
    return total / max(count, 1)


def hit_at_5(model, tokenizer, probes) -> tuple[int, list[tuple[str, list[str]]]]:
    import torch

    model.eval()
    hits, shown = 0, []
    with torch.no_grad():
        for text, answers in probes:
            enc = tokenizer(text, return_tensors="pt")
            pos = int((enc.input_ids[0] == tokenizer.mask_token_id).nonzero()[0])
            logits = model(**enc).logits[0, pos]
            top = tokenizer.convert_ids_to_tokens(logits.topk(5).indices.tolist())
            hits += bool(answers & set(top))
            shown.append((text, top))
    model.train()
    return hits, shown


def save_overlay(model, out: Path) -> None:
    """Only what was trained (the head and the unfrozen layers), in float16."""
    import torch
    from safetensors.torch import save_file

    changed = {n: p.detach().to(torch.float16).contiguous() for n, p in model.named_parameters() if p.requires_grad}
    save_file(changed, str(out / "overlay.safetensors"), metadata={"base": "sentence-transformers/all-MiniLM-L6-v2"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=700)
    parser.add_argument("--minutes", type=float, default=42.0, help="stop early (and save) past this wall time")
    parser.add_argument("--layers", type=int, default=3, help="top encoder layers to fine-tune")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr-head", type=float, default=1e-3)
    parser.add_argument("--lr-layers", type=float, default=2e-4)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--held-out", type=int, default=1000)
    parser.add_argument("--eval-every", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--bench", type=int, default=0, help="time this many steps and exit (no saving)")
    parser.add_argument("--resume", action="store_true", help="continue from the overlay and summary in --out")
    args = parser.parse_args()

    import torch
    from transformers import AutoTokenizer, BertForMaskedLM, DataCollatorForLanguageModeling, get_linear_schedule_with_warmup

    from playground import availability
    from playground.registry import get_spec

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    base = availability.bundle_dir(get_spec("minilm"))
    tokenizer = AutoTokenizer.from_pretrained(str(base), local_files_only=True)
    model = BertForMaskedLM.from_pretrained(str(base), local_files_only=True, attn_implementation="eager")
    assert model.cls.predictions.decoder.weight.data_ptr() == model.bert.embeddings.word_embeddings.weight.data_ptr()

    n_layers = model.config.num_hidden_layers
    trainable_prefixes = [f"bert.encoder.layer.{i}." for i in range(n_layers - args.layers, n_layers)]
    head_prefixes = ["cls.predictions.transform.", "cls.predictions.bias"]
    for name, p in model.named_parameters():
        p.requires_grad = any(name.startswith(x) for x in trainable_prefixes + head_prefixes)
    head = [p for n, p in model.named_parameters() if p.requires_grad and n.startswith("cls.")]
    layers = [p for n, p in model.named_parameters() if p.requires_grad and not n.startswith("cls.")]

    done_steps, done_minutes = 0, 0.0
    if args.resume:
        from safetensors.torch import load_file

        saved = load_file(str(args.out / "overlay.safetensors"))
        params = dict(model.named_parameters())
        assert set(saved) == {n for n, p in params.items() if p.requires_grad}, "overlay does not match --layers"
        with torch.no_grad():
            for name, value in saved.items():
                params[name].copy_(value.to(params[name].dtype))
        previous = json.loads((args.out / "summary.json").read_text())
        done_steps, done_minutes = previous["steps"], previous["minutes"]
        first_before = previous["held_out_loss_before"]

    texts = wordnet_texts()
    train, held = split(texts, args.seed, args.held_out)
    collator = DataCollatorForLanguageModeling(tokenizer, mlm=True, mlm_probability=0.15)
    optim = torch.optim.AdamW([{"params": head, "lr": args.lr_head}, {"params": layers, "lr": args.lr_layers}], weight_decay=0.01)
    sched = get_linear_schedule_with_warmup(optim, args.warmup, args.steps)

    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "train_log.txt"
    log = open(log_path if not args.bench else "/dev/null", "a" if args.resume else "w", encoding="utf-8")

    def say(msg: str) -> None:
        print(msg, flush=True)
        log.write(msg + "\n")
        log.flush()

    if args.resume:
        say(f"--- resumed after step {done_steps} ({done_minutes} min): new warmup {args.warmup}, {args.steps} more steps")
    say(
        f"corpus: WordNet 3.0 glosses + examples, {len(texts)} texts; train {len(train)}, held out {len(held)} (seed {args.seed})"
    )
    say(f"trainable: top {args.layers} encoder layers + head transform/bias = {sum(p.numel() for p in head + layers):,} params")
    eval_texts = held[:500] if args.bench else held
    before = evaluate(model, collator, tokenizer, eval_texts, args.seed)
    say(f"step 0 held-out loss {before:.3f} (ppl {math.exp(before):.0f})")
    model.train()
    order = list(range(len(train)))
    rng = random.Random(args.seed + done_steps)  # a resumed run does not replay the first run's batches
    rng.shuffle(order)
    cursor, step, started, running = 0, 0, time.perf_counter(), []
    while step < args.steps:
        if cursor + args.batch > len(order):
            rng.shuffle(order)
            cursor = 0
        chunk = [train[i] for i in order[cursor : cursor + args.batch]]
        cursor += args.batch
        enc = tokenizer(chunk, truncation=True, max_length=64)
        batch = collator([{"input_ids": ids} for ids in enc["input_ids"]])
        loss = masked_loss(model, batch)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(head + layers, 1.0)
        optim.step()
        sched.step()
        optim.zero_grad(set_to_none=True)
        step += 1
        running.append(loss.item())
        at = done_steps + step  # the step counted over every run of this head
        elapsed = time.perf_counter() - started
        if args.bench and step >= args.bench:
            print(f"{step} steps in {elapsed:.1f}s = {elapsed / step:.2f}s/step")
            return
        if step % 50 == 0:
            say(f"step {at} train loss {sum(running) / len(running):.3f} lr {sched.get_last_lr()[0]:.2e} {elapsed / 60:.1f} min")
            running = []
        if step % args.eval_every == 0:
            say(f"step {at} held-out loss (first 300) {evaluate(model, collator, tokenizer, held[:300], args.seed):.3f}")
            save_overlay(model, args.out)  # a checkpoint: the run can be stopped at any time
            say("checkpoint saved")
        if elapsed > args.minutes * 60:
            say(f"time budget reached at step {at}")
            break
    minutes = (time.perf_counter() - started) / 60
    after = evaluate(model, collator, tokenizer, held, args.seed)
    if args.resume:
        before = first_before  # the summary compares the finished head with the untrained one
        step, minutes = done_steps + step, done_minutes + minutes
    hits, shown = hit_at_5(model, tokenizer, EVERYDAY_PROBES)
    say(f"done: {step} steps in {minutes:.1f} min in all; held-out loss {before:.3f} -> {after:.3f} (ppl {math.exp(after):.1f})")
    say(f"hit@5 on {len(EVERYDAY_PROBES)} everyday probes: {hits}")
    for text, top in shown:
        say(f"  {text}  ->  {' '.join(top)}")

    save_overlay(model, args.out)
    summary = dict(
        base="sentence-transformers/all-MiniLM-L6-v2",
        corpus="Princeton WordNet 3.0 glosses and examples (Debian wordnet-base)",
        seed=args.seed,
        steps=step,
        batch=args.batch,
        trainable_layers=args.layers,
        minutes=round(minutes, 1),
        threads=args.threads,
        held_out_texts=len(held),
        held_out_loss_before=round(before, 3),
        held_out_loss_after=round(after, 3),
        everyday_hit_at_5=f"{hits}/{len(EVERYDAY_PROBES)}",
        storage="float16",
    )
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
