"""A teacher's walk-through, items that only a browser shows (issue 19). Here: a long token grid on a phone. The
walk-through's other items run inside the journeys of their tabs: the statistics box (test_masking.py), the lab's
Stop before a training (test_lab_model.py), the hint while a run is pending (test_attention.py), the phone's first
screen of a lesson (test_lessons.py)."""

from __future__ import annotations

from urllib.parse import urlencode

from tests.e2e.helpers import checkpoint, recording_page
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
    checkpoint(page, "walkthrough-masking-grid-phone-zh")
    context.close()
    assert not outside
