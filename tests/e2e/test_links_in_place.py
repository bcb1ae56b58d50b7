"""Links run in place (issue 17) and the page's first moments (issue 19, walk-through 5, 7, 8), in Chromium.

- A lesson's try-it opens its tab and runs the view without reloading the page (with a lab model trained before:
  tests/e2e/test_lab_model.py, after its one training).
- A Chinese browser never shows the page in English: it opens in Chinese, tab names included.
(A fresh attention share link's one request, and the sliders' keyboard changes: tests/e2e/test_attention.py.)
"""

from __future__ import annotations

import app
from playground.lessons import LESSONS
from playground.lessons import pages as lesson_pages
from tests.e2e.helpers import recording_page

LINKS = lesson_pages.lesson_links([tab_id for tab_id, _, _ in app.TABS])
FILL_MASK = next(
    (lesson.key, i) for lesson in LESSONS for i, link in enumerate(LINKS[lesson.key]) if link.query and link.tab == "fill_mask"
)


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
    assert page.get_by_role("radio", name="中文", exact=True).is_checked()
    page.get_by_role("tab", name="完形填空").wait_for(timeout=30_000)  # the browser's language names the tabs too
    context.close()
    assert not outside
