"""The whole app through its API: the fill_mask answer, and clean errors from every endpoint.

The page itself is proven tab by tab: a result on screen follows the language switch in the test of its tab
(fill_mask, masking, attention, polysemy, sampling); a Chinese browser gets the Chinese page in test_links_in_place.py.
"""

import pytest
from gradio_client.exceptions import AppError


def test_fill_mask_api_returns_json_per_model_and_mask(client):
    out = client.predict("The capital of France is [MASK].", ["smollm2-instruct"], 5, "en", api_name="/fill_mask")
    methods = {r["method"] for r in out["results"]}
    assert methods == {"left-context", "whole-sentence"}
    for r in out["results"]:
        assert r["model_id"] == "HuggingFaceTB/SmolLM2-135M-Instruct"
        (mask,) = r["masks"]
        assert len(mask) == 5 and all(set(p) >= {"token", "probability"} for p in mask)
    whole = next(r for r in out["results"] if r["method"] == "whole-sentence")
    assert whole["masks"][0][0]["token"] == "Paris"


@pytest.mark.parametrize(
    "args, message",
    [
        (("no blank here", ["smollm2-instruct"], 5, "en"), "[MASK]"),
        (("", ["smollm2-instruct"], 5, "zh"), "请输入"),
        (("a [MASK]", ["../../secret-model"], 5, "en"), "Unknown model"),
        (("a [MASK]", ["smollm2-instruct"], 99, "en"), "top_k must be a whole number"),  # the checks' one wording
    ],
)
def test_bad_input_is_a_clean_api_error(client, args, message):
    with pytest.raises(AppError) as err:
        client.predict(*args, api_name="/fill_mask")
    assert message in str(err.value) and "Traceback" not in str(err.value)


LONG = "The river bank was muddy after the rain. " * 500  # ~4,500 tokens: past every model's window
# ~630 tokens in ~2,900 characters: under the character caps, over MiniLM's 512-token window (the token check's turn)
MEDIUM = "The river bank was muddy after the rain. " * 70


@pytest.mark.parametrize(
    "endpoint, args, words",
    [
        ("/fill_mask", (LONG + "[MASK].", ["smollm2-instruct"], 5, "en"), "tokens long"),
        (
            "/polysemy",
            ("bank", "a | " + MEDIUM + "\nb | the bank lent money.", ["minilm"], True, "last", "mean", "pca", "2", "en"),
            "tokens long",
        ),
        # A prompt past SmolLM2's 2,048 positions is past the 5,000-character cap first.
        ("/next_token", (LONG, "smollm2-instruct", 0.8, 0, 1.0, None, "en"), "5000 characters"),
        ("/generate", (LONG, "smollm2-instruct", 0.8, 0, 1.0, 5, 1, 0, "en"), "5000 characters"),
        ("/attention", ("minilm", MEDIUM, "", 0, 0, 0, "en"), "at most 512"),
    ],
)
def test_too_long_input_is_a_clean_error_in_every_endpoint(client, endpoint, args, words):
    with pytest.raises(AppError) as err:
        client.predict(*args, api_name=endpoint)
    assert words in str(err.value) and "Traceback" not in str(err.value)
