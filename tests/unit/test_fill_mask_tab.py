"""The fill-mask tab's glue: repeated identical requests reuse one computation; the API JSON schema."""

from playground.ui import fill_mask_tab


def test_a_class_pressing_the_same_preset_computes_it_once(tiny_mlm, monkeypatch):
    calls = []
    monkeypatch.setattr(fill_mask_tab.models, "load", lambda key: tiny_mlm)
    monkeypatch.setattr(fill_mask_tab, "load_model", lambda key, lang, progress=None: tiny_mlm)
    monkeypatch.setitem(
        fill_mask_tab.READINGS, "masked", lambda lm, text, k: calls.append(text) or fill_mask_tab._masked_readings(lm, text, k)
    )
    fill_mask_tab._cached_readings.cache_clear()
    first = fill_mask_tab.fill_mask_api("the capital of france is [MASK] .", ["bert"], 3, "en")
    again = fill_mask_tab.fill_mask_api("the capital of france is [MASK] .", ["bert"], 3, "zh")
    other = fill_mask_tab.fill_mask_api("the [MASK] fell from the tree .", ["bert"], 3, "en")
    fill_mask_tab._cached_readings.cache_clear()
    assert len(calls) == 2 and first == again and other != first
    (result,) = first["results"]
    assert result["method"] == "masked" and len(result["masks"]) == 1 and len(result["masks"][0]) == 3
    assert all(set(p) == {"token", "raw", "probability"} for p in result["masks"][0])
