"""scripts/train_t5.py's pieces on a tiny random T5: the vocabulary, span corruption, batches, the saved release,
and scripts/t5_eval.py's key word and alignment measures (the classroom T5, docs/models.md)."""

import random
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))

import t5_data as data  # noqa: E402
import t5_eval  # noqa: E402
import train_t5  # noqa: E402
from hsk_corpus import HskSentence  # noqa: E402

SENTENCES = [
    HskSentence("t-1", 1, "我想买新衣服。", "I want to buy new clothes.", ("我", "想", "买", "新", "衣服"), ("",) * 5),
    HskSentence(
        "t-2",
        1,
        "书在床上，不在地上。",
        "The book is on the bed, not on the floor.",
        ("书", "在", "床上", "不", "在", "地上"),
        ("",) * 6,
    ),
    HskSentence("t-3", 2, "我们一起吃饭吧。", "Let's eat together.", ("我们", "一起", "吃饭", "吧"), ("",) * 4),
]
WORDS = [data.Pair(data.ZH_EN + "衣服", "clothes"), data.Pair(data.EN_ZH + "clothes", "衣服")]
TINY = dict(d_model=32, d_kv=8, d_ff=64, num_layers=2, num_decoder_layers=2, num_heads=4, dropout_rate=0.0)


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory):
    from transformers import AutoTokenizer

    tok = data.train_tokenizer(data.tokenizer_texts(SENTENCES, WORDS) * 3, vocab_size=250)
    folder = tmp_path_factory.mktemp("tok")
    tok.save_pretrained(folder)
    return AutoTokenizer.from_pretrained(folder)  # as the app loads it


@pytest.fixture(scope="module")
def model(tokenizer):
    torch.manual_seed(0)
    return train_t5.build_model(tokenizer, attn_implementation="eager", **TINY).eval()  # eager: attentions returned


def test_the_vocabulary_has_t5s_special_tokens_and_sentinels(tokenizer):
    assert (tokenizer.pad_token_id, tokenizer.eos_token_id, tokenizer.unk_token_id) == (0, 1, 2)
    ids = tokenizer.convert_tokens_to_ids([f"<extra_id_{i}>" for i in range(data.SENTINELS)])
    assert len(set(ids)) == data.SENTINELS and tokenizer.unk_token_id not in ids
    assert ids[0] == len(tokenizer) - 1  # T5's order: <extra_id_0> last
    assert tokenizer("书").input_ids[-1] == tokenizer.eos_token_id


def test_chinese_characters_are_single_tokens_and_text_round_trips(tokenizer):
    for s in SENTENCES:
        pieces = [p for p in tokenizer.tokenize(s.zh) if p != "▁"]
        assert pieces == list(s.zh)  # one token per character, punctuation included
        for text in (s.zh, s.en, data.ZH_EN + s.zh):
            assert tokenizer.decode(tokenizer(text).input_ids, skip_special_tokens=True) == text
    assert any(p.startswith("▁") and len(p) > 2 for p in tokenizer.tokenize(SENTENCES[0].en))  # ▁word pieces


@pytest.mark.parametrize("seed", range(20))
def test_span_corruption_hides_spans_behind_sentinels_and_the_target_restores_them(seed):
    rng = random.Random(seed)
    ids = list(range(1000, 1000 + rng.randint(2, 40)))
    sentinels = list(range(10))
    inp, out = data.span_corrupt(ids, sentinels, rng)
    used = [t for t in inp if t in sentinels]
    assert used == sentinels[: len(used)] and out[0] == sentinels[0] and out[-1] == sentinels[len(used)]
    spans, cur = {}, None  # the target: sentinel, its span, next sentinel ...
    for t in out[:-1]:
        if t in sentinels:
            cur = t
            spans[cur] = []
        else:
            spans[cur].append(t)
    assert all(spans.values())  # no empty span
    restored = [x for t in inp for x in (spans[t] if t in sentinels else [t])]
    assert restored == ids
    assert sum(map(len, spans.values())) == max(1, round(len(ids) * 0.15))


def test_a_mixed_batch_trains_the_tiny_t5(tokenizer, model):
    mix = data.Mixture(tokenizer, SENTENCES, WORDS)
    batch = mix.batch(random.Random(0), 12)
    assert batch["input_ids"].shape[0] == 12 and (batch["labels"] != -100).any(1).all()
    assert ((batch["input_ids"] == tokenizer.pad_token_id) == (batch["attention_mask"] == 0)).all()
    model.train()
    loss = model(**batch).loss
    loss.backward()
    assert torch.isfinite(loss) and model.shared.weight.grad is not None
    model.zero_grad(set_to_none=True)
    model.eval()


