"""The live class in Chromium, in both languages: the teacher starts it in the Class tab, the projector opens the board
with the teacher link, three phones (390x844) join by code and answer; the boards count without the histogram, the
reveal shows the class beside the model on the board and on the phones; a script nickname and answer are text.

What a unit test proves (tally, escaping of every field, refusals) is in tests/unit/classroom/; this is what only a
browser shows: the pages' scripts, the timer, the teacher link's fragment, the phone layout.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import checkpoint, recording_page, wait_for_tab, wait_opened

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
XSS_NICK = "<img src=x onerror=alert(1)>"
XSS_ANSWER = "<b>bold</b>"
WORDS = {"answered": {"en": "3 of 3 answered", "zh": "已作答 3 / 3 人"}, "class": {"en": "The class", "zh": "全班"},
         "bad_code": {"en": "No class with this code", "zh": "没有这个加入码"}}  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_class_joins_by_code_answers_and_sees_the_reveal_beside_the_model(browser, app_url, lang):
    contexts, outside, dialogs = [], [], []

    def open_page(viewport, locale):
        context, page, leaks = recording_page(browser, app_url, viewport=viewport, locale=locale)
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        contexts.append(context)
        outside.append(leaks)
        return page

    locale = "zh-CN" if lang == "zh" else "en-US"
    try:
        # The teacher: the Class tab, in the page's language, starts a session with the activity's default text.
        tab = open_page({"width": 1400, "height": 1000}, locale)
        tab.goto(f"{app_url}?tab=classroom&lang={lang}")
        wait_for_tab(tab, "classroom")
        wait_opened(tab)
        if lang == "zh":  # the activity chosen by hand sets its Chinese example and model
            tab.locator("#class-activity input").click()
            tab.get_by_role("option", name="填空").click()
            tab.wait_for_function("() => document.querySelector('#class-text textarea').value.includes('[MASK]处理')")
        tab.locator("#class-start").click()
        board_in_tab = tab.locator("#class-board .tpc-board")
        board_in_tab.wait_for(timeout=120_000)  # a first model load
        code = tab.locator("#class-board #tpc-code").inner_text().strip()
        links = tab.locator("#class-links").inner_text()
        teacher_link = re.search(r"(https?://\S+/class/board\?\S+#t=[\w-]+)", links).group(1)
        checkpoint(tab, f"class-tab-started-{lang}")

        # The projector: the board alone, with the teacher's controls (the token is in the fragment).
        board = open_page(PROJECTOR, locale)
        board.goto(teacher_link)
        board.locator(".tpc-board").wait_for()
        assert board.locator(".tpc-qr svg").count() == 1 and code in board.locator("#tpc-code").inner_text()
        assert board.locator("#controls").is_visible()
        plain = open_page(PROJECTOR, locale)  # the board link without the teacher's fragment: a board, no controls
        plain.goto(teacher_link.split("#")[0])
        plain.locator(".tpc-board").wait_for()
        assert not plain.locator("#controls").is_visible()

        # Three phones: one mistypes the code first (told in its language), then all join by typing it.
        phones = []
        for i, (nick, answer) in enumerate([(XSS_NICK, XSS_ANSWER), ("ann", "paris"), ("", "paris")]):
            phone = open_page(PHONE, locale)
            phone.goto(f"{app_url}class/join")
            phone.locator("#code").wait_for()
            if i == 0:
                phone.fill("#code", "ZZZZZZ")
                phone.click("#join")
                phone.wait_for_function(f"() => document.getElementById('err').textContent.includes({WORDS['bad_code'][lang]!r})")
            phone.fill("#code", code.lower())
            phone.fill("#nick", nick)
            phone.click("#join")
            phone.locator("#answer").wait_for()
            phone.fill("#answer", answer)
            phone.click("#send")
            phone.wait_for_function("() => document.getElementById('sent').textContent.length > 0")
            phones.append(phone)
        checkpoint(phones[0], f"class-phone-answered-{lang}")
        assert phones[0].evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]  # nothing widens it

        # Both boards count the answers and show no histogram.
        for page in (board, tab):
            page.wait_for_function(f"() => document.body.innerText.includes({WORDS['answered'][lang]!r})", timeout=15_000)
            assert page.locator("#tpc-reveal").count() == 0 and "paris" not in page.locator(".tpc-board").inner_text()
        names = board.locator(".tpc-names")
        assert XSS_NICK[:24] in names.inner_text() and names.locator("img").count() == 0  # the nickname is text
        checkpoint(board, f"class-board-counting-{lang}")

        # The reveal, from the projector's controls: the class beside the model, on the board and on a phone.
        board.locator("[data-action=reveal]").click()
        reveal = board.locator("#tpc-reveal")
        reveal.wait_for()
        assert WORDS["class"][lang] in reveal.inner_text() and reveal.locator(".tpc-model .tpc-bar").count() >= 3
        assert "paris" in reveal.inner_text() and "b>bold</b" in reveal.inner_text() and reveal.locator("b").count() == 0
        checkpoint(board, f"class-board-revealed-{lang}")
        phones[1].locator("#reveal .model").wait_for(timeout=15_000)
        assert "paris" in phones[1].locator("#reveal").inner_text() and "ann" not in phones[1].locator("body").inner_text()
        checkpoint(phones[1], f"class-phone-revealed-{lang}")

        if lang == "en":  # "our sentences": one language is enough, the Chinese strings take the same code path
            # (the page scripts, the picture's SVG); its facts (points, scores, escaping, zh messages) are unit tests.
            tab.locator("#class-activity input").click()
            tab.get_by_role("option", name="Our sentences, one picture").click()
            tab.wait_for_function("() => document.querySelector('#class-text textarea').value.includes('|')")
            tab.locator("#class-add").click()
            board.locator("#tpc-picture").wait_for(timeout=120_000)  # the board polls; a first load of the encoder
            for phone, sentence in [(phones[1], "We sat on the river bank."), (phones[2], "The bank lent me money.")]:
                phone.locator("#sentence").wait_for(timeout=15_000)  # the phones poll, and show the new question
                phone.fill("#sentence", "no such word here")
                phone.locator("[data-sense='0']").click()
                phone.click("#send")
                phone.wait_for_function("() => document.getElementById('err').textContent.includes('“bank”')")
                phone.fill("#sentence", sentence)
                phone.click("#send")
                phone.wait_for_function("() => document.getElementById('sent').textContent.includes('bank')")
            board.wait_for_function("() => document.querySelector('#tpc-picture')?.dataset.points === '2'", timeout=15_000)
            assert board.locator("#tpc-picture circle").count() == 4  # a dot per sentence, contextual and static
            checkpoint(board, "class-board-sentences-en")
        assert not dialogs, f"a script ran: {dialogs}"
    finally:
        for context in contexts:
            context.close()
    assert not any(outside), f"a page requested outside its origin: {[o for leaks in outside for o in leaks][:5]}"
