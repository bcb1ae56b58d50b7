"""Links run in place (issue 17) and the page's first moments (issue 19, walk-through 5, 7, 8), in Chromium.

- A lesson's try-it opens its tab and runs the view without reloading the page (with a lab model trained before:
  tests/e2e/test_lab_model.py, after its one training).
- A share link opened fresh (a non-default attention view, in Chinese) takes one queued request and one run.
- A Chinese browser never shows the page in English, and a keyboard change of the attention sliders redraws it.
"""

from __future__ import annotations

import app
from playground.lessons import LESSONS
from playground.ui.lessons import tab as lessons_tab
from tests.e2e.helpers import recording_page, save_screenshot

LINKS = lessons_tab.lesson_links([tab_id for tab_id, _, _ in app.TABS])
FILL_MASK = next(
    (lesson.key, i) for lesson in LESSONS for i, link in enumerate(LINKS[lesson.key]) if link.query and link.tab == "fill_mask"
)


def _queued(page) -> list[str]:
    """Every queued event this page has sent so far (Gradio's queue/join posts), recorded by _record."""
    return page.evaluate("() => window.__joins || []")


def _record(page) -> None:
    """Count the page's queued requests from inside it (fetch wrapper, installed before the app starts)."""
    page.add_init_script(
        """(() => { const f = window.fetch; window.__joins = [];
             window.fetch = (url, opts) => { if (String(url).includes('/queue/join'))
               window.__joins.push((opts && opts.body) ? String(opts.body).slice(0, 200) : String(url));
               return f(url, opts); }; })()"""
    )


def test_a_fresh_share_link_of_an_attention_view_is_one_request_and_one_run(browser, app_url):
    context, page, outside = recording_page(browser, app_url, locale="zh-CN", viewport={"width": 1400, "height": 1000})
    _record(page)
    page.goto(f"{app_url}?tab=attention&view=entropy&layer=2&head=1&lang=zh")
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=180_000)
    page.wait_for_function("() => !document.querySelector('.pending')", timeout=60_000)
    page.wait_for_timeout(1500)  # anything a cascade would still send has been sent by now
    joins = _queued(page)
    assert len(joins) == 1, joins  # one queued event: the link's (language, tab, inputs and the view together)
    values = page.locator("#attention-sliders input[type=number]").evaluate_all("els => els.map(e => e.value)")
    assert values[:2] == ["2", "1"]
    assert "第 2 层" in page.locator("#attention-plot").inner_text() or "2" in page.locator("#attention-info").inner_text()
    save_screenshot(page, "links-fresh-attention-zh")
    context.close()
    assert not outside


def test_a_chinese_browser_never_shows_the_page_in_english(browser, app_url):
    context, page, outside = recording_page(browser, app_url, locale="zh-CN", viewport={"width": 1400, "height": 1000})
    page.goto(app_url)
    english = page.evaluate(
        """() => new Promise((done) => {
            const seen = [];
            const look = () => {
              const hidden = document.documentElement.classList.contains('tp-lang-pending');
              const text = document.body ? document.body.innerText : '';
              if (!hidden && /Transformer Playground|Link to this view|Lessons/.test(text)) seen.push(text.slice(0, 80));
              if (!hidden && text.includes('课程')) return done(seen);
              setTimeout(look, 20);
            };
            look();
        })"""
    )
    assert english == [], english[:3]
    assert page.get_by_label("中文").is_checked()
    context.close()
    assert not outside


def test_the_attention_figure_follows_the_arrow_keys(page):
    page.goto(f"{page.app_url}?tab=attention&model=minilm&view=head&layer=0&head=0")
    page.locator("#attention-plot .js-plotly-plot").wait_for(timeout=180_000)
    page.wait_for_function("document.querySelector('#attention-plot').innerText.includes('Layer 0, head 0')", timeout=60_000)
    layer = page.locator("#attention-sliders input[type=range]").first
    layer.focus()
    layer.press("ArrowRight")
    page.wait_for_function("document.querySelector('#attention-plot').innerText.includes('Layer 1, head 0')", timeout=60_000)
    box = page.locator("#attention-sliders input[type=number]").nth(1)  # the head: a number typed and confirmed
    box.fill("3")
    box.press("Enter")
    page.wait_for_function("document.querySelector('#attention-plot').innerText.includes('Layer 1, head 3')", timeout=60_000)
    values = page.locator("#attention-sliders input[type=number]").evaluate_all("els => els.map(e => e.value)")
    assert values[:2] == ["1", "3"]  # the controls and the title agree
