"""Inside BERT as a script: `tokenizer(text_a, text_b)` and its token_type_ids, then the input embedding taken apart
(token + segment + position, LayerNorm) and checked against the model's own embedding layer."""

from __future__ import annotations

from playground.inside.configs import PUBLISHED
from playground.inside.embeddings_input import EmbeddingsRequest, _check
from playground.inside.heads import TASKS, HeadsRequest, _config_values
from playground.inside.nsp import MAX_SENTENCES, NspRequest, layout_tokenizer_key, nsp_model_key
from playground.inside.nsp import _check as _check_nsp
from playground.inside.params import PARTS, ParamsRequest, check_base, check_embedding_size, check_sharing
from playground.inside.params import sizes_of, what_if_values
from playground.snippets import Snippet, comment, header, join, load_model, offline, py

_BODY = """
enc = tokenizer(text_a, text_b or None, return_tensors="pt", return_token_type_ids=True)
print("tokens", tokenizer.convert_ids_to_tokens(enc["input_ids"][0].tolist()))
print("token_type_ids", enc["token_type_ids"][0].tolist())  {segments}
embeddings = model.base_model.embeddings
positions = torch.arange(enc["input_ids"].shape[1]).unsqueeze(0)
with torch.no_grad():
    token = embeddings.word_embeddings(enc["input_ids"])
    segment = embeddings.token_type_embeddings(enc["token_type_ids"])
    position = embeddings.position_embeddings(positions)
    normed = embeddings.LayerNorm(token + segment + position)  {formula}
    reference = embeddings(input_ids=enc["input_ids"], token_type_ids=enc["token_type_ids"])
for name, part in [("token", token), ("segment", segment), ("position", position), ("normed", normed)]:
    print(name, "first token, first 6 dims:", [round(x, 6) for x in part[0, 0, :6].tolist()])
print("max |by hand - model.embeddings|:", (normed - reference).abs().max().item())
"""


def embeddings_request(params: dict) -> EmbeddingsRequest:
    """/inside_embeddings's parameters (text_a, text_b, model), checked, defaults filled."""
    unknown = set(params) - {"text_a", "text_b", "model"}
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    request = EmbeddingsRequest(**{"text_a": "", **params})
    _check(request)
    return request


def embeddings_code(request: EmbeddingsRequest) -> Snippet:
    """The pair's tokens and segments, the three embedding rows of its first token, and the check against the model."""
    imports = ("import torch", "from transformers import AutoModel, AutoTokenizer")
    lines = header("BERT's input embeddings", "BERT 的输入嵌入", *imports)
    lines += [f"text_a, text_b = {py(request.text_a)}, {py(request.text_b)}", *load_model(request.model, "AutoModel")]
    lines += _BODY.format(
        segments=comment("0 = sentence A, 1 = sentence B", "0 为句子 A，1 为句子 B"),
        formula=comment("e = LayerNorm(E_tok + E_seg + E_pos)", "e = LayerNorm(词元 + 分段 + 位置)"),
    ).splitlines()
    return Snippet(join(lines), offline([request.model]))


VIEWS = {"inside_embeddings": (embeddings_request, embeddings_code)}


# --- parameter counts: published configs built on the meta device (shapes, no weights), counted by part ---

_PARAMS = """
PARTS = [  {parts}
{table}
]


def build(model_type, values):
    config = AutoConfig.for_model(model_type, **values)
    with torch.device("meta"):  {meta}
        return AutoModel.from_config(config)


def by_part(model):
    counts = {{}}
    for name, p in model.named_parameters():
        part = next((part for part, pattern in PARTS if re.search(pattern, name)), "other")
        counts[part] = counts.get(part, 0) + p.numel()
    return counts


for name, model_type, values in CONFIGS:
    model = build(model_type, values)
    print(name, "num_parameters", model.num_parameters(), by_part(model))
"""

_WHAT_IF = """
{explain}
V, E, H, L, F, P, T = {sizes}
A = 1 if SHARING in ("all", "attention") else L  {sets}
FF = 1 if SHARING in ("all", "ffn") else L
formula = (V * E + (E * H + H if E != H else 0) + (P + T) * E + 2 * E + (A + FF) * 2 * H
           + A * 4 * (H * H + H) + FF * (2 * H * F + F + H) + (H * H + H))
print("what-if formula", formula)
"""


def params_request(params: dict) -> ParamsRequest:
    """/inside_params's parameters (base, embedding_size, share_layers), checked, defaults filled."""
    unknown = set(params) - {"base", "embedding_size", "share_layers"}
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    request = ParamsRequest(**params)
    check_base(request.base)
    return ParamsRequest(request.base, check_embedding_size(request.embedding_size), check_sharing(request.share_layers))


