"""ELMo's three views as scripts: the layer vectors and their scalar mix, the biLM's two one-sided guesses, and the
character CNN's vector for a made-up word beside GloVe.

ELMo has no transformers class: the scripts import the playground's own pure-PyTorch ELMo (what runs offline, on
AllenNLP-format weights), and a comment names AllenNLP's equivalent for a student who has it installed.
"""

from __future__ import annotations

from playground.elmo.views import (
    KINDS,
    ElmoBilmRequest,
    ElmoMixRequest,
    ElmoOovRequest,
    MAX_OOV_WORDS,
    MAX_WORDS,
    _check_word,
    _parse_lines,
)
from playground import checks
from playground.snippets import Snippet, comment, header, join, offline, py
from playground.registry import get_spec

ALLENNLP = {
    "elmo_vectors": "allennlp.commands.elmo.ElmoEmbedder(options_file, weight_file).embed_sentence(tokens)  # (3, T, 1024)",
    "elmo_bilm": "allennlp's BidirectionalLanguageModel (allennlp-models): its forward and backward softmax outputs",
    "elmo_oov": "allennlp.modules.elmo._ElmoCharacterEncoder(options_file, weight_file)(batch_to_ids([[word]]))",
}


def _fields(params: dict, allowed: tuple[str, ...]) -> None:
    unknown = set(params) - set(allowed)
    if unknown:
        raise TypeError(f"unexpected parameter {sorted(unknown)[0]!r}")


def vectors_request(params: dict) -> ElmoMixRequest:
    """/elmo_vectors's parameters (word, sentences, model, s0, s1, s2, gamma), checked, defaults filled."""
    _fields(params, ("word", "sentences", "model", "s0", "s1", "s2", "gamma"))
    p = {"model": "elmo-small", "s0": 0.0, "s1": 0.0, "s2": 0.0, "gamma": 1.0, **params}
    checks.model_key(p["model"], "model", KINDS)
    _check_word(p.get("word"))
    checks.text(p.get("sentences"), "sentences", 20_000)
    weights = [checks.number(p[f"s{j}"], f"s{j}", -100.0, 100.0) for j in range(3)]
    gamma = checks.number(p["gamma"], "gamma", 0, 10.0, low_open=True)
    return ElmoMixRequest(p["model"], p["word"], p["sentences"], tuple(weights), gamma)


def bilm_request(params: dict) -> ElmoBilmRequest:
    """/elmo_bilm's parameters (sentence, model, top_k), checked, defaults filled."""
    _fields(params, ("sentence", "model", "top_k"))
    p = {"model": "elmo-small", "top_k": 5, **params}
    checks.model_key(p["model"], "model", KINDS)
    checks.text(p.get("sentence"), "sentence", 20_000)
    return ElmoBilmRequest(p["model"], p["sentence"], checks.whole(p["top_k"], "top_k", 1, 20))


def oov_request(params: dict) -> ElmoOovRequest:
    """/elmo_oov's parameters (words, model), checked, defaults filled."""
    _fields(params, ("words", "model"))
    p = {"model": "elmo-small", **params}
    checks.model_key(p["model"], "model", KINDS)
    checks.text(p.get("words"), "words", 20_000)
    return ElmoOovRequest(p["model"], p["words"])


def _load(key: str, view: str) -> list[str]:
    spec = get_spec(key)
    where = "bundled: run this from the playground's folder" if spec.source == "bundled" else "downloaded once"
    where_zh = "自带：在游乐场目录下运行" if spec.source == "bundled" else "首次使用时下载"
    return [
        comment(
            f"the playground's own pure-PyTorch ELMo ({where}; {spec.hf_id}); with AllenNLP:",
            f"游乐场自己的纯 PyTorch ELMo（{where_zh}；{spec.hf_id}）；用 AllenNLP 则是：",
        ),
        f"#   {ALLENNLP[view]}",
        "from playground.models import load",
        f'elmo = load("{key}").model  # {spec.label}',
        'TOKEN = re.compile(r"\\w+(?:[\'’]\\w+)*|[^\\w\\s]")  ' + comment("words and punctuation", "词与标点"),
    ]


_MIX = """
tokens = [TOKEN.findall(text)[:{max_words}] for _, text in sentences]
labels = [label or "?" for label, _ in sentences]
out = embed(elmo, tokens)  {embed}
where = [[w.lower() for w in toks].index(word.lower()) for toks in tokens]
layers = np.stack([v[:, i] for v, i in zip(out.vectors, where)], axis=1).astype(np.float64)  # (3, n, dim)


def separation(vectors):
    {separation}
    unit = vectors / (np.linalg.norm(vectors, axis=-1, keepdims=True) + 1e-12)
    pairs = list(itertools.combinations(range(len(labels)), 2))
    same = [unit[i] @ unit[j] for i, j in pairs if labels[i] == labels[j]]
    cross = [unit[i] @ unit[j] for i, j in pairs if labels[i] != labels[j]]
    return float(np.mean(same) - np.mean(cross)) if same and cross else None


w = np.array([w0, w1, w2])  {raw}
s = np.exp(w - w.max()) / np.exp(w - w.max()).sum()  {softmax}
mixed = gamma * np.tensordot(s, layers.astype(np.float32).astype(np.float64), axes=1)
def shown(x):
    return "None" if x is None else f"{{x:.6f}}"


for j in range(3):
    print(f"layer {{j}} separation", shown(separation(layers[j])))
print("weights s = softmax(w)", [round(float(x), 6) for x in s])
print("mix separation", shown(separation(mixed.astype(np.float32))))
"""


