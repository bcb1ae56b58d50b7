"""The text-to-text view as a script: `T5ForConditionalGeneration.generate` with `output_attentions=True`, printing
each decoder step's token and its cross-attention row over the source tokens (mean of every layer and head, as the
view's "mean"). Greedy is `generate(do_sample=False)`; with sampling, the script seeds torch's generator with the
request's seed and passes temperature, top_k and top_p explicitly (generate's own default top_k is 50), so it draws
what the page drew (tests/unit/t5/test_t5_code.py runs it).
"""

from __future__ import annotations

from dataclasses import fields

from playground import checks, t5
from playground.snippets import Snippet, comment, header, join, load_model, offline, py

_BODY = """
text = {text}
enc = tokenizer(text, return_tensors="pt")
{seed}with torch.no_grad():
    out = model.generate(
        **enc,
        max_new_tokens={max_new},
{sampling}        output_attentions=True,  # {attention_comment}
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
    greedy = r.temperature == 0
    if greedy:
        sampling = "        do_sample=False,  # greedy: the most probable token at every step\n"
        seed = ""
    else:
        sampling = (
            f"        do_sample=True,\n        temperature={r.temperature},\n"
            f"        top_k={r.top_k},  # 0: off (generate's default would be 50)\n        top_p={r.top_p},\n"
        )
        seed = f"torch.manual_seed({r.seed})  # the page's seed: the same draws\n"
    body = _BODY.format(
        text=py(r.text),
        seed=seed,
        max_new=r.max_new_tokens,
        sampling=sampling,
        attention_comment="encoder, decoder and cross-attention of every step",
        cross_comment=comment(
            "out.cross_attentions[step]: one tensor per decoder layer, (batch, heads, 1, source tokens)",
            "out.cross_attentions[step]：每个解码器层一个张量，形状 (batch, 头数, 1, 源词元数)",
        ),
    )
    lines = header(
        "text to text, one decoder step at a time, with cross-attention",
        "文本到文本：解码器一步一步地写，附交叉注意力",
        "import torch",
        "from transformers import AutoModelForSeq2SeqLM, AutoTokenizer",
    )
    lines += load_model(r.model, "AutoModelForSeq2SeqLM", eager=True)
    lines.append(body)
    return Snippet(join(lines), offline([r.model]))


VIEWS = {"text_to_text": (request, code)}