def params_code(request: ParamsRequest) -> Snippet:
    """Every published model's parameters, built from its config on the meta device, by part; then the "what if"
    ALBERT (the base's sizes, the chosen E and sharing) built the same way, beside the textbook formula."""
    base = check_base(request.base)
    values = what_if_values(base, request.embedding_size, request.share_layers)
    s = sizes_of("albert", values, request.share_layers)
    imports = ("import re", "import torch", "from transformers import AutoConfig, AutoModel")
    lines = header("parameter counts (ALBERT's savings)", "参数量（ALBERT 省在哪里）", *imports)
    lines += [comment("the published config.json values (no weights, no hub)", "已发布的 config.json 取值（无需权重与 Hub）")]
    lines += ["CONFIGS = ["]
    lines += [f"    ({py(c.key)}, {py(c.model_type)}, {py(c.config_kwargs)}),  # {c.hf_id}" for c in PUBLISHED]
    label = "what-if"
    lines += [f"    ({py(label)}, 'albert', {py(values)}),", "]", f"SHARING = {py(request.share_layers)}"]
    lines += _PARAMS.format(
        parts=comment("parameter name -> part, the first match wins", "参数名 -> 部分，取第一个匹配"),
        table="\n".join(f"    ({py(name)}, {py(pattern.pattern)})," for name, pattern in PARTS),
        meta=comment("shapes only: no memory, no download", "只有形状：不占内存、不下载"),
    ).splitlines()
    lines += _WHAT_IF.format(
        explain=comment(
            "Hugging Face's ALBERT shares whole layers only: the 'attention' / 'ffn' sharing of ALBERT's Table 4 is "
            "the formula's (the model above is built unshared)",
            "Hugging Face 的 ALBERT 只能整层共享：表 4 的只共享注意力 / 前馈按公式计算（上面的模型按不共享构建）",
        ),
        sizes=", ".join(str(x) for x in (s.V, s.E, s.H, s.L, s.F, s.P, s.T)),
        sets=comment("weight sets: one when shared across all L layers", "权重组数：所有层共享时为 1"),
    ).splitlines()
    return Snippet(join(lines), True)


# --- next-sentence prediction and what replaced it ---

_NSP = """
sentences = split_text(text)[:{max_sentences}]
pairs = build_nsp_pairs(sentences, seed)  {pairs}
for p in pairs:
    print("pair", "IsNext" if p.is_next else "NotNext", repr(p.a.text), repr(p.b.text))
enc = tokenizer(pairs[0].a.text, pairs[0].b.text, return_token_type_ids=True)  {layout}
print("tokens", tokenizer.convert_ids_to_tokens(enc["input_ids"]))
print("token_type_ids", enc["token_type_ids"])
for chunk in pack_full_sentences(sentences, lambda s: len(tokenizer.tokenize(s)), budget, tokenizer.sep_token):
    print("packed", chunk.n_tokens, chunk.pieces)  {packed}
for p in build_sop_pairs(sentences, seed):
    print("sop", "in order" if p.in_order else "swapped", repr(p.first.text), repr(p.second.text))
"""

_PROBES = """
for case, a, b in probe_pairs(sentences, seed):  {probes}
    enc = nsp_tokenizer(a, b, return_tensors="pt")
    with torch.no_grad():
        p = torch.softmax(nsp_model(**enc).logits.float(), dim=-1)[0].tolist()
    print("probe", case, f"IsNext {{p[0]:.6f}} NotNext {{p[1]:.6f}}")
"""


def nsp_request(params: dict) -> NspRequest:
    """/inside_nsp's parameters (text, seed, budget, model), checked, defaults filled."""
    unknown = set(params) - {"text", "seed", "budget", "model"}
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    params = {**params, "model": params.get("model") or None}
    request = NspRequest(**{"text": "", **params})
    _, seed, budget = _check_nsp(request)
    return NspRequest(request.text, seed, budget, request.model)