def vectors_code(request: ElmoMixRequest) -> Snippet:
    """The word's vector in layers 0-2 of every sentence, the sense separation per layer, and the scalar mix."""
    labels, texts = _parse_lines(request.sentences)
    lines = header("ELMo layers and their scalar mix", "ELMo 各层与标量混合", "import itertools", "import re")
    lines += ["import numpy as np", "from playground.elmo import embed", "", *_load(request.model, "elmo_vectors")]
    s0, s1, s2 = request.weights
    lines += [
        f"word = {py(_check_word(request.word))}",
        "sentences = [",
        *[f"    ({py(label)}, {py(text)})," for label, text in zip(labels, texts)],
        "]",
        f"w0, w1, w2, gamma = {py(float(s0))}, {py(float(s1))}, {py(float(s2))}, {py(float(request.gamma))}",
    ]
    lines += _MIX.format(
        max_words=MAX_WORDS,
        embed=comment("per sentence (3, T, dim): 0 = char CNN, 1-2 = biLSTMs", "每句 (3, T, dim)：0 为字符 CNN，1-2 为双向 LSTM"),
        separation=comment("mean same-sense cosine minus mean cross-sense cosine", "同义平均余弦减去异义平均余弦"),
        raw=comment("raw scores w (the page's sliders, the API's s0-s2)", "原始分数 w（页面的滑块，API 的 s0-s2）"),
        softmax=comment("s = softmax(w); ELMo_k = gamma * sum_j s_j * h_kj", "s = softmax(w)；ELMo_k = γ · Σ_j s_j · h_kj"),
    ).splitlines()
    return Snippet(join(lines), offline([request.model]))


_BILM = """
tokens = TOKEN.findall(sentence)[:{max_words}]
{explain}
guesses = bilm_predictions(elmo, tokens, top_k=TOP_K)
for p in guesses.positions:
    print(p.token)
    for side, d in (("forward", p.forward), ("backward", p.backward)):
        print(f"  {{side}} actual {{d.actual_prob:.6f}} " + " ".join(f"{{w}}={{q:.6f}}" for w, q in zip(d.words, d.probs)))
"""


def bilm_code(request: ElmoBilmRequest) -> Snippet:
    """Per word: the forward LM's top guesses from the left context, the backward LM's from the right."""
    lines = header("ELMo's two language models", "ELMo 的两个语言模型", "import re")
    lines += ["from playground.elmo import bilm_predictions", "", *_load(request.model, "elmo_bilm")]
    lines += [f"sentence = {py(request.sentence)}", f"TOP_K = {request.top_k}"]
    lines += _BILM.format(
        max_words=MAX_WORDS,
        explain=comment(
            "forward LSTM's top layer at word j-1 -> softmax over the vocabulary = its guess for word j; backward from j+1",
            "前向 LSTM 在第 j-1 个词处的顶层输出经 softmax 得到对第 j 个词的猜测；后向从第 j+1 个词",
        ),
    ).splitlines()
    return Snippet(join(lines), offline([request.model]))


_OOV = """
words = [w for w in re.split(r"[\\s,;，、]+", WORDS) if w][:{max_words}]


@torch.no_grad()
def layer0(batch):
    {layer0}
    ids = torch.from_numpy(batch_char_ids([[w] for w in batch], add_boundaries=False))[:, 0]
    return elmo.module.char_cnn.encode_unique(ids).numpy().astype(np.float32)


vocab = [w for w in elmo.vocab if not (w.startswith("<") and w.endswith(">"))]
table = np.concatenate([layer0(vocab[i : i + 512]) for i in range(0, len(vocab), 512)])
centre = table.mean(axis=0)  {centre}
unit = (table - centre) / (np.linalg.norm(table - centre, axis=1, keepdims=True) + 1e-12)
known = {{w.lower() for w in elmo.vocab}}
glove = load("glove").model  {glove}
for word, v in zip(words, layer0(words)):
    q = v - centre
    sims = unit @ (q / (np.linalg.norm(q) + 1e-12))
    near = [(vocab[i], float(sims[i])) for i in np.argsort(-sims) if vocab[i].lower() != word.lower()][:{k}]
    print(word, "in ELMo vocabulary:", word.lower() in known, f"norm {{np.linalg.norm(v):.6f}}")
    print("  ELMo neighbours", " ".join(f"{{w}}={{c:.6f}}" for w, c in near))
    found = glove.lookup(word) is not None
    nn = glove.nearest(word, 5) if found else None
    print("  GloVe", found, " ".join(f"{{w}}={{c:.6f}}" for w, c in zip(nn.words, nn.cosines)) if nn else "")
"""


def oov_code(request: ElmoOovRequest) -> Snippet:
    """Per word: its layer-0 (char CNN) vector's length and nearest vocabulary words, and whether GloVe knows it."""
    lines = header("ELMo's character CNN and unknown words", "ELMo 的字符 CNN 与未登录词", "import re")
    lines += ["import numpy as np", "import torch", "from playground.elmo import batch_char_ids", ""]
    lines += [*_load(request.model, "elmo_oov"), f"WORDS = {py(request.words)}"]
    lines += _OOV.format(
        max_words=MAX_OOV_WORDS,
        k=request.k,
        layer0=comment(
            "context-free: one word alone, no sentence markers, no LSTM", "与上下文无关：单个词，无句子标记，不经过 LSTM"
        ),
        centre=comment(
            "the char-CNN vectors share one big direction: cosines after removing it",
            "字符 CNN 向量有一个共同的大方向：去掉后再算余弦",
        ),
        glove=comment("GloVe (bundled): one vector per known word, none for a made-up one", "GloVe（自带）：只有已知词才有向量"),
    ).splitlines()
    return Snippet(join(lines), offline([request.model, request.glove]))


VIEWS = {
    "elmo_vectors": (vectors_request, vectors_code),
    "elmo_bilm": (bilm_request, bilm_code),
    "elmo_oov": (oov_request, oov_code),
}
