"""The probes view of "Look inside a prediction" in the browser, one journey per language: a link opens the view, the
figure draws both labels beside their controls per layer, the reading names the verdict in the page's language, and
the sentence box (which the probes do not read) is hidden. The numbers and readings are unit- and integration-tested.
"""

from __future__ import annotations

from urllib.parse import urlencode

from tests.e2e.helpers import checkpoint, wait_opened

PLOT = "#insight-plot .js-plotly-plot"
# The figure's traces as the page has them: name, and y as numbers.
TRACES_JS = f"""() => {{ const gd = document.querySelector('{PLOT}');
  return gd.data.map((t) => ({{name: t.name, type: t.type, n: t.y.length}})); }}"""


def open_probes(page, **params) -> None:
    page.goto(f"{page.app_url}?{urlencode({'tab': 'insight', 'view': 'probes', **params})}")
    wait_opened(page)
    page.locator(PLOT).wait_for(timeout=180_000)


def test_probes_in_english_on_the_small_elmo(page):
    open_probes(page, probe_model="elmo-small", probe_lang="en")
    checkpoint(page, "insight-probes-en")
    traces = page.evaluate(TRACES_JS)
    names = [t["name"] for t in traces]
    assert {"part of speech", "part of speech: control", "word sense", "word sense: control"} <= set(names)
    assert all(t["n"] == 3 for t in traces)  # ELMo: char CNN + two biLSTM layers
    reading = page.locator("#insight-reading").inner_text()
    assert "Syntax low, semantics high" in reading and "Peters et al. (2018)" in reading
    assert "Hewitt & Liang" in reading
    assert not page.locator("#insight-text").is_visible()  # the probes read fixed data, not the sentence
    assert page.locator("#insight-probe-model").is_visible()
    assert "char CNN" in page.locator("#insight-detail").inner_text()


def test_probes_in_chinese_on_e5(page):
    open_probes(page, probe_model="e5-small", probe_lang="zh", lang="zh")
    checkpoint(page, "insight-probes-zh")
    traces = page.evaluate(TRACES_JS)
    assert {"词性", "词义", "词性：控制任务", "词义：控制任务"} <= {t["name"] for t in traces}
    assert all(t["n"] == 13 for t in traces)  # e5-small: embeddings + 12 blocks
    reading = page.locator("#insight-reading").inner_text()
    assert "低层句法、高层语义" in reading and "24 个词元" in reading  # the verdict, and how few sense labels there are
    assert "jieba" in reading
