"""Train "a small classroom GPT, trained here" (registry key gpt-zh): a GPT-2-shaped causal LM that reads Chinese
characters, on the openly licensed Chinese text of scripts/gpt_zh_data.py (HSK sentences + Debian documentation).

`GPT2LMHeadModel` from a small `GPT2Config` (every view that takes a causal model takes it), a tokenizer in which
each Chinese character is one token (gpt_zh_data.build_tokenizer), trained from scratch on a shared CPU with one
thread. Each batch draws windows of `--block` tokens from the documentation stream or, with probability
`--hsk-share`, from the HSK sentences (a small set of everyday Chinese: without the extra weight it would be 5 % of
what the model reads, and the course's prompts are everyday Chinese).

Every --eval-every steps the dev loss (gpt_zh_data's dev split, never the held-out one) is measured; when it is the
best so far the weights are written (float16 safetensors) with the tokenizer and config to --out, and the held-out
perplexities (HSK held-out split, held-out documentation pages) of that checkpoint are written to summary.json
beside those of the add-k unigram and bigram baselines on the same tokens (k chosen on the dev split).

Written: --out/{config.json, generation_config.json, model.safetensors, tokenizer.json, tokenizer_config.json,
summary.json}; the log is appended to --log. `--resume` continues from --checkpoint (weights, AdamW state, step,
RNG states, best dev loss, minutes so far), e.g. after the machine was needed for something else.

    nice -n 19 python scripts/train_gpt_zh.py --minutes 80          # the defaults are the committed run's settings
    nice -n 19 python scripts/train_gpt_zh.py --resume --minutes 30 # go on from /work/ckpt/gptzh/checkpoint.pt
    nice -n 19 python scripts/train_gpt_zh.py --resume --steps 2400 --minutes 40   # train longer (a new schedule end)
    python scripts/train_gpt_zh.py --evaluate                       # re-measure assets/gpt_zh into its summary.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import gpt_zh_data as data  # noqa: E402

CKPT = Path("/work/ckpt/gptzh")
DEV_DOC_TOKENS = 16_000
K_GRID = (1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.3, 1.0)  # add-k values tried on the dev split for each baseline


def corpus(cache: Path) -> list[data.Doc]:
    """The documents, read once (12 s of HTML parsing) and cached beside the checkpoint."""
    if cache.exists():
        return [data.Doc(**d) for d in json.loads(cache.read_text())]
    docs = data.all_docs()
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps([d.__dict__ for d in docs], ensure_ascii=False))
    return docs


def texts(docs, source_is_hsk: bool, split: str) -> list[str]:
    """The documents of one source and split; HSK's sentences as paragraphs (data.paragraphs)."""
    chosen = [d.text for d in docs if (d.source == "hsk") == source_is_hsk and d.split == split]
    return data.paragraphs(chosen) if source_is_hsk else chosen


def model_nll(model, ids: list[int], length: int, batch: int = 16) -> tuple[float, int]:
    """(summed NLL in nats, tokens) of a stream under the model, in windows of `length` (data.blocks)."""
    import torch

    pieces = data.blocks(ids, length)
    total, count = 0.0, 0
    was_training = model.training
    model.eval()
    with torch.no_grad():
        for i in range(0, len(pieces), batch):
            group = pieces[i : i + batch]
            width = max(len(p) for p in group)
            x = torch.zeros(len(group), width, dtype=torch.long)
            mask = torch.zeros(len(group), width, dtype=torch.long)
            for row, p in enumerate(group):
                x[row, : len(p)] = torch.tensor(p)
                mask[row, : len(p)] = 1
            logits = model(input_ids=x, attention_mask=mask).logits[:, :-1].float()
            target = x[:, 1:]
            keep = mask[:, 1:].bool()
            nll = torch.nn.functional.cross_entropy(logits.transpose(1, 2), target, reduction="none")
            total += nll[keep].sum().item()
            count += int(keep.sum())
    model.train(was_training)  # an app's model stays in eval mode
    return total, count


def baselines(ngram: data.NGram, dev: list[int], tests: dict[str, list[int]]) -> dict:
    """Unigram and bigram perplexity on each held-out stream, k chosen (from K_GRID) on the dev stream."""
    out = {}
    for order, name in ((1, "unigram"), (2, "bigram")):
        k = min(K_GRID, key=lambda k: ngram.perplexity(dev, order, k))
        out[name] = {"k": k, **{t: round(ngram.perplexity(ids, order, k), 2) for t, ids in tests.items()}}
    return out


