"""Look inside a prediction in the browser: a link opens a view, the radio runs another in one click, the Chinese
page reads in Chinese (the numbers' facts are unit-tested in tests/unit/insight)."""

from __future__ import annotations

from urllib.parse import urlencode

from tests.e2e.helpers import checkpoint, wait_opened

READING = "#insight-reading"


def open_view(page, **params) -> None:
    page.goto(f"{page.app_url}?{urlencode({'tab': 'insight', **params})}")
    wait_opened(page, timeout=120_000)
    page.locator(f"{READING} strong").first.wait_for(timeout=240_000)


def test_the_lens_then_the_knockout_in_english(page):
    open_view(page, view="lens", model="minilm-mlm", text="The capital of France is [MASK].")
    checkpoint(page, "insight-lens-en")
    reading = page.locator(READING).inner_text()
    assert "the blank (position 6)" in reading and ("from layer" in reading or "Only the last layer" in reading)
    assert page.locator("#insight-plot .js-plotly-plot").count() == 1
    assert page.locator("#insight-detail table tbody tr").count() == 7  # layers 0-6 of MiniLM
    page.locator("#insight-view label", has_text="Knock out heads").click()  # choosing a view runs it
    page.locator(READING, has_text="the head that matters most").wait_for(timeout=240_000)
    checkpoint(page, "insight-knockout-en")
    assert page.locator("#insight-detail table tbody tr").count() == 10  # the ten heads that matter most
    assert page.locator("#insight-heads").is_visible()  # the view's own options are shown, the others hidden
    assert not page.locator("#insight-source").is_visible()


def test_patching_a_chinese_gpt_in_chinese(page):
    open_view(page, view="patching", model="gpt-zh", text="我爱北京天安", source="我爱上海天安", patch_layer=1, lang="zh")
    checkpoint(page, "insight-patching-zh")
    reading = page.locator(READING).inner_text()
    assert "因果模型" in reading and "修补位置左边最大的变化是 0" in reading  # nothing left of the patch moved
    assert page.locator("#insight-source").is_visible()
    assert "看进一次预测" in page.locator("button[role=tab][aria-selected=true]").inner_text()