def test_the_learning_rate_warms_up_then_decays():
    rates = [train_t5.lr_at(s, 1e-3, 100) for s in range(0, 1000, 10)]
    peak = rates.index(max(rates))
    assert rates[:peak] == sorted(rates[:peak]) and rates[peak:] == sorted(rates[peak:], reverse=True)
    assert train_t5.lr_at(99, 1e-3, 100) == pytest.approx(1e-3)  # the peak, at the end of the warm-up


def test_the_release_is_float16_and_loads_back_eager(tokenizer, model, tmp_path):
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    train_t5.save_release(model, tokenizer, tmp_path)
    back = AutoModelForSeq2SeqLM.from_pretrained(tmp_path, attn_implementation="eager")
    assert back.config.model_type == "t5" and back.config.relative_attention_num_buckets == 32
    assert next(model.parameters()).dtype == torch.float32  # the training copy stays float32
    src = tokenizer([data.ZH_EN + SENTENCES[0].zh], return_tensors="pt")
    again = AutoTokenizer.from_pretrained(tmp_path)
    assert again(data.ZH_EN + SENTENCES[0].zh).input_ids == src.input_ids[0].tolist()
    out = train_t5.translate(back.float(), again, [data.ZH_EN + SENTENCES[0].zh], max_new_tokens=5)
    assert len(out) == 1 and isinstance(out[0], str)


LEX = t5_eval.Lexicon(
    senses={
        "衣服": ["clothes"],
        "想": ["to want"],
        "买": ["to buy"],
        "床上": ["in bed"],
        "书": ["book"],
        "地上": ["on the ground; floor"],
    },
    counts={"衣服": 100, "想": 1000, "买": 500, "书": 800},
    tags={"衣服": "n", "想": "v", "买": "v", "书": "n", "床上": "s", "地上": "s"},
)


def test_the_key_word_is_the_longest_glossed_noun_or_verb_found_in_the_reference():
    assert t5_eval.key_word(SENTENCES[0], LEX) == "衣服"
    assert t5_eval.key_word(SENTENCES[1], LEX) == "书"  # 床上, 地上 are place words, not nouns
    assert t5_eval.key_word(SENTENCES[2], LEX) == ""
    assert t5_eval.matches({"book"}, "Two books.") == [(4, 9)] and t5_eval.matches({"help"}, "He helped.")


def test_dictionary_pairs_are_words_whose_gloss_matches_one_english_word():
    pairs = t5_eval.dictionary_pairs(SENTENCES[1], LEX)
    got = [(SENTENCES[1].zh[a:b], SENTENCES[1].en[c:d]) for (a, b), (c, d) in pairs]
    assert got == [("书", "book"), ("床上", "bed"), ("地上", "floor")]


def test_the_held_out_measures_are_rates_on_the_tiny_model(tokenizer, model):
    result = t5_eval.evaluate(model, tokenizer, SENTENCES, LEX)
    assert result["sentences"] == 3 and result["key_word"]["sentences_with_one"] == 2
    for direction in ("zh_en", "en_zh"):
        assert 0 <= result["chrf"][direction] <= 100 and 0 <= result["key_word"][direction] <= 1
        a = result["alignment"][direction]
        assert a["pairs"] > 0 and all(
            0 <= a[k] <= 1 for k in ("all_layers", "last_layer", "reverse_all_layers", "chance", "reverse_chance")
        )


def test_the_training_step_learns_a_mapping_that_depends_on_the_source(tokenizer):
    """The overfit check (docs/models.md, the classroom T5's diagnosis): the script's own batches and update, on a
    handful of fixed pairs, drive the loss near zero and each source gets its own translation back. A pipeline bug
    (labels not shifted, padding scored, the encoder masked away) fails here; slow learning on the real corpus does
    not."""
    torch.manual_seed(0)
    tiny = train_t5.build_model(tokenizer, **TINY)
    optim = torch.optim.AdamW(tiny.parameters(), lr=3e-3)
    mix = data.Mixture(tokenizer, SENTENCES, WORDS, shares=(1.0, 0.0, 0.0))
    pairs = mix.pairs
    batch = mix.collate([mix.encode(p) for p in pairs])
    tiny.train()
    losses = [train_t5.train_step(tiny, optim, batch, label_smoothing=0.0)[1] for _ in range(150)]
    assert losses[-1] < 0.1 < losses[0]
    tiny.eval()
    out = train_t5.translate(tiny, tokenizer, [p.source for p in pairs], max_new_tokens=40)
    assert out == [p.target for p in pairs]  # six sources, six different translations, each its own