def evaluate(args, held_out, say) -> None:
    """The committed weights measured again through the app's own load path: held-out perplexities, and exercise 2
    (人工智能的未来是 at T = 0.1 / 0.8 / 1.5, seed 0, 30 new tokens, as the lesson's link runs it) into summary.json."""
    sys.path.insert(0, str(ROOT))
    from playground import models
    from playground.lessons import PROMPT_ZH
    from playground.sampling import encode_prompt, generation, next_token_logits, settings

    lm = models.load("gpt-zh")
    summary = json.loads((args.out / "summary.json").read_text(encoding="utf-8"))
    summary["held_out_perplexity"] = held_out(lm.model)
    summary["exercise_2"] = {
        str(t): generation.generate(lm, PROMPT_ZH, settings(t, 0, 1.0), 30, 1, 0).samples[0].text for t in (0.1, 0.8, 1.5)
    }
    summary["next_token"] = {}  # the five most probable next tokens at T = 1 after the course's Chinese prompts
    for prompt in (PROMPT_ZH, "我爱", "我爱自然语言"):
        probs = next_token_logits(lm, encode_prompt(lm, prompt)).softmax(-1)
        top = probs.topk(5)
        summary["next_token"][prompt] = [
            [lm.tokenizer.convert_ids_to_tokens(int(i)), round(float(p), 3)] for p, i in zip(top.values, top.indices)
        ]
    chain = "我爱自然语言处理"  # the course's GPT step by step: the rank of each next character of the sentence
    summary["step_by_step"] = {}
    for i in range(1, len(chain)):
        probs = next_token_logits(lm, encode_prompt(lm, chain[:i])).softmax(-1)
        p = probs[lm.tokenizer.convert_tokens_to_ids(chain[i])]
        summary["step_by_step"][f"{chain[:i]} -> {chain[i]}"] = {"p": round(float(p), 4), "rank": int((probs > p).sum()) + 1}
    (args.out / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=2) + "\n")
    say(f"evaluated {args.out}: {json.dumps(summary['held_out_perplexity'])}; exercise 2: {summary['exercise_2']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "assets" / "gpt_zh")
    parser.add_argument("--log", type=Path, default=ROOT / "assets" / "gpt_zh" / "train.log")
    parser.add_argument("--checkpoint", type=Path, default=CKPT / "checkpoint.pt")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--minutes", type=float, default=60.0, help="training time of this run (then it stops)")
    parser.add_argument("--steps", type=int, default=1600, help="the learning-rate schedule's length")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--block", type=int, default=128, help="tokens per training window (= n_positions)")
    parser.add_argument("--embd", type=int, default=128)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--vocab", type=int, default=6000)
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--hsk-share", type=float, default=0.2, help="share of training windows drawn from HSK")
    parser.add_argument("--eval-every", type=int, default=150)
    parser.add_argument("--save-minutes", type=float, default=5.0, help="resumable checkpoint every N minutes")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--reset-best", action="store_true", help="on --resume: forget the best dev loss (the dev text was changed)"
    )
    parser.add_argument(
        "--evaluate", action="store_true", help="no training: measure the weights in --out again and update its summary"
    )
    args = parser.parse_args()

    import torch
    from safetensors.torch import save_file
    from transformers import GPT2Config, GPT2LMHeadModel, GenerationConfig

    torch.set_num_threads(args.threads)
    if args.evaluate:  # the baselines are counted on the mix the committed weights were trained on, not the default
        trained = json.loads((args.out / "summary.json").read_text(encoding="utf-8"))
        args.hsk_share, args.block = trained["hsk_share"], trained["config"]["n_positions"]
        args.embd, args.layers, args.heads = (trained["config"][k] for k in ("n_embd", "n_layer", "n_head"))
    args.out.mkdir(parents=True, exist_ok=True)
    args.log.parent.mkdir(parents=True, exist_ok=True)
    args.checkpoint.parent.mkdir(parents=True, exist_ok=True)

    def say(line: str) -> None:
        print(line, flush=True)
        with open(args.log, "a", encoding="utf-8") as f:
            f.write(line + "\n")

    docs = corpus(args.checkpoint.parent / "corpus.json")
    tok_dir = args.checkpoint.parent / "tokenizer"
    if args.evaluate or (args.resume and (tok_dir / "tokenizer.json").exists()):
        from transformers import AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(str(args.out if args.evaluate else tok_dir))
    else:  # built from the training split only: held-out characters never enter the vocabulary through it
        train_texts = texts(docs, True, "train") + texts(docs, False, "train")
        tokenizer = data.wrap_tokenizer(data.build_tokenizer(train_texts, vocab_size=args.vocab), args.block)
        tokenizer.save_pretrained(str(tok_dir))
    vocab = len(tokenizer)
    eot = tokenizer.convert_tokens_to_ids(data.EOT)

    streams = {
        (hsk, split): data.stream(tokenizer, texts(docs, hsk, split))
        for hsk in (True, False)
        for split in ("train", "dev", "test")
    }
    hsk_train, doc_train = streams[True, "train"], streams[False, "train"]
    say(
        f"start {time.strftime('%Y-%m-%d %H:%M:%S')}; threads {args.threads}; seed {args.seed}; vocab {vocab} "
        f"({sum(data.is_chinese_char(t) for t in tokenizer.get_vocab())} Chinese characters); "
        f"tokens: hsk train {len(hsk_train)} dev {len(streams[True, 'dev'])} test {len(streams[True, 'test'])}, "
        f"docs train {len(doc_train)} dev {len(streams[False, 'dev'])} test {len(streams[False, 'test'])}; "
        f"hsk share {args.hsk_share}"
    )

    config = GPT2Config(
        vocab_size=vocab,
        n_positions=args.block,
        n_embd=args.embd,
        n_layer=args.layers,
        n_head=args.heads,
        resid_pdrop=args.dropout,
        embd_pdrop=args.dropout,
        attn_pdrop=args.dropout,
        bos_token_id=eot,
        eos_token_id=eot,
        tie_word_embeddings=True,
    )
    torch.manual_seed(args.seed)  # a script, not the app: seeding the process is what makes the run repeatable
    model = GPT2LMHeadModel(config)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW(
        [{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}], lr=args.lr, betas=(0.9, 0.95)
    )
    rng = random.Random(args.seed)
    step, best, minutes_before = 0, math.inf, 0.0
    if args.resume and args.checkpoint.exists():
        ck = torch.load(args.checkpoint, weights_only=False)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        step, best, minutes_before = ck["step"], ck["best"], ck["minutes"]
        rng.setstate(ck["rng"])
        torch.set_rng_state(ck["torch_rng"])
        say(f"resumed at step {step} ({minutes_before:.1f} min of training before; best dev loss {best:.4f})")
        if args.reset_best:
            best = math.inf
            say("best dev loss forgotten (--reset-best): the next evaluation's weights are saved")
    say(
        f"model: GPT-2 {args.layers} layers, {args.heads} heads, {args.embd} wide, {args.block} positions; "
        f"{model.num_parameters():,} parameters"
    )

    # The mixture the model reads, for the baselines too: HSK weighted so that its share of tokens is --hsk-share.
    hsk_weight = args.hsk_share / (1 - args.hsk_share) * len(doc_train) / len(hsk_train)
    ngram = data.NGram(vocab, [(doc_train, 1.0), (hsk_train, hsk_weight)])
    dev_all = streams[True, "dev"] + streams[False, "dev"]
    tests = {"hsk_held_out": streams[True, "test"], "docs_held_out": streams[False, "test"]}
    # a minute of counting, once per vocabulary, mix and paragraph length
    cached = args.checkpoint.parent / f"baselines-v{vocab}-h{args.hsk_share}-p{data.HSK_PER_PARAGRAPH}.json"
    base = json.loads(cached.read_text()) if args.resume and cached.exists() else baselines(ngram, dev_all, tests)
    cached.write_text(json.dumps(base))
    # An in-domain baseline too: n-grams counted on the HSK training sentences alone (k chosen on HSK's dev split).
    hsk_base = baselines(data.NGram(vocab, [(hsk_train, 1.0)]), streams[True, "dev"], {"hsk_held_out": tests["hsk_held_out"]})
    say(f"HSK-only baselines on the HSK held-out split: {json.dumps(hsk_base)}")

    def held_out(model) -> dict:
        held = {}
        for name, ids in tests.items():
            nll, n = model_nll(model, ids, args.block - 1)
            held[name] = {"tokens": n, "gpt": round(math.exp(nll / n), 2)}
            for b in ("unigram", "bigram"):
                held[name][b] = base[b][name]
        for b in ("unigram", "bigram"):
            held["hsk_held_out"][f"{b}_hsk_only"] = hsk_base[b]["hsk_held_out"]
        return held

    if args.evaluate:
        evaluate(args, held_out, say)
        return
    say(f"baselines (add-k, k chosen on dev): {json.dumps(base)}")

    def lr_at(s: int) -> float:
        if s < args.warmup:
            return args.lr * (s + 1) / args.warmup
        progress = min(1.0, (s - args.warmup) / max(1, args.steps - args.warmup))
        return args.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))

    def batch():
        rows = []
        for _ in range(args.batch):
            source = hsk_train if rng.random() < args.hsk_share else doc_train
            start = rng.randrange(0, len(source) - args.block)
            rows.append(source[start : start + args.block])  # the model shifts the labels itself
        return torch.tensor(rows)

    def dev_loss() -> dict[str, float]:
        out = {}  # HSK's whole dev split; the first DEV_DOC_TOKENS of the documentation's (a shared CPU: keep it short)
        for name, ids in (("hsk", streams[True, "dev"]), ("docs", streams[False, "dev"][:DEV_DOC_TOKENS])):
            nll, n = model_nll(model, ids, args.block - 1)
            out[name] = nll / n
        return out

    def save_best(dev: dict[str, float], minutes: float) -> None:
        half = GPT2LMHeadModel(config)
        half.load_state_dict(model.state_dict())
        state = {n: t.detach().to(torch.float16).contiguous() for n, t in half.state_dict().items() if n != "lm_head.weight"}
        config.save_pretrained(str(args.out))
        GenerationConfig(bos_token_id=eot, eos_token_id=eot, pad_token_id=eot).save_pretrained(str(args.out))
        save_file(state, str(args.out / "model.safetensors"), metadata={"format": "pt"})
        tokenizer.save_pretrained(str(args.out))
        held = held_out(model)
        summary = {
            "model": "gpt-zh: a small classroom GPT, trained here (GPT-2 architecture, from scratch)",
            "config": {k: getattr(config, k) for k in ("vocab_size", "n_positions", "n_embd", "n_layer", "n_head")},
            "parameters": model.num_parameters(),
            "tokenizer": "BPE (tokenizers); every CJK character one token; built on the training split",
            "chinese_characters_in_vocab": sum(data.is_chinese_char(t) for t in tokenizer.get_vocab()),
            "corpus_train_tokens": {"hsk": len(hsk_train), "docs": len(doc_train)},
            "hsk_share": args.hsk_share,
            "step": step,
            "tokens_seen": step * args.batch * args.block,
            "minutes_training": round(minutes, 1),
            "threads": args.threads,
            "seed": args.seed,
            "dev_loss": {k: round(v, 4) for k, v in dev.items()},
            "held_out_perplexity": held,
            "baseline_k": {b: base[b]["k"] for b in ("unigram", "bigram")},
            "baseline_k_hsk_only": {b: hsk_base[b]["k"] for b in ("unigram", "bigram")},
            "storage": "float16 safetensors (lm_head tied to the input embeddings)",
            "licences": "trained on CC BY-SA 4.0 data (HSK sentences): a derivative, CC BY-SA 4.0; "
            "other text MPL-2.0 / GPL-2+ / GPL-3+ / SPI notice (scripts/gpt_zh_data.py)",
        }
        (args.out / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=2) + "\n")
        say(f"step {step} saved: held-out perplexity {json.dumps(held)}")

    def checkpoint(minutes: float) -> None:
        tmp = args.checkpoint.with_suffix(".tmp")
        torch.save(
            {
                "model": model.state_dict(),
                "opt": opt.state_dict(),
                "step": step,
                "best": best,
                "minutes": minutes,
                "rng": rng.getstate(),
                "torch_rng": torch.get_rng_state(),
                "args": vars(args) | {"out": str(args.out), "log": str(args.log), "checkpoint": str(args.checkpoint)},
            },
            tmp,
        )
        tmp.rename(args.checkpoint)  # atomic: a run killed while saving keeps the previous checkpoint

    started = time.time()
    last_save = started
    model.train()
    running, seen = 0.0, 0
    while True:
        minutes = minutes_before + (time.time() - started) / 60
        if time.time() - started > args.minutes * 60 or step >= args.steps:
            break
        for group in opt.param_groups:
            group["lr"] = lr_at(step)
        x = batch()
        loss = model(input_ids=x, labels=x).loss
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        running += loss.item()
        seen += 1
        if step % 50 == 0:
            say(f"step {step} train loss {running / seen:.3f} lr {lr_at(step):.2e} {minutes:.1f} min")
            running, seen = 0.0, 0
        if step % args.eval_every == 0 or step == args.steps:
            dev = dev_loss()
            score = (dev["hsk"] + dev["docs"]) / 2
            say(f"step {step} dev loss hsk {dev['hsk']:.4f} docs {dev['docs']:.4f}")
            if score < best:
                best = score
                save_best(dev, minutes)
        if time.time() - last_save > args.save_minutes * 60:
            checkpoint(minutes)
            last_save = time.time()
    minutes = minutes_before + (time.time() - started) / 60
    checkpoint(minutes)
    say(f"stopped at step {step} after {minutes:.1f} min of training (resume with --resume)")


if __name__ == "__main__":
    main()
