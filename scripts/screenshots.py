"""Make the pictures the docs show: start the app offline, drive Debian's Chromium, write assets/screenshots/.

    python scripts/screenshots.py               # every picture
    python scripts/screenshots.py polysemy ...  # only these (names without .png)
    python scripts/screenshots.py --list

Tests never write here (tests/e2e/helpers.save_screenshot writes to test-artifacts/). A picture that no page shows
is not committed: add a SHOTS entry only together with the page that shows it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Callable
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from serve_app import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402

OUT = ROOT / "assets" / "screenshots"
DESKTOP = {"viewport": {"width": 1400, "height": 1000}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2}
BOARD = {"viewport": {"width": 1440, "height": 900}}  # a laptop driving the projector
FITTED = "() => typeof window.tpPlotsFitted === 'function' && window.tpPlotsFitted()"  # assets/plot_fit.js is done
SHARE = {"en": "Link to this view", "zh": "本视图的链接"}  # every tab has it; relabelled once the language is applied
LAB_STEPS = 3


def _open(page, url: str, query: str, lang: str = "en") -> None:
    page.goto(f"{url}?{query}&lang={lang}" if query else f"{url}?lang={lang}")
    page.wait_for_selector(".gradio-container", timeout=60_000)
    page.wait_for_function("(label) => document.body.innerText.includes(label)", arg=SHARE[lang], timeout=60_000)


def _settled(page, plot: str | None = None) -> None:
    if plot:
        page.locator(f"{plot} .js-plotly-plot").first.wait_for(timeout=300_000)
    # .generating: Gradio's mark on an output still receiving a stream (the sampling tab's samples)
    page.wait_for_function("() => !document.querySelector('.pending, .progress-text, .eta-bar, .generating')", timeout=300_000)
    page.wait_for_function(FITTED, timeout=60_000)


def _lesson_query(lesson: str, index: int = 0) -> str:
    import app
    from playground.ui.lessons import tab as lessons_tab

    return lessons_tab.lesson_links([tab_id for tab_id, _, _ in app.TABS])[lesson][index].query


def fill_mask(lang: str) -> Callable:
    def shot(page, url):
        _open(page, url, "tab=fill_mask&models=%5B%22minilm-mlm%22%2C%22smollm2-instruct%22%5D", lang)
        _settled(page, "#fill-mask-plot")

    return shot


def code_panel_fill_mask_zh(page, url):
    """Exercise 3's sentence with the Chinese masked LM, the link opening the Code panel (show=code): the picture is
    the panel alone, the script beside the numbers it prints."""
    query = urlencode({"tab": "fill_mask", "text": "我[MASK]自然语言处理。", "models": '["e5-mlm"]', "show": "code"})
    _open(page, url, query, "zh")
    _settled(page, "#fill-mask-plot")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.tp-code .cm-content')].some((e) => e.innerText.includes('pipeline'))",
        timeout=60_000,
    )
    page.locator(".tp-code:visible").first.scroll_into_view_if_needed()  # CodeMirror measures what is on screen
    page.wait_for_function(CODE_ALIGNED, timeout=30_000)  # ... and again once the CJK font has loaded
    return "#fill-mask-plot, .tp-code:visible"


# The line numbers sit beside their lines: the last number's bottom is the last line's (measured before the Chinese
# font loaded, the gutter ran three lines short of the code).
CODE_ALIGNED = """() => {
  const box = [...document.querySelectorAll('.tp-code')].find((e) => e.offsetParent !== null);
  const lines = box ? box.querySelectorAll('.cm-line') : [];
  const numbers = box ? box.querySelectorAll('.cm-lineNumbers .cm-gutterElement') : [];
  if (!lines.length || !numbers.length) return false;
  const a = lines[lines.length - 1].getBoundingClientRect(), b = numbers[numbers.length - 1].getBoundingClientRect();
  return Math.abs(a.bottom - b.bottom) < 2;
}"""


def hint(tab: str, lang: str) -> Callable:
    def shot(page, url):
        _open(page, url, f"tab={tab}", lang)
        page.locator("[role=tabpanel] .tp-hint").filter(visible=True).first.wait_for(timeout=30_000)

    return shot


def polysemy(page, url):
    _open(page, url, "tab=polysemy")
    page.locator("#polysemy-run").click()
    _settled(page, "#polysemy-curve")


def masking_bert(page, url):
    _open(page, url, "tab=masking&strategy=bert")
    _settled(page, "#masking-grid")


def sampling_generate(page, url):
    _open(page, url, "tab=sampling")
    page.locator("#sampling-generate").click()
    page.wait_for_function("document.querySelectorAll('#sampling-generated .tp-sample').length === 3", timeout=300_000)
    _settled(page)


def attention_head(page, url):
    _open(page, url, "tab=attention")
    page.locator("#attention-run").click()
    _settled(page, "#attention-plot")


def lesson_ex2(button: int, lang: str) -> Callable:
    def shot(page, url):
        _open(page, url, "tab=lessons&lesson=ex2", lang)
        page.locator(f"#lesson-ex2-try-{button}").click()
        page.locator("button[role=tab][data-tab-id=sampling][aria-selected=true]").wait_for(timeout=60_000)
        _settled(page, "#sampling-next-plot")
        if button == 0:  # three samples at T = 0.1
            page.wait_for_function("document.querySelectorAll('#sampling-generated .tp-sample').length === 3", timeout=300_000)
        else:  # the three temperatures side by side
            page.locator("#sampling-compare-plot .js-plotly-plot").wait_for(timeout=300_000)
        _settled(page)

    return shot


def projector_albert(page, url):
    _open(page, url, _lesson_query("albert"))
    page.locator("#tp-projector input").check()
    page.wait_for_function("() => document.body.classList.contains('tp-projector')")
    _settled(page, "#inside-params-plot")


def phone_sampling(page, url):
    _open(page, url, _lesson_query("sampling"), "zh")
    _settled(page, "#sampling-next-plot")


def _train_lab_model(page, url) -> None:
    """A 3-step training in this page's session (no navigation afterwards: that would be a new session)."""
    _open(page, url, "tab=mlm_lab")
    steps = page.locator("#mlm-lab-steps input[type=number]")
    steps.fill(str(LAB_STEPS))
    steps.press("Enter")
    page.locator("#mlm-lab-train").click()
    page.wait_for_function(
        f"() => /Finished: {LAB_STEPS} steps/.test(document.querySelector('#mlm-lab-status')?.innerText || '')",
        timeout=600_000,
    )


