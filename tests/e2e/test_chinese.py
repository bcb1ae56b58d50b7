"""Chinese offline in the browser, on the bundled multilingual-E5 small: the course's 银行 sentences with a reading
that says both are the institution, and the cross-lingual view (English and Chinese in one space)."""

import json
from pathlib import Path
from urllib.parse import urlencode

from tests.e2e.helpers import save_screenshot

PRESETS = json.loads((Path(__file__).parents[2] / "assets" / "polysemy" / "presets.json").read_text(encoding="utf-8"))


def _open(page, key: str, lang: str) -> str:
    preset = PRESETS[key]
    params = {
        "tab": "polysemy",
        "example": key,
        "word": preset["word"],
        "sentences": "\n".join(preset["sentences"]),
        "models": json.dumps(["e5-small"]),
        "input_embeddings": "false",
        "lang": lang,
    }
    page.goto(f"{page.app_url}?{urlencode(params)}")
    page.wait_for_selector("#polysemy-scatter .js-plotly-plot", timeout=240_000)
    return page.locator("#polysemy-reading").inner_text()


def test_yinhang_runs_on_e5_in_chinese_and_says_one_sense(page):
    reading = _open(page, "yinhang", "zh")
    assert "金融机构" in reading and "⚠️" not in reading and "[UNK]" not in reading
    save_screenshot(page, "chinese-yinhang-zh")


def test_the_cross_lingual_view_shows_measured_cosines(page):
    reading = _open(page, "apple-pingguo", "en")
    assert "across languages" in reading and "the translation with the same sense is closer" in reading
    save_screenshot(page, "chinese-cross-lingual-en")
