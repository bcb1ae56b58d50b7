"""Text to text: an encoder-decoder (T5) writing its answer one decoder step at a time, with every attention it used.

T5 casts every task as text in, text out (`translate English to German: That is good.` -> `Das ist gut.`,
`sst2 sentence: This movie is great!` -> `positive`). The encoder reads the source once; the decoder then writes
one token per step, reading the tokens it has written (masked, causal self-attention) and the encoder's output
(cross-attention). This module runs exactly that loop, written out (as `model.generate` runs it, with the
key/value cache), so each step can be shown:

- the next-token distribution, through the sampling tab's own stages (playground.sampling.warpers: temperature,
  top-k, top-p: transformers' warpers in `generate`'s order), and the token chosen from it;
- that step's cross-attention over the source tokens, per decoder layer and head;
- from the same run, the three attention families of an encoder-decoder: encoder self-attention (source x source,
  bidirectional), decoder self-attention (steps x steps, causal) and cross-attention (steps x source). Each decoder
  row is the one the step computed (the cache holds the earlier keys and values), so the families are what the
  run used, not a second pass.

Greedy (temperature 0) is `generate(do_sample=False)` token for token (tests/unit/t5 checks it on a tiny T5).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from playground import availability, checks, device
from playground.errors import InputError
from playground.models import LoadedModel
from playground.runtime import Runtime
from playground.sampling import warpers
from playground.sampling.warpers import Distribution, SamplingSettings

KINDS = ("seq2seq",)  # the model kinds with an encoder and a decoder
FAMILIES = ("encoder", "decoder", "cross")  # encoder self-attention, decoder self-attention, cross-attention
MAX_TEXT_CHARS = 2000
MAX_SOURCE_TOKENS = 256
MAX_NEW_TOKENS = 64
CACHE_SIZE = 16
ROUND = 5  # decimals of an attention weight in the JSON


@dataclass(frozen=True)
class TextToTextRequest:
    text: str
    model: str = ""  # "" = the first available encoder-decoder (offline: the classroom T5 trained here)
    max_new_tokens: int = 24
    temperature: float = 0.0  # 0 = greedy, as T5 is usually run
    top_k: int = 0
    top_p: float = 1.0
    seed: int = 0


@dataclass(frozen=True)
class DecoderStep:
    """One step of the decoder: what it read, the distribution it wrote, what was chosen, where it looked."""

    position: int  # 0-based: the step's row in the decoder and cross-attention matrices
    read: str  # the token the decoder read at this step (its start token <pad> at step 0, then the previous choice)
    token_id: int  # the token chosen at this step
    token: str  # that token as the tokenizer writes it (T5's ▁ marks a word start; sentinels as <extra_id_0>)
    distribution: Distribution  # the sampling tab's stages of this step's next-token distribution
    cross: np.ndarray  # (decoder layers, heads, source tokens): this step's cross-attention rows, each sums to 1


@dataclass(frozen=True)
class TextToTextResult:
    model_key: str
    model_id: str
    model_label: str
    device: str
    text: str
    settings: SamplingSettings
    seed: int
    source_tokens: tuple[str, ...]  # the encoder's input as pieces (with its </s>)
    decoder_tokens: tuple[str, ...]  # what the decoder read, step by step: <pad> (start), then each chosen token
    output_ids: tuple[int, ...]  # the chosen tokens
    output: str  # the chosen tokens as text (special tokens left out, sentinels kept)
    finished: bool  # stopped on </s> (else max_new_tokens ran out)
    steps: tuple[DecoderStep, ...]
    encoder_attention: np.ndarray  # (encoder layers, heads, source, source): bidirectional
    decoder_attention: np.ndarray  # (decoder layers, heads, steps, steps): causal, zero above the diagonal
    cross_attention: np.ndarray  # (decoder layers, heads, steps, source)
    seconds: float

    def family(self, name: str) -> np.ndarray:
        """One of FAMILIES' attention tensors: (layers, heads, query tokens, key tokens)."""
        return {"encoder": self.encoder_attention, "decoder": self.decoder_attention, "cross": self.cross_attention}[name]

    def to_dict(self) -> dict:
        rounded = lambda a: np.round(a.astype(np.float64), ROUND).tolist()  # noqa: E731
        return {
            "model": self.model_key,
            "model_id": self.model_id,
            "device": self.device,
            "text": self.text,
            "settings": {"temperature": self.settings.temperature, "top_k": self.settings.top_k, "top_p": self.settings.top_p},
            "seed": self.seed,
            "source_tokens": list(self.source_tokens),
            "decoder_tokens": list(self.decoder_tokens),
            "output": self.output,
            "output_ids": list(self.output_ids),
            "finished": self.finished,
            "steps": [
                {
                    "position": s.position,
                    "read": s.read,
                    "token": s.token,
                    "token_id": s.token_id,
                    "distribution": s.distribution.to_dict(),
                    "cross_attention": rounded(s.cross),
                    "cross_attention_mean": rounded(s.cross.mean(axis=(0, 1))),
                }
                for s in self.steps
            ],
            "attention": {name: rounded(self.family(name)) for name in FAMILIES},
            "seconds": round(self.seconds, 3),
        }