def lab_model_fill_mask(page, url):
    _train_lab_model(page, url)
    page.get_by_role("tab", name="Fill-mask").click()
    page.get_by_label(f"Your lab model (MiniLM + MLM head trained here, {LAB_STEPS} steps)").check()
    page.get_by_label("Sentence with [MASK]").first.fill("Hepatitis is an inflammation of the [MASK].")
    page.get_by_role("button", name="Fill the blanks").click()
    page.wait_for_function(
        "() => /your MLM lab fine-tune/.test(document.querySelector('.tp-provenance')?.innerText || '')", timeout=300_000
    )
    _settled(page, "#fill-mask-plot")


def lab_model_attention_zh(page, url):
    _train_lab_model(page, url)
    page.get_by_role("tab", name="Attention").click()
    page.get_by_label("Model", exact=True).click()
    page.get_by_role("option", name=f"Your lab model (MiniLM + MLM head trained here, {LAB_STEPS} steps)").click()
    page.locator("#attention-run").click()
    page.wait_for_function(
        "() => /your MLM lab fine-tune/.test(document.querySelector('#attention-info')?.innerText || '')", timeout=300_000
    )
    page.get_by_label("中文").check()  # the map is redrawn in Chinese from the same run
    page.wait_for_function("() => /设备/.test(document.querySelector('#attention-info')?.innerText || '')", timeout=60_000)
    _settled(page, "#attention-plot")


