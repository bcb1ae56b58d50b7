"""After a training, the try-it box reads the corpus's language and no table is drawn empty (issue 37, low: the lab
offered "Hepatitis is an inflammation of the [MASK]." after a Chinese run, and an empty table headed 1, 2, 3)."""

from types import SimpleNamespace

from playground.ui.mlm_lab import render

ZH_PROBE = "在图[MASK]对话框中可以调整透明度。"
EN_DEFAULT = "Hepatitis is an inflammation of the [MASK]."


def result_with(*masked: str) -> SimpleNamespace:
    return SimpleNamespace(probes=[SimpleNamespace(masked=m) for m in masked])


def test_a_chinese_run_puts_a_held_out_chinese_probe_in_an_english_try_box():
    assert render.try_text(result_with(ZH_PROBE), EN_DEFAULT) == ZH_PROBE


def test_a_try_box_already_in_the_corpus_language_is_the_students_own():
    own = "这个工具可以[MASK]图像。"
    assert render.try_text(result_with(ZH_PROBE), own) == {"__type__": "update"}
    assert render.try_text(result_with("The [MASK] pumps blood."), EN_DEFAULT) == {"__type__": "update"}
    assert render.try_text(result_with(), EN_DEFAULT) == {"__type__": "update"}  # no probe: nothing to offer


def test_no_lab_table_is_drawn_before_it_has_rows():
    import gradio as gr

    from playground.ui.mlm_lab import tab
    from tests.unit.core.test_trust_audit import _by_id, _tab

    demo, _, _ = _tab(tab.build_tab)
    for elem_id in ("mlm-lab-compared", "mlm-lab-probes"):
        table = _by_id(demo, elem_id)
        assert isinstance(table, gr.Dataframe) and table.visible is False, elem_id
