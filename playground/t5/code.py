"""The text-to-text view as a script: `T5ForConditionalGeneration.generate` with `output_attentions=True`, printing
each decoder step's token and its cross-attention row over the source tokens (mean of every layer and head, as the
view's "mean"). Greedy is `generate(do_sample=False)`. A sampled run is written as the page runs it, one decoder
step at a time with generate's warper chain (sampling.code.warpers) and a local `torch.Generator` seeded with the
request's seed: the same draws as the page, and no global RNG seeded (`generate` samples only from torch's global
generator). tests/unit/t5/test_t5_code.py runs both and compares them with the view.
"""

from __future__ import annotations

from dataclasses import fields

from playground import checks, t5
from playground.sampling.code import IMPORTS, warpers
from playground.snippets import Snippet, comment, header, join, load_model, offline, py

_BODY = """
text = {text}
enc = tokenizer(text, return_tensors="pt")
with torch.no_grad():
    out = model.generate(
        **enc,
        max_new_tokens={max_new},
        do_sample=False,  # greedy: the most probable token at every step
        output_attentions=True,  # {attention_comment}
        return_dict_in_generate=True,
    )
source = tokenizer.convert_ids_to_tokens(enc.input_ids[0])
print("source:", source)
{cross_comment}
for step, token_id in enumerate(out.sequences[0, 1:].tolist()):
    layers = out.cross_attentions[step]
    row = torch.stack([layer[0, :, -1] for layer in layers]).mean(dim=(0, 1))
    token = tokenizer.convert_ids_to_tokens(token_id)
    print(f"step {{step}}: {{token}} (id {{token_id}}) looks most at {{source[int(row.argmax())]}}")
    print("  cross-attention:", [round(p, 4) for p in row.tolist()])
print("output:", tokenizer.decode(out.sequences[0], skip_special_tokens=True))
"""

_SAMPLED = """
text = {text}
enc = tokenizer(text, return_tensors="pt")
warp = {warp}  # generate's warpers, in its order
generator = torch.Generator(device=model.device).manual_seed({seed})  # {seed_comment}
start = model.generation_config.decoder_start_token_id
eos = model.generation_config.eos_token_id
eos = set(eos if isinstance(eos, list) else [eos])
source = tokenizer.convert_ids_to_tokens(enc.input_ids[0])
print("source:", source)
{cross_comment}
read, written, past = [start], [], None
with torch.no_grad():
    encoder = model.get_encoder()(**enc)  # the encoder reads the source once
    for step in range({max_new}):
        out = model(
            encoder_outputs=encoder,
            attention_mask=enc.attention_mask,
            decoder_input_ids=torch.tensor([[read[-1]]]),  # the decoder reads the token it wrote last
            past_key_values=past,
            use_cache=True,
            output_attentions=True,  # {attention_comment}
        )
        past = out.past_key_values
        probs = warp(None, out.logits[:, -1].float()).softmax(-1)
        token_id = int(torch.multinomial(probs, 1, generator=generator))
        row = torch.stack([layer[0, :, -1] for layer in out.cross_attentions]).mean(dim=(0, 1))
        token = tokenizer.convert_ids_to_tokens(token_id)
        print(f"step {{step}}: {{token}} (id {{token_id}}) looks most at {{source[int(row.argmax())]}}")
        print("  cross-attention:", [round(p, 4) for p in row.tolist()])
        written.append(token_id)
        if token_id in eos:
            break
        read.append(token_id)
print("output:", tokenizer.decode(written, skip_special_tokens=True))
"""


def request(params: dict) -> t5.TextToTextRequest:
    """/text_to_text's parameters (text, model, max_new_tokens, temperature, top_k, top_p, seed), checked."""
    names = {f.name for f in fields(t5.TextToTextRequest)}
    unknown = set(params) - names
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    r = t5.check_request(t5.TextToTextRequest(**{"text": "", **params}))
    checks.model_key(r.model, "model", t5.KINDS)  # the kind, with no weights loaded
    return r


def code(r: t5.TextToTextRequest) -> Snippet:
    settings = t5.warpers.settings(r.temperature, r.top_k, r.top_p)
    attention = "encoder, decoder and cross-attention of every step"
    if settings.greedy:
        cross = comment(
            "out.cross_attentions[step]: one tensor per decoder layer, (batch, heads, 1, source tokens)",
            "out.cross_attentions[step]：每个解码器层一个张量，形状 (batch, 头数, 1, 源词元数)",
        )
        body = _BODY.format(text=py(r.text), max_new=r.max_new_tokens, attention_comment=attention, cross_comment=cross)
        imports = "from transformers import AutoModelForSeq2SeqLM, AutoTokenizer"
    else:
        cross = comment(
            "out.cross_attentions: one tensor per decoder layer, (batch, heads, 1, source tokens)",
            "out.cross_attentions：每个解码器层一个张量，形状 (batch, 头数, 1, 源词元数)",
        )
        seed_comment = comment("the page's seed, a generator of its own", "页面的种子，独立的生成器").lstrip("# ")
        body = _SAMPLED.format(
            text=py(r.text),
            warp=warpers(settings),
            seed=r.seed,
            seed_comment=seed_comment,
            max_new=r.max_new_tokens,
            attention_comment="cross-attention of this step",
            cross_comment=cross,
        )
        imports = IMPORTS[1].replace("AutoModelForCausalLM", "AutoModelForSeq2SeqLM")  # the sampling script's warpers
    lines = header(
        "text to text, one decoder step at a time, with cross-attention",
        "文本到文本：解码器一步一步地写，附交叉注意力",
        "import torch",
        imports,
    )
    lines += load_model(r.model, "AutoModelForSeq2SeqLM", eager=True)
    lines.append(body)
    return Snippet(join(lines), offline([r.model]))


VIEWS = {"text_to_text": (request, code)}
