"""A teacher's walk-through, items that only a browser shows (issue 19: token grids, running state, controls that
cannot act, the phone's first screen)."""

from __future__ import annotations

from urllib.parse import urlencode

from tests.e2e.helpers import recording_page, save_screenshot
from tests.e2e.plot_layout import FITTED_JS

LONG = "我在银行存钱，然后去河边散步，看见很多人在钓鱼和聊天，天气非常好，大家都很开心。"


def test_a_long_token_grid_keeps_readable_cells_and_scrolls_on_a_phone(browser, app_url):
    context, page, outside = recording_page(browser, app_url, viewport={"width": 390, "height": 844})
    page.goto(f"{app_url}?{urlencode({'tab': 'masking', 'strategy': 't5', 'text': LONG, 'lang': 'zh'})}")
    grid = page.locator("#masking-grid .js-plotly-plot")
    grid.wait_for(timeout=180_000)
    # the page has widened the grid (style.minWidth) and Plotly has laid it out at that width (tpPlotsFitted: the
    # resize is asynchronous, and reading the width between the two failed once)
    page.wait_for_function("() => document.querySelector('#masking-grid .js-plotly-plot').style.minWidth", timeout=30_000)
    page.wait_for_function(FITTED_JS, timeout=60_000)
    width, room, cells, overflow = grid.evaluate(
        "g => [g._fullLayout.width, g.parentElement.clientWidth, g.data[0].z[0].length,"
        " getComputedStyle(g.parentElement).overflowX]"
    )
    assert width / cells >= 28 and width > room and overflow == "auto"  # readable cells, the box scrolls sideways
    save_screenshot(page, "walkthrough-masking-grid-phone-zh")
    context.close()
    assert not outside


def test_statistics_are_offered_only_where_the_objective_has_them(page):
    page.goto(f"{page.app_url}?tab=masking")
    box = page.locator("#masking-stats-box")
    box.wait_for(timeout=60_000)
    page.locator("#masking-strategy").get_by_text("ELECTRA", exact=False).first.click()
    box.wait_for(state="hidden", timeout=30_000)
    page.locator("#masking-strategy").get_by_text("SpanBERT", exact=False).first.click()
    box.wait_for(state="visible", timeout=30_000)


def test_the_hint_gives_way_to_progress_while_a_run_is_on_its_way(page):
    page.goto(f"{page.app_url}?tab=attention&lang=zh")
    page.locator("#attention-run").wait_for(timeout=60_000)
    page.get_by_label("句子（A）").fill("A sentence nobody has run before, so the model has to work.")
    page.locator("#attention-run").click()
    # The hint's text read at the moment its progress shows, in one evaluation: a warm model answers in well under a
    # second and the hint then leaves the page, so a second look could find nothing (CI timed out on that).
    text = page.wait_for_function(
        """() => { const hint = document.querySelector('#attention-hint');
          return hint && (hint.matches('.pending') || hint.querySelector('.pending')) ? hint.innerText + '|' : null; }""",
        timeout=30_000,
        polling="raf",
    ).json_value()
    assert "按" not in text, text  # "press Run" is not what the student reads while it runs
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=180_000)


def test_the_lab_stop_button_waits_for_a_training(page):
    page.goto(f"{page.app_url}?tab=mlm_lab")
    stop = page.locator("#mlm-lab-cancel")
    stop.wait_for(timeout=60_000)
    assert stop.is_disabled()  # nothing to stop before a training


def test_the_phone_header_leaves_the_lesson_on_the_first_screen(browser, app_url):
    context, page, outside = recording_page(browser, app_url, viewport={"width": 390, "height": 844})
    page.goto(f"{app_url}?tab=lessons&lesson=ex3&lang=zh")
    card = page.locator("#lesson-ex3 h2")
    card.wait_for(timeout=60_000)
    page.wait_for_function("() => document.querySelector('#lesson-ex3 h2').innerText.includes('练习')", timeout=30_000)
    assert card.bounding_box()["y"] < 844  # the open lesson's title is on the first screen
    chip = page.locator("#lessons-picker input[value='ex3']").locator("xpath=ancestor::label[1]")
    page.wait_for_function(
        "() => { const l = document.querySelector(\"#lessons-picker input[value='ex3']\").closest('label');"
        " const r = l.getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth + 1; }",
        timeout=30_000,
    )  # the chip row scrolled to the open lesson
    assert chip.is_visible()
    save_screenshot(page, "walkthrough-phone-lesson-zh")
    context.close()
    assert not outside