def _class_session(url: str, lang: str, answers: list[str], kind: str = "fill_blank") -> dict:
    """A live class on the activity's own example: started through /class_start, `answers` sent by as many students."""
    import json
    import urllib.request

    from gradio_client import Client

    from playground.classroom import ACTIVITIES

    activity = ACTIVITIES[kind]
    start = Client(url, verbose=False).predict(
        kind, activity.examples[lang], activity.models[lang], lang, 0, api_name="/class_start"
    )

    def post(path: str, body: dict) -> dict:
        request = urllib.request.Request(url + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
        return json.loads(urllib.request.urlopen(request, timeout=60).read())

    for i, word in enumerate(answers):
        kid = post("class/api/join", {"code": start["code"], "nickname": f"student {i + 1}"})
        post("class/api/answer", {"code": start["code"], "student": kid["student"], "answer": word})
    return start | {"post": post}


def class_board_revealed(page, url):
    """The projector's board after the reveal: the class's words beside the model's."""
    s = _class_session(url, "en", ["Paris", "paris", "Paris", "Lyon", "London", "paris", "capital"])
    s["post"]("class/api/control", {"code": s["code"], "teacher": s["teacher"], "action": "reveal"})
    page.goto(f"{url}class/board?c={s['code']}&lang=en")
    page.locator("#tpc-reveal").wait_for(timeout=60_000)


def class_phone_zh(page, url):
    """A student's phone in Chinese, after answering."""
    s = _class_session(url, "zh", ["语言", "语言", "智能"])
    page.goto(f"{url}class/join?c={s['code']}&lang=zh")
    page.fill("#nick", "小明")
    page.click("#join")
    page.locator("#answer").wait_for(timeout=60_000)
    page.fill("#answer", "语言")
    page.click("#send")
    page.wait_for_function("() => document.getElementById('sent').textContent.length > 0")


# "Our sentences": five sentences per sense of the activity's example word (bank | river | money; 苹果 | 水果 | 公司)
SENTENCES = {
    "en": [f"0|{x}" for x in ["We sat on the bank of the river.", "The river bank was muddy after the rain.",
                              "Ducks slept on the grassy bank.", "The boat drifted toward the far bank.",
                              "Fishermen lined the bank at dawn."]]
    + [f"1|{x}" for x in ["I paid the cheque into the bank.", "The bank raised its interest rates.",
                          "She works at a bank in London.", "The bank approved our loan.", "He robbed a bank last year."]],
    "zh": [f"0|{x}" for x in ["我每天吃一个苹果。", "这个苹果又红又甜。", "妈妈买了一斤苹果。", "苹果树上结满了果子。",
                              "他把苹果切成两半。"]]
    + [f"1|{x}" for x in ["苹果发布了新手机。", "我的电脑是苹果的。", "苹果公司的总部在加州。", "他在苹果工作了三年。",
                          "苹果的股价今天上涨了。"]],
}  # fmt: skip


def class_sentences_board(lang: str, reveal: bool) -> Callable:
    """The projector's board (1440 x 900) of "our sentences": ten sentences as points, contextual beside static;
    coloured by the students' senses once revealed."""

    def shot(page, url):
        s = _class_session(url, lang, SENTENCES[lang], "sentences")
        if reveal:
            s["post"]("class/api/control", {"code": s["code"], "teacher": s["teacher"], "action": "reveal"})
        page.goto(f"{url}class/board?c={s['code']}&lang={lang}#t={s['teacher']}")
        page.locator("#tpc-picture").wait_for(timeout=120_000)
        if reveal:
            page.locator("#tpc-reveal").wait_for(timeout=60_000)

    return shot


def class_sentences_projector(lang: str) -> Callable:
    """The Class tab in projector mode, the teacher's own session of "our sentences" revealed."""
    return lambda page, url: _class_sentences_projector(page, url, lang)


def _class_sentences_projector(page, url, lang: str):
    import json
    import urllib.request

    _open(page, url, "tab=classroom", lang)
    page.locator("#tp-projector input").check()
    page.wait_for_function("() => document.body.classList.contains('tp-projector')")
    page.locator("#class-activity input").click()
    page.get_by_role("option", name="Our sentences, one picture" if lang == "en" else "我们的句子，一张图").click()
    page.wait_for_function("() => document.querySelector('#class-text textarea').value.includes('|')")
    page.locator("#class-start").click()
    page.locator("#class-board #tpc-code").wait_for(timeout=120_000)
    code = page.locator("#class-board #tpc-code").inner_text().strip()

    def post(path: str, body: dict) -> dict:
        request = urllib.request.Request(url + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
        return json.loads(urllib.request.urlopen(request, timeout=60).read())

    for i, answer in enumerate(SENTENCES[lang]):
        kid = post("class/api/join", {"code": code, "nickname": f"student {i + 1}"})
        post("class/api/answer", {"code": code, "student": kid["student"], "answer": answer})
    page.locator("#class-reveal").click()
    page.locator("#class-board #tpc-reveal").wait_for(timeout=60_000)
    page.locator("#class-board #tpc-picture").scroll_into_view_if_needed()


def class_sentences_phone(lang: str) -> Callable:
    """A student's phone (390 px): the sense buttons, a sentence without the word refused, then sent."""

    def shot(page, url):
        s = _class_session(url, lang, SENTENCES[lang][:3], "sentences")
        page.goto(f"{url}class/join?c={s['code']}&lang={lang}")
        page.click("#join")
        page.locator("#sentence").wait_for(timeout=60_000)
        page.fill("#sentence", "I like it." if lang == "en" else "我喜欢吃香蕉。")
        page.locator("[data-sense='0']").click()
        page.click("#send")
        page.wait_for_function("() => document.getElementById('err').textContent.length > 0")
        page.fill("#sentence", SENTENCES[lang][3][2:])
        page.click("#send")
        page.wait_for_function("() => document.getElementById('sent').textContent.length > 0")
        page.fill("#sentence", "I like it." if lang == "en" else "我喜欢吃香蕉。")
        page.click("#send")  # refused again: the message and the kept answer, both on one screen
        page.wait_for_function("() => document.getElementById('err').textContent.length > 0")

    return shot


CARD = (1200, 630)  # the Space's card picture (README front matter `thumbnail:`), the size link previews use


def thumbnail(page, url):
    """The Space's card: the page's header above a fill-mask result (the bundled masked LM) and its provenance line,
    three element screenshots of one real page stacked on white, CARD-sized."""
    import io

    from PIL import Image

    _open(page, url, "tab=fill_mask&models=%5B%22minilm-mlm%22%5D")
    _settled(page, "#fill-mask-plot")
    parts = [
        Image.open(io.BytesIO(page.locator(sel).first.screenshot()))
        for sel in (".tp-header", "#fill-mask-plot", "#fill-mask-info")
    ]
    card, top = Image.new("RGB", CARD, "white"), 16
    for part in parts:
        card.paste(part, ((CARD[0] - part.width) // 2, top))
        top += part.height + 12
    if top - 12 > CARD[1]:  # (16 px above the first part)
        raise SystemExit(f"thumbnail: the parts are {top - 12} px high, more than the card's {CARD[1]}")
    return card


# name -> (browser context options, what to do before the full-page screenshot). Every one is shown by a page, but
# the thumbnail, which the Space's card shows (README front matter).
SHOTS: dict[str, tuple[dict, Callable]] = {
    "fill_mask": (DESKTOP, fill_mask("en")),  # README, docs/demos/fill-mask.md
    "fill_mask_zh": (DESKTOP, fill_mask("zh")),  # docs/demos/fill-mask.md
    "code-fill-mask-zh": (DESKTOP, code_panel_fill_mask_zh),  # docs/code.md
    "polysemy": (DESKTOP, polysemy),  # README, docs/demos/polysemy.md
    "masking-bert": (DESKTOP, masking_bert),  # docs/demos/masking.md
    "sampling-generate": (DESKTOP, sampling_generate),  # README, docs/demos/sampling.md
    "attention-head": (DESKTOP, attention_head),  # README, docs/demos/attention.md
    "hint-fill_mask-en": (DESKTOP, hint("fill_mask", "en")),  # docs/demos/classroom.md
    "hint-mlm_lab-zh": (DESKTOP, hint("mlm_lab", "zh")),  # docs/demos/classroom.md
    "projector-albert-en": (DESKTOP, projector_albert),  # docs/demos/classroom.md
    "phone-sampling-zh": (PHONE, phone_sampling),  # docs/demos/classroom.md
    "lessons-ex2-try-0-zh": (DESKTOP, lesson_ex2(0, "zh")),  # docs/demos/lessons.md
    "lessons-ex2-try-3-en": (DESKTOP, lesson_ex2(3, "en")),  # docs/demos/lessons.md
    "lab-model-fill-mask-en": (DESKTOP, lab_model_fill_mask),  # docs/demos/mlm-lab.md
    "lab-model-attention-zh": (DESKTOP, lab_model_attention_zh),  # docs/demos/mlm-lab.md
    "class-board-revealed-en": ({"viewport": {"width": 1920, "height": 1080}}, class_board_revealed),  # classroom.md
    "class-phone-zh": (PHONE, class_phone_zh),  # docs/demos/classroom.md
    "class-sentences-board-en": (BOARD, class_sentences_board("en", True)),  # docs/demos/classroom.md
    "class-sentences-board-zh": (BOARD, class_sentences_board("zh", True)),  # docs/demos/classroom.md
    "class-sentences-collect-en": (BOARD, class_sentences_board("en", False)),  # docs/demos/classroom.md
    "class-sentences-projector-en": (DESKTOP, class_sentences_projector("en")),  # docs/demos/classroom.md
    "class-sentences-projector-zh": (DESKTOP, class_sentences_projector("zh")),  # docs/demos/classroom.md
    "class-sentences-phone-en": (PHONE, class_sentences_phone("en")),  # docs/demos/classroom.md
    "class-sentences-phone-zh": (PHONE, class_sentences_phone("zh")),  # docs/demos/classroom.md
    "thumbnail": ({"viewport": {"width": CARD[0], "height": 900}}, thumbnail),  # README front matter
}


def _shoot_union(page, selector: str, path: Path) -> None:
    """One picture of the page region that holds every element `selector` matches (top of the first to the bottom
    of the last), at the page's width."""
    boxes = [box for box in (el.bounding_box() for el in page.locator(selector).all()) if box]
    top = min(b["y"] for b in boxes) + page.evaluate("window.scrollY")
    bottom = max(b["y"] + b["height"] for b in boxes) + page.evaluate("window.scrollY")
    width = page.evaluate("document.documentElement.clientWidth")
    page.screenshot(path=str(path), full_page=True, clip={"x": 0, "y": top - 8, "width": width, "height": bottom - top + 16})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="pictures to make (default: all)")
    parser.add_argument("--list", action="store_true", help="list the pictures and exit")
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write to (default: assets/screenshots/)")
    args = parser.parse_args()
    if args.list:
        print("\n".join(SHOTS))
        return 0
    unknown = sorted(set(args.names) - set(SHOTS))
    if unknown:
        raise SystemExit(f"unknown pictures {unknown}; --list names them")
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    # On a loaded machine 3 x 40 sampled tokens can pass the default 120 s budget: the pictures show results, not that.
    os.environ.setdefault("PLAYGROUND_GENERATION_TIME_LIMIT", "600")
    with serve() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name in args.names or list(SHOTS):
            options, action = SHOTS[name]
            context = browser.new_context(locale="en-US", **options)
            page = context.new_page()
            clip = action(page, url)  # a selector: the picture is those elements only; a composed picture; else the page
            errors = page.locator(".toast-body.error").all_inner_texts()
            if errors:  # never save a picture of a failure as if it were the view
                raise SystemExit(f"{name}: the page showed an error: {errors[0][:300]}")
            if hasattr(clip, "save"):  # a picture the action composed (the Space's card)
                clip.save(args.out / f"{name}.png")
            elif clip:
                _shoot_union(page, clip, args.out / f"{name}.png")
            else:
                page.screenshot(path=str(args.out / f"{name}.png"), full_page=True)
            context.close()
            print(f"wrote {args.out / name}.png", flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