def pieces(tokenizer: Any, ids: list[int]) -> tuple[str, ...]:
    """The tokenizer's own pieces (`▁gut`, `<extra_id_0>`, `</s>`): what T5 reads, shown as it is (escaped later)."""
    return tuple(str(p) for p in tokenizer.convert_ids_to_tokens([int(i) for i in ids]))


def encode_source(lm: LoadedModel, text: str) -> list[int]:
    """The encoder's input ids (the tokenizer adds T5's </s>), or the reason it cannot be read."""
    if not text.strip():
        raise InputError("t5_empty_text", "Type a text for the model to read (e.g. translate English to German: ...).")
    ids = lm.tokenizer(text)["input_ids"]
    if len(ids) > MAX_SOURCE_TOKENS:
        raise InputError(
            "t5_too_long", "The text has {n} tokens; this view reads at most {limit}.", n=len(ids), limit=MAX_SOURCE_TOKENS
        )
    return ids


def _start_and_end(model: Any, tokenizer: Any) -> tuple[int, set[int]]:
    config = model.generation_config
    start = config.decoder_start_token_id
    start = model.config.decoder_start_token_id if start is None else start
    start = tokenizer.pad_token_id if start is None else start
    eos = config.eos_token_id
    eos = tokenizer.eos_token_id if eos is None else eos
    return int(start), set(eos if isinstance(eos, list) else [] if eos is None else [eos])


def choose(logits: torch.Tensor, s: SamplingSettings, generator: torch.Generator) -> int:
    """The next token: the argmax when greedy, else a draw from the warped distribution (generate's own chain)."""
    if s.greedy:
        return int(logits.argmax())
    probs = warpers.warp(logits.float().reshape(1, -1), s).softmax(-1)
    return int(torch.multinomial(probs, 1, generator=generator))


