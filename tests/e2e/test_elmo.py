"""The ELMo tab in Chromium (layer mix, biLM, OOV; English and Chinese) and through its /elmo_* endpoints, offline."""

import json
from urllib.parse import urlencode

import numpy as np
import pytest

from playground.ui.common.i18n import t
from tests.e2e.helpers import save_screenshot

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


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_three_views_render(page, lang):
    page.goto(f"{page.app_url}?tab=elmo&lang={lang}")
    page.wait_for_selector("#elmo-mix-run", timeout=60_000)
    page.wait_for_function(f"() => document.querySelector('.tp-lang input[value={lang}]')?.checked", timeout=60_000)
    # (a) the layer mix, then the semantics-heavy preset: the reading says what changed
    page.locator("#elmo-mix-run").click()
    page.locator("#elmo-mix-plot .js-plotly-plot").first.wait_for(timeout=180_000)
    page.locator("#elmo-preset input[value='semantics']").check()
    changed = t("elmo.mix.changed", lang, before="", after="", verdict="").split("{")[0][:8]
    page.wait_for_function(
        "(s) => document.querySelector('#elmo-mix-reading')?.innerText.includes(s)", arg=changed, timeout=120_000
    )
    weights = page.locator("#elmo-weights").inner_text()
    assert "0.79" in weights  # softmax(0, 0, 2) = (0.11, 0.11, 0.79)
    save_screenshot(page, f"elmo-mix-{lang}")
    # (b) the biLM, both directions side by side
    page.get_by_role("tab", name=t("elmo.view.bilm", lang)).click()
    page.locator("#elmo-bilm-run").click()
    page.locator("#elmo-bilm-plot .js-plotly-plot").first.wait_for(timeout=120_000)
    table = page.locator("#elmo-bilm-table").inner_text(timeout=30_000)
    assert t("elmo.bilm.col_fwd", lang) in table and t("elmo.bilm.col_bwd", lang) in table
    save_screenshot(page, f"elmo-bilm-{lang}")
    # (c) OOV words beside GloVe
    page.get_by_role("tab", name=t("elmo.view.oov", lang)).click()
    page.locator("#elmo-oov-run").click()
    page.wait_for_function("() => document.querySelector('#elmo-oov-reading')?.innerText.length > 20", timeout=120_000)
    page.wait_for_function(  # the table draws a moment after the reading
        "() => document.querySelector('#elmo-oov-table')?.innerText.includes('playgroundy')", timeout=60_000
    )
    table = page.locator("#elmo-oov-table").inner_text(timeout=30_000)
    assert "playgroundy" in table and t("elmo.oov.glove_none", lang) in table
    save_screenshot(page, f"elmo-oov-{lang}")


@pytest.mark.parametrize("lang", ["zh"])  # English: the rows themselves are tests/integration/test_elmo_views.py
def test_polysemy_tab_with_elmo(page, lang):
    models = json.dumps(["elmo-small", "minilm", "glove"])
    page.goto(f"{page.app_url}?{urlencode({'tab': 'polysemy', 'models': models, 'lang': lang})}")
    page.wait_for_selector("#polysemy-run", timeout=60_000)
    page.wait_for_function(f"() => document.querySelector('.tp-lang input[value={lang}]')?.checked", timeout=60_000)
    page.locator("#polysemy-run").click()
    page.wait_for_selector("#polysemy-curve .js-plotly-plot", timeout=240_000)
    page.wait_for_function("() => document.querySelector('#polysemy-curve')?.innerText.includes('ELMo')", timeout=60_000)
    save_screenshot(page, f"polysemy-elmo-{lang}")