def nsp_code(request: NspRequest) -> Snippet:
    """BERT's NSP pairs and their [CLS] A [SEP] B [SEP] layout, RoBERTa's packing, ALBERT's sentence order; the NSP
    head's probabilities when a model with one can load."""
    key, _ = nsp_model_key(request.model, request.text)
    layout_key = layout_tokenizer_key(request.text)
    imports = ["from playground.inside.nsp import build_nsp_pairs, build_sop_pairs, pack_full_sentences, split_text"]
    if key is not None:
        imports = ["import torch", "from transformers import AutoTokenizer, BertForNextSentencePrediction", *imports]
        imports[-1] = imports[-1].replace("split_text", "probe_pairs, split_text")
    lines = header("next-sentence prediction, packing, sentence order", "下一句预测、打包与句序", *imports)
    lines += [
        comment(
            "transformers removed its pair builders (TextDatasetForNextSentencePrediction, DataCollatorForSOP): the "
            "playground's own, after BERT's create_pretraining_data.py and the RoBERTa and ALBERT papers",
            "transformers 已删除这些样本构造器：用游乐场自己的实现（依据 BERT 的 create_pretraining_data.py 与两篇论文）",
        ),
        f"text, seed, budget = {py(request.text)}, {request.seed}, {request.budget}",
        *load_model(layout_key, "AutoModel"),
    ]
    lines += _NSP.format(
        max_sentences=MAX_SENTENCES,
        pairs=comment("50 % the true next sentence, 50 % a random one", "50% 真实下一句，50% 随机句"),
        layout=comment(
            "the pair as this tokenizer lays it out: BERT's [CLS] A [SEP] B [SEP] has segment 0, then 1; "
            "XLM-R's <s> A </s></s> B </s> (e5, for Chinese) is all segment 0",
            "该分词器排布的句对：BERT 的 [CLS] A [SEP] B [SEP] 先是分段 0，然后 1；XLM-R 的 <s> A </s></s> B </s>"
            "（e5，用于中文）全是分段 0",
        ),
        packed=comment("RoBERTa FULL-SENTENCES: whole sentences up to the budget", "RoBERTa FULL-SENTENCES：整句装到预算"),
    ).splitlines()
    offline_ok = offline([layout_key])
    if key is None:
        lines += [
            comment(
                "no model with an NSP head can load here; online: BertForNextSentencePrediction (google-bert/bert-base-uncased)",
                "这里没有带 NSP 头的模型；联网时：BertForNextSentencePrediction（google-bert/bert-base-uncased）",
            )
        ]
    else:
        lines += load_model(key, "BertForNextSentencePrediction", var="nsp_model", tok="nsp_tokenizer")
        lines += _PROBES.format(
            probes=comment("its true next sentence, a random one, the two swapped", "真实下一句、随机句、两句对调")
        ).splitlines()
        offline_ok = offline_ok and offline([key])
    return Snippet(join(lines), offline_ok)


# --- fine-tuning heads: what a task model adds to its encoder ---

_HEADS = """
for auto_class, num_labels, task in TASKS:
    config = AutoConfig.for_model(MODEL_TYPE, **VALUES, num_labels=num_labels)
    with torch.device("meta"):  {meta}
        model = getattr(transformers, auto_class).from_config(config)
    prefix = model.base_model_prefix + "."
    head = [(name, list(p.shape)) for name, p in model.named_parameters() if not name.startswith(prefix)]
    new = model.num_parameters() - model.base_model.num_parameters()  {new}
    print(task, type(model).__name__, "new", new, head)
"""


def heads_request(params: dict) -> HeadsRequest:
    """/inside_heads's parameters (source), checked, defaults filled."""
    unknown = set(params) - {"source"}
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")
    request = HeadsRequest(**params)
    _config_values(request.source)
    return request


def heads_code(request: HeadsRequest) -> Snippet:
    """Per task (sequence, pair, token, QA): the task model's class, its head's weight shapes and new parameters."""
    label, hf_id, model_type, values, _ = _config_values(request.source)
    imports = ("import torch", "import transformers", "from transformers import AutoConfig")
    lines = header("fine-tuning heads", "微调任务头", *imports)
    lines += [
        comment(f"{label}'s config values ({hf_id}): shapes only, no weights", f"{label} 的配置（{hf_id}）：只有形状，没有权重"),
        f"MODEL_TYPE, VALUES = {py(model_type)}, {py(values)}",
        "TASKS = [  " + comment("(task class, labels as in its benchmark, task)", "（任务类，基准中的标签数，任务）"),
        *[f"    ({py(t.auto_class)}, {t.num_labels}, {py(t.key)})," for t in TASKS],
        "]",
    ]
    lines += _HEADS.format(
        meta=comment("no memory, no download", "不占内存、不下载"),
        new=comment("what fine-tuning adds", "微调新增的参数"),
    ).splitlines()
    return Snippet(join(lines), True)


VIEWS |= {
    "inside_params": (params_request, params_code),
    "inside_nsp": (nsp_request, nsp_code),
    "inside_heads": (heads_request, heads_code),
}