@torch.inference_mode()
def _decode(lm: LoadedModel, text: str, s: SamplingSettings, seed: int, max_new_tokens: int) -> TextToTextResult:
    began = time.perf_counter()
    model, tok = lm.model, lm.tokenizer
    source = encode_source(lm, text)
    ids = torch.tensor([source], device=lm.device)
    mask = torch.ones_like(ids)
    encoder = model.get_encoder()(input_ids=ids, attention_mask=mask, output_attentions=True, return_dict=True)
    enc_att = torch.stack([a[0] for a in encoder.attentions]).float().cpu().numpy()  # (layers, heads, S, S)
    start, eos = _start_and_end(model, tok)
    generator = torch.Generator(device=lm.device).manual_seed(seed)  # local: no global RNG
    read, chosen, steps, self_rows = [start], [], [], []
    past = None
    for position in range(max_new_tokens):
        out = model(
            encoder_outputs=encoder,
            attention_mask=mask,
            decoder_input_ids=torch.tensor([[read[-1]]], device=lm.device),
            past_key_values=past,
            use_cache=True,
            output_attentions=True,
            return_dict=True,
        )
        past = out.past_key_values
        logits = out.logits[0, -1].float()
        token = choose(logits, s, generator)
        cross = torch.stack([a[0, :, -1] for a in out.cross_attentions]).float().cpu().numpy()  # (layers, heads, S)
        self_rows.append(torch.stack([a[0, :, -1] for a in out.decoder_attentions]).float().cpu().numpy())
        steps.append(
            DecoderStep(
                position=position,
                read=pieces(tok, [read[-1]])[0],
                token_id=token,
                token=pieces(tok, [token])[0],
                distribution=warpers.distribution(lm, logits, s, chosen=token),
                cross=cross,
            )
        )
        chosen.append(token)
        if token in eos:
            break
        read.append(token)
    n = len(steps)
    layers, heads = self_rows[0].shape[:2]
    dec_att = np.zeros((layers, heads, n, n), dtype=np.float32)
    for t, row in enumerate(self_rows):  # row t saw decoder positions 0..t: the causal mask, as the cache ran it
        dec_att[:, :, t, : t + 1] = row
    special = {i for i in (tok.pad_token_id, tok.eos_token_id) if i is not None}
    return TextToTextResult(
        model_key=lm.spec.key,
        model_id=lm.spec.hf_id,
        model_label=lm.spec.label,
        device=lm.device,
        text=text,
        settings=s,
        seed=seed,
        source_tokens=pieces(tok, source),
        decoder_tokens=pieces(tok, read[:n]),
        output_ids=tuple(chosen),
        output=tok.decode([i for i in chosen if i not in special], skip_special_tokens=False).strip(),
        finished=bool(chosen and chosen[-1] in eos),
        steps=tuple(steps),
        encoder_attention=enc_att,
        decoder_attention=dec_att,
        cross_attention=np.stack([st.cross for st in steps], axis=2),
        seconds=time.perf_counter() - began,
    )


@device.entry(20)
def text_to_text(lm: LoadedModel, text: str, s: SamplingSettings, seed: int, max_new_tokens: int) -> TextToTextResult:
    """The encoder once, then the decoder one step at a time, every step and attention kept."""
    return _decode(lm, text, s, seed, max_new_tokens)


def default_model(lang: str | None = None) -> str | None:
    """The first available encoder-decoder (with `lang`, the first that reads it); None when there is none."""
    specs = availability.available_specs(*KINDS)
    speaking = [s for s in specs if s.speaks(lang)] if lang else specs
    return (speaking or specs)[0].key if specs else None


def check_request(request: TextToTextRequest) -> TextToTextRequest:
    """The request with every field checked (model "" -> the default encoder-decoder), or the checks' InputError."""
    text = checks.text(request.text, "text", MAX_TEXT_CHARS)
    max_new = checks.whole(request.max_new_tokens, "max_new_tokens", 1, MAX_NEW_TOKENS)
    s = warpers.settings(request.temperature, request.top_k, request.top_p)
    seed = checks.seed(request.seed)
    model = request.model  # last: a bad field is named even where no encoder-decoder can load
    if model is None or model == "":
        model = default_model() or ""
        if not model:
            raise InputError("t5_no_model", "No encoder-decoder model can load here (the unavailable models list says why).")
    return TextToTextRequest(text, model, max_new, s.temperature, s.top_k, s.top_p, seed)


def run_text_to_text(request: TextToTextRequest, runtime: Runtime) -> TextToTextResult:
    """One text-to-text run of an encoder-decoder, step by step, with its three attention families."""
    r = check_request(request)
    key = runtime.spec(r.model, "model", KINDS).key  # refused before any weights load when not an encoder-decoder
    s = SamplingSettings(r.temperature, r.top_k, r.top_p)
    return runtime.cached(
        "t5",
        CACHE_SIZE,
        (key, r.text, s, r.seed, r.max_new_tokens),
        lambda: text_to_text(runtime.model(key), r.text, s, r.seed, r.max_new_tokens),
        model=key,
    )
