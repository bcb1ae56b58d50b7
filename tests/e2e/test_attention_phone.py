"""Attention on a phone (390x844), both languages (issue 37, low): the key axis's 16 upright labels touched each other,
and Plotly's mode bar, which spans most of a phone-wide plot, covered the title. assets/plot_fit.js now labels every
k-th column when upright labels would touch (each label keeps its position number) and starts a title under the mode
bar. Checked on the boxes Chromium drew."""

from __future__ import annotations

import pytest

from tests.e2e.helpers import checkpoint, recording_page, wait_opened
from tests.e2e.plot_layout import FITTED_JS

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
# [title over a mode-bar button, pairs of key labels that overlap, key labels shown, columns]
DRAWN_JS = """(sel) => {
  const gd = document.querySelector(sel + ' .js-plotly-plot');
  const box = (el) => el.getBoundingClientRect();
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const title = box(gd.querySelector('.g-gtitle .gtitle'));
  const buttons = [...gd.querySelectorAll('.modebar-btn')].map(box).filter((r) => r.width > 0);
  const keys = [...gd.querySelectorAll('.xtick > text')].filter((t) => (t.textContent || '').trim()).map(box)
    .sort((a, b) => a.left - b.left);
  let touching = 0;
  for (let i = 1; i < keys.length; i++) if (overlap(keys[i - 1], keys[i])) touching += 1;
  return [buttons.filter((b) => overlap(title, b)).length, touching, keys.length, gd._fullLayout.xaxis._categories.length];
}"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_attention_on_a_phone_keeps_its_title_clear_and_its_key_labels_apart(browser, app_url, lang):
    context, page, outside = recording_page(browser, app_url, **PHONE)
    try:
        page.goto(f"{app_url}?tab=attention&lang={lang}")
        wait_opened(page)
        page.locator("#attention-run").click()
        page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=180_000)
        page.wait_for_function("() => !document.querySelector('.pending, .progress-text, .eta-bar')", timeout=180_000)
        page.wait_for_function(FITTED_JS, timeout=60_000)
        covered, touching, shown, columns = page.evaluate(DRAWN_JS, "#attention-plot")
        checkpoint(page, f"attention-phone-{lang}")
        assert columns >= 16 and shown >= 4, (shown, columns)  # the default sentence; some keys still labelled
        assert covered == 0, "the mode bar covers the title"
        assert touching == 0, f"{touching} pairs of key labels overlap"
    finally:
        context.close()
    assert not outside
