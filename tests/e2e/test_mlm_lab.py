"""The MLM lab through its API, offline on minilm-mlm: a training's before and after. The page's journey (train, watch
the curve, stop, compare, both languages) is tests/e2e/test_lab_model.py, whose one training also serves the lab
model's checks."""

CORPUS = "\n".join(
    f"The patient with {d} was treated by the physician in the clinic number {i}."
    for i, d in enumerate(["hepatitis", "asthma", "arthritis", "diabetes", "bronchitis", "anemia"] * 3)
)


def test_api_trains_and_returns_before_and_after(client):
    data = client.predict(corpus=CORPUS, max_steps=2, max_seconds=60, api_name="/mlm_lab_train")
    result = data["result"]
    assert data["phase"] == "done" and result["steps"] == 2 and result["stopped"] == "steps"
    assert result["before"]["loss"] > 0 and result["after"]["loss"] > 0 and result["n_held"] == 2


def test_the_fill_mask_api_defaults_to_the_two_bundled_masked_lms_offline(client):
    """Offline the default is both masked LMs trained here: MiniLM's (English) and multilingual-E5's (Chinese too).
    The page ticks both by default: test_hints.py::test_the_fill_mask_tab_from_its_hint_to_a_result_in_both_languages."""
    out = client.predict("He opened the [MASK] and walked into the room.", None, 5, "en", api_name="/fill_mask")
    assert sorted((r["model"], r["method"]) for r in out["results"]) == [("e5-mlm", "masked"), ("minilm-mlm", "masked")]
