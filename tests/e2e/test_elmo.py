"""The ELMo tab in Chromium (layer mix, biLM, OOV; English and Chinese) and through its /elmo_* endpoints, offline."""

import numpy as np

from playground.ui.common.i18n import t
from tests.e2e.helpers import checkpoint, wait_opened

SENTS = "river | the bank of the river\nriver | grass on the bank\nmoney | money in the bank\nmoney | the bank gave a loan"


def test_api_endpoints(client):
    data = client.predict("bank", SENTS, "elmo-small", 0.0, 0.0, 2.0, 1.0, "en", api_name="/elmo_vectors")
    vecs = np.array(data["layer_vectors"])
    assert vecs.shape == (3, 4, 256)
    np.testing.assert_allclose(sum(data["weights"]), 1.0, rtol=1e-5)
    mixed = np.tensordot(np.array(data["weights"]), vecs, axes=1)
    np.testing.assert_allclose(np.array(data["mixed_vectors"]), mixed, atol=1e-4)
    bilm = client.predict("the bank of the river", "elmo-small", 3, "en", api_name="/elmo_bilm")
    assert bilm["has_softmax"] and len(bilm["predictions"]["positions"]) == 5
    oov = client.predict("playgroundy transformr", "elmo-small", "en", api_name="/elmo_oov")
    assert [w["in_elmo_vocab"] for w in oov["words"]] == [False, False]
    assert all(w["elmo_norm"] > 0 and len(w["neighbours"]) == 8 and not w["glove_found"] for w in oov["words"])


def test_three_views_render_and_follow_the_language_switch(page):
    """The three views run in English, then the switch to Chinese redraws each result on screen in Chinese."""
    page.goto(f"{page.app_url}?tab=elmo&lang=en")
    page.wait_for_selector("#elmo-mix-run", timeout=60_000)
    wait_opened(page)
    # (a) the layer mix, then the semantics-heavy preset: the reading says what changed
    page.locator("#elmo-mix-run").click()
    page.locator("#elmo-mix-plot .js-plotly-plot").first.wait_for(timeout=180_000)
    page.locator("#elmo-preset input[value='semantics']").check()
    page.wait_for_function(
        "(s) => document.querySelector('#elmo-mix-reading')?.innerText.includes(s)", arg=_changed("en"), timeout=120_000
    )
    assert "0.79" in page.locator("#elmo-weights").inner_text()  # softmax(0, 0, 2) = (0.11, 0.11, 0.79)
    checkpoint(page, "elmo-mix-en")
    # (b) the biLM, both directions side by side
    page.get_by_role("tab", name=t("elmo.view.bilm", "en")).click()
    page.locator("#elmo-bilm-run").click()
    page.locator("#elmo-bilm-plot .js-plotly-plot").first.wait_for(timeout=120_000)
    _bilm_columns(page, "en")
    checkpoint(page, "elmo-bilm-en")
    # (c) OOV words beside GloVe
    page.get_by_role("tab", name=t("elmo.view.oov", "en")).click()
    page.locator("#elmo-oov-run").click()
    page.wait_for_function("() => document.querySelector('#elmo-oov-reading')?.innerText.length > 20", timeout=120_000)
    _oov_table(page, "en")
    checkpoint(page, "elmo-oov-en")
    # Chinese: every result already on screen is redrawn in Chinese (no run again), view by view
    page.get_by_role("radio", name="中文", exact=True).check()
    _oov_table(page, "zh")
    checkpoint(page, "elmo-oov-zh")
    page.get_by_role("tab", name=t("elmo.view.bilm", "zh")).click()
    _bilm_columns(page, "zh")
    checkpoint(page, "elmo-bilm-zh")
    page.get_by_role("tab", name=t("elmo.view.mix", "zh")).click()
    page.wait_for_function(
        "(s) => document.querySelector('#elmo-mix-reading')?.innerText.includes(s)", arg=_changed("zh"), timeout=60_000
    )
    assert "0.79" in page.locator("#elmo-weights").inner_text()
    checkpoint(page, "elmo-mix-zh")


def _changed(lang: str) -> str:
    """The start of the reading that says what a preset changed, in `lang`."""
    return t("elmo.mix.changed", lang, before="", after="", verdict="").split("{")[0][:8]


def _bilm_columns(page, lang: str) -> None:
    page.wait_for_function(
        "([f, b]) => { const t = document.querySelector('#elmo-bilm-table')?.innerText || '';"
        " return t.includes(f) && t.includes(b); }",
        arg=[t("elmo.bilm.col_fwd", lang), t("elmo.bilm.col_bwd", lang)],
        timeout=60_000,
    )


def _oov_table(page, lang: str) -> None:
    page.wait_for_function(  # the table draws a moment after the reading
        "(none) => { const t = document.querySelector('#elmo-oov-table')?.innerText || '';"
        " return t.includes('playgroundy') && t.includes(none); }",
        arg=t("elmo.oov.glove_none", lang),
        timeout=60_000,
    )
