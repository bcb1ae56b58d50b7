"""The polysemy view as a script: `output_hidden_states`, the word's pieces pooled, cosines between sentences."""

from __future__ import annotations

from playground.polysemy import KINDS, PolysemyRequest, check_models, check_request
from playground.polysemy.views import FEW
from playground.snippets import Snippet, comment, header, join, load_model, offline, py, spec_of

AUTO = {"encoder": "AutoModel", "masked": "AutoModelForMaskedLM", "causal": "AutoModelForCausalLM"}
_FIELDS = ("word", "sentences", "models", "input_embeddings", "layer", "pooling", "projection", "dims", "seed")


def request_of(params: dict) -> PolysemyRequest:
    """/polysemy's parameters (word, sentences, models, input_embeddings, layer, pooling, ...), its defaults filled in."""
    unknown = set(params) - set(_FIELDS)
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    request = PolysemyRequest(**{"word": None, "sentences": "", "models": [], **params})
    check_request(request)
    return request


# The part every transformer shares: per sentence one forward pass, the word's pieces pooled at every layer.
_VECTORS = """
vectors, inputs, senses, by_layer = [], [], [], []
for sense, text, (start, end) in sentences:
    enc = tokenizer(text, return_offsets_mapping=True, return_special_tokens_mask=True, return_tensors="pt")
    offsets, special = enc.pop("offset_mapping")[0].tolist(), enc.pop("special_tokens_mask")[0].tolist()
    {align}
    pieces = [i for i, ((a, b), s) in enumerate(zip(offsets, special)) if not s and b > a and a < end and b > start]
    if not pieces:
        continue
    with torch.no_grad():
        out = model(**enc.to(model.device), output_hidden_states=True)
    hidden = out.hidden_states  {layers}
    h = hidden[LAYER if LAYER is not None and LAYER < len(hidden) else -1][0].float()
    e = model.get_input_embeddings()(enc["input_ids"])[0].float()
    vectors.append({pool_h})
    inputs.append({pool_e})
    senses.append(sense)
    by_layer.append(torch.stack([{pool_all} for x in hidden]))  {by_layer}
"""

_COMPARE = """
def cosines(rows):
    unit = torch.nn.functional.normalize(torch.stack(rows), dim=-1)
    return unit @ unit.T


def shown(x):
    {shown}
    return "—" if math.isnan(x) else f"{{x:.6f}}"


def separation(cos, senses):
    {separation}
    keep = [i for i, s in enumerate(senses) if s]
    if len({{senses[i] for i in keep}}) < 2:
        return float("nan")
    cos = cos[keep][:, keep]
    same = torch.tensor([[senses[i] == senses[j] for j in keep] for i in keep])
    off = ~torch.eye(len(keep), dtype=torch.bool)
    within = cos[same & off]
    return (within.mean() - cos[~same].mean()).item() if within.numel() else float("nan")
"""


def _pool(var: str, pooling: str) -> str:
    return f"{var}[pieces[0]]" if pooling == "first" else f"{var}[pieces].mean(0)"


def _report(key: str, rows: str, name: str) -> list[str]:
    return [
        f"cos = cosines({rows})",
        f"print({py(name)}, 'separation', shown(separation(cos, senses)))",
        "for sense, row in zip(senses, cos.tolist()):",
        "    print(f'  {sense:>10} ' + ' '.join(f'{c:.6f}' for c in row))",
    ]


def _pairs_by_layer(key: str) -> list[str]:
    """With few sentences the page draws each pair's cosine at every layer (exercise 1): the script prints it too."""
    return [
        f"if len(by_layer) <= {FEW}:  "
        + comment(
            "few sentences: each pair's cosine at every layer, as the page draws it",
            "句子很少：逐层打印每对句子的余弦，与页面的图一致",
        ),
        f"    print('by layer, ' + {py(key)} + ': cosine of each pair (layer 0 = the embeddings)')",
        "    for a in range(len(by_layer)):",
        "        for b in range(a + 1, len(by_layer)):",
        "            cos = torch.nn.functional.cosine_similarity(by_layer[a], by_layer[b], dim=-1)",
        "            print(f'  #{a + 1}-#{b + 1} ' + ' '.join(f'{c:.6f}' for c in cos.tolist()))",
    ]


def polysemy_code(request: PolysemyRequest) -> Snippet:
    """Per transformer of the request: the cosine matrix between the word's vectors at the shown layer, and its
    separation score (mean within-sense cosine minus mean cross-sense cosine); also for the input-embedding rows."""
    word, targets, layer, _ = check_request(request)
    keys = check_models(request.models)
    lines = header("polysemy (contextual vs static vectors)", "一词多义（上下文向量与静态向量）", "import math", "import torch")
    imports = sorted({AUTO[spec.kind] for spec in map(spec_of, keys) if spec is not None and spec.kind in AUTO})
    lines += [f"from transformers import AutoTokenizer{''.join(', ' + name for name in imports)}", ""]
    lines += [
        f"word = {py(word)}",
        comment("(sense, sentence, characters of the word in it), by sense", "（词义，句子，词在句中的字符位置）"),
        "sentences = [",
        *[f"    ({py(t.label)}, {py(t.text)}, {py(t.span)})," for t in targets if t.span is not None],
        "]",
        f"LAYER = {py(layer)}  " + comment("None = the last layer; 0 = the embeddings", "None 为最后一层；0 为嵌入层"),
        _COMPARE.format(
            shown=comment(
                "an undefined score (fewer than two senses of two sentences) prints as the page shows it",
                "无定义的得分（少于两种词义、每种两句）按页面的方式显示为 —",
            ),
            separation=comment("mean within-sense cosine minus mean cross-sense cosine", "同义句平均余弦减去异义句平均余弦"),
        ),
    ]
    vectors = _VECTORS.format(
        align=comment("the tokens whose characters overlap the word", "字符范围与该词重叠的词元"),
        layers=comment("embeddings + one per layer, each (1, T, H)", "嵌入层 + 每层一个，形状 (1, T, H)"),
        pool_h=_pool("h", request.pooling),
        pool_e=_pool("e", request.pooling),
        pool_all=_pool("x[0].float()", request.pooling),
        by_layer=comment("the word at every layer, (layers + 1, H)", "该词在每一层的向量，形状 (层数 + 1, H)"),
    )
    for key in keys:
        spec = spec_of(key)
        if spec is None or spec.kind not in KINDS:
            lines += [
                comment(
                    f"{spec.label if spec else key}: see the playground's own vectors (playground.polysemy, playground.elmo)",
                    f"{spec.label if spec else key}：见 playground.polysemy、playground.elmo",
                ),
                "",
            ]
            continue
        lines += load_model(key, AUTO[spec.kind])
        lines += vectors.strip("\n").splitlines()
        lines += _report(key, "vectors", key)
        if request.input_embeddings:
            lines += _report(key, "inputs", f"{key}:input")
        lines += _pairs_by_layer(key)
        lines.append("")
    return Snippet(join(lines), offline(keys))


VIEWS = {"polysemy": (request_of, polysemy_code)}
