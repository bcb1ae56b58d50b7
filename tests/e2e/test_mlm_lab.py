"""The MLM lab in Chromium and through its API, offline on minilm-mlm: train, watch the curve, cancel, compare."""

import re

from tests.e2e.helpers import checkpoint, open_tab
from tests.e2e.plot_layout import FITTED_JS

CORPUS = "\n".join(
    f"The patient with {d} was treated by the physician in the clinic number {i}."
    for i, d in enumerate(["hepatitis", "asthma", "arthritis", "diabetes", "bronchitis", "anemia"] * 3)
)


def test_api_trains_and_returns_before_and_after(client):
    data = client.predict(corpus=CORPUS, max_steps=2, max_seconds=60, api_name="/mlm_lab_train")
    result = data["result"]
    assert data["phase"] == "done" and result["steps"] == 2 and result["stopped"] == "steps"
    assert result["before"]["loss"] > 0 and result["after"]["loss"] > 0 and result["n_held"] == 2


def test_train_watch_cancel_compare_in_both_languages(page):
    """Stop is disabled before a training; train: the curve's traces; Stop: "Stopped by you", the before/after summary
    and probes; the Code panel holds this run's Trainer script; 中文 relabels the summary, probes and status."""
    open_tab(page, "mlm_lab")
    assert page.locator("#mlm-lab-cancel").is_disabled()  # nothing to stop before a training
    page.locator("#mlm-lab-train").click()
    page.wait_for_function(
        "() => /step ([2-9]|\\d\\d+) of/.test(document.querySelector('#mlm-lab-status')?.innerText || '')", timeout=240_000
    )
    assert page.locator("#mlm-lab-curve .js-plotly-plot").count() == 1
    traces = page.locator("#mlm-lab-curve .scatterlayer .trace").count()
    assert traces >= 3  # training loss, the before marker, the planned learning rate (at least)
    page.locator("#mlm-lab-cancel").click()
    page.wait_for_function(
        "() => /Stopped by you/.test(document.querySelector('#mlm-lab-status')?.innerText || '')", timeout=240_000
    )
    summary = page.locator("#mlm-lab-summary").inner_text()
    assert re.search(r"held-out MLM loss \| \d+\.\d+ \| \d+\.\d+", summary.replace("\n", " ")) or "after" in summary
    probes = page.locator("#mlm-lab-probes")
    assert "[MASK]" in probes.inner_text() and "top-5 after" in probes.inner_text()
    checkpoint(page, "mlm-lab-en")
    # The Code panel holds the Trainer script of this very run (the course's exercise), under the results.
    [h for h in page.locator(".tp-code button.label-wrap").all() if h.is_visible()][0].click()
    script = "() => [...document.querySelectorAll('.tp-code .cm-content')].find(e => e.offsetParent)?.innerText || ''"
    page.wait_for_function(f"() => ({script})().includes('with the Trainer API')", timeout=30_000)
    shown = page.evaluate(script)  # CodeMirror draws the first lines only: the script's head (its tail: unit tests)
    assert "TrainingArguments," in shown and "assets/mlm_lab/medicine.txt" in shown
    page.get_by_text("中文", exact=True).click()
    page.wait_for_function("() => document.body.innerText.includes('留出损失')", timeout=30_000)
    assert "训练后 top-5" in page.locator("#mlm-lab-probes").inner_text(timeout=30_000)
    page.wait_for_function("() => /停止了训练/.test(document.querySelector('#mlm-lab-status')?.innerText || '')", timeout=30_000)
    page.wait_for_function(FITTED_JS, timeout=60_000)  # the redrawn plots laid out before the screenshot
    checkpoint(page, "mlm-lab-zh")


def test_the_fill_mask_api_defaults_to_the_two_bundled_masked_lms_offline(client):
    """Offline the default is both masked LMs trained here: MiniLM's (English) and multilingual-E5's (Chinese too).
    The page ticks both by default: test_hints.py::test_the_fill_mask_tab_from_its_hint_to_a_result_in_both_languages."""
    out = client.predict("He opened the [MASK] and walked into the room.", None, 5, "en", api_name="/fill_mask")
    assert sorted((r["model"], r["method"]) for r in out["results"]) == [("e5-mlm", "masked"), ("minilm-mlm", "masked")]
