"""A session's MLM lab model in the fill-mask and attention tabs: only for that session, never in a shared cache."""

import json
from dataclasses import replace

import gradio as gr
import numpy as np
import pytest

from playground import attention as att
from playground.errors import InputError
from playground.runtime import Runtime
from playground.fill_mask import FillMaskRequest, run_fill_mask
from playground.mlm_lab.lab import LabRequest
from playground.mlm_lab import sessions
from playground.mlm_lab.lab import run_mlm_lab
from playground.mlm_lab.runner import Runner, drop_session, wait_for
from playground.mlm_lab.sessions import LabModel
from playground.mlm_lab.training import LabSettings
from playground.models import LoadedModel
from playground.registry import LAB_MODEL_KEY, build_registry, get_spec
from playground.ui.attention import tab as attention_tab
from playground.ui.fill_mask import tab as fill_mask_tab
from playground.ui.common.i18n import Localizer, UIContext
from playground.ui.common.lab_models import LabMenus, menu_choices, session_for
from playground.serve.runtime import APP
from playground.ui.common.widgets import label_in, model_id_in
from playground.ui.common.share import decode
from tests.tiny_models import CORPUS

TEXT = "the cat sat on the [MASK] ."


@pytest.fixture
def lab_model(tiny_mlm) -> LoadedModel:
    """A tiny masked LM standing in for a fine-tuned one, under the reserved key (as `run_lab_training` names it)."""
    spec = replace(tiny_mlm.spec, key=LAB_MODEL_KEY, hf_id="tiny/tiny-bert + your MLM lab fine-tune (4 steps)")
    return LoadedModel(spec, tiny_mlm.model, tiny_mlm.tokenizer, tiny_mlm.device)


@pytest.fixture
def keep(lab_model):
    """Put `lab_model` in the app runtime's store for a session token, as the runner does after a training."""
    tokens = []

    def put(token: str) -> None:
        tokens.append(token)
        sessions.keep(APP, token, LabModel(lab_model, "bert", "BERT base (uncased)", 4))

    yield put
    for token in tokens:
        drop_session(APP, token)


def session_models(token):
    return sessions.session_models(APP, token)


def test_fill_mask_runs_a_session_model_and_never_caches_it(tiny_mlm, lab_model):
    calls = []

    def load(key):
        calls.append(key)
        return tiny_mlm

    request, runtime = FillMaskRequest(TEXT, ("bert", LAB_MODEL_KEY), 3), Runtime(load=load)
    run = run_fill_mask(request, runtime.with_session({LAB_MODEL_KEY: lab_model}))
    registry_fill, session_fill = run.fills
    assert run.request.models == ("bert", LAB_MODEL_KEY) and calls == ["bert"]  # the session model is never loaded
    assert session_fill.model_key == LAB_MODEL_KEY and "your MLM lab fine-tune" in session_fill.model_id
    assert [p.word for p in session_fill.readings[0].predictions[0]] == [p.word for p in registry_fill.readings[0].predictions[0]]
    results = runtime.caches["fill_mask"]
    assert all(key[0] == "bert" for key in results.keys())  # only the registry model's reading is shared
    run_fill_mask(FillMaskRequest(TEXT, (LAB_MODEL_KEY,), 3), runtime.with_session({LAB_MODEL_KEY: lab_model}))
    assert len(results) == 1 and calls == ["bert"]


def test_a_session_key_without_its_session_is_an_unknown_model(tiny_mlm, lab_model):
    def load(key):  # as models.load: the allow-list first
        get_spec(key)
        return tiny_mlm

    app = Runtime(load=load)
    for session in (None, {}, {"someone-elses-key": lab_model}):
        with pytest.raises(InputError) as err:
            run_fill_mask(FillMaskRequest(TEXT, (LAB_MODEL_KEY,), 3), app.with_session(session or {}))
        assert err.value.code == "unknown_model"
        with pytest.raises(ValueError, match="Unknown model"):
            att.run_attention(att.AttentionRequest(LAB_MODEL_KEY, "the cat sat"), app.with_session(session or {}))
    assert len(app.cache("fill_mask", 1)) == 0 and len(att.cache(app, "maps")) == 0


def test_the_reserved_key_can_never_be_a_registry_key(tmp_path):
    extra = tmp_path / "extra.toml"
    extra.write_text(f'[[models]]\nkey = "{LAB_MODEL_KEY}"\nhf_id = "x/y"\nkind = "masked"\nfamily = "BERT"\nlabel = "x"\n')
    with pytest.raises(ValueError, match="reserved"):
        build_registry(str(extra))
    assert LAB_MODEL_KEY not in build_registry()


def test_attention_shows_a_session_model_without_caching_its_maps_or_captures(tiny_mlm, lab_model):
    app = Runtime(load=lambda key: tiny_mlm)
    runtime = app.with_session({LAB_MODEL_KEY: lab_model})
    run = att.attention_json(att.run_attention(att.AttentionRequest(LAB_MODEL_KEY, "the cat sat"), runtime))
    assert run.model == LAB_MODEL_KEY and "fine-tune" in run.model_id
    np.testing.assert_allclose(np.array(run.matrix).sum(-1), 1.0, atol=1e-3)
    for view in ("step", "compare", "head"):
        request = att.AttentionRequest(LAB_MODEL_KEY, "the cat sat", view=view, other="bert", fit=True)
        shown = att.run_attention(request, runtime)
        assert shown.model == LAB_MODEL_KEY and shown.view == view
    assert len(att.cache(app, "captures")) == 0  # the step view's capture of the session model was not kept
    (kept,) = att.cache(app, "maps").keys()  # the comparison's registry model only (cached under the loaded spec's key)
    assert kept[0] == tiny_mlm.spec.key != LAB_MODEL_KEY


def test_a_training_keeps_the_model_under_the_reserved_key_for_its_session_only(tiny_mlm):
    text = "\n".join(line for line in CORPUS if line.isascii()) * 3
    runtime = Runtime(load=lambda key, **kw: tiny_mlm)
    runner = Runner(runtime, train=lambda request, progress: run_mlm_lab(request, runtime, progress, ranks={}))
    job = runner.submit(LabRequest(text, LabSettings(base="bert", max_steps=3, max_seconds=60, learning_rate=1e-3)), "tok-a")
    try:
        wait_for(job, timeout=120)
        assert job.error is None
        ((key, lm),) = sessions.session_models(runtime, "tok-a").items()
        assert key == LAB_MODEL_KEY == lm.spec.key and lm.model is not tiny_mlm.model
        assert lm.spec.hf_id.endswith("your MLM lab fine-tune (3 steps)") and "3 steps" in lm.spec.label
        assert "your" not in model_id_in(lm.spec.hf_id, "zh") + label_in(lm.spec.label, "zh")  # said in Chinese too
        assert sessions.session_runtime(runtime, "tok-a").model(LAB_MODEL_KEY) is lm  # through the Runtime
        for other in ("tok-b", None, ""):
            assert sessions.session_models(runtime, other) == {}
    finally:
        drop_session(runtime, "tok-a")
    assert sessions.session_models(runtime, "tok-a") == {}


def test_menus_offer_the_model_to_its_session_only_in_both_languages(keep):
    keep("tok-a")
    kinds = fill_mask_tab.KINDS
    mine = dict((v, k) for k, v in menu_choices(kinds, "en", "tok-a"))
    assert mine[LAB_MODEL_KEY] == "Your lab model (BERT base (uncased), 4 steps)"
    assert (
        dict((v, k) for k, v in menu_choices(kinds, "zh", "tok-a"))[LAB_MODEL_KEY]
        == "你的实验室模型（BERT base (uncased)，4 步）"
    )
    for other in ("tok-b", None):
        assert LAB_MODEL_KEY not in [v for _, v in menu_choices(kinds, "en", other)]
    assert LAB_MODEL_KEY not in [v for _, v in menu_choices(("causal",), "en", "tok-a")]  # a masked LM, not a causal one


def test_a_run_on_a_dropped_model_says_to_train_again_and_the_api_says_unknown(keep, tiny_mlm):
    keep("tok-a")
    assert session_for("tok-a", [LAB_MODEL_KEY], "en") == session_models("tok-a")
    assert session_for("tok-b", ["bert"], "en") == {}  # not asked for: nothing to find
    for token in ("tok-b", "dropped"):
        with pytest.raises(gr.Error, match="no longer in memory"):
            session_for(token, [LAB_MODEL_KEY, "bert"], "en")
    with pytest.raises(gr.Error, match="不在内存中"):
        session_for("tok-b", [LAB_MODEL_KEY], "zh")
    with pytest.raises(gr.Error, match="Unknown model"):
        fill_mask_tab.fill(TEXT, [LAB_MODEL_KEY], 3, "en")  # the API: no session, so the allow-list refuses it
    with pytest.raises(gr.Error, match="no longer in memory"):
        fill_mask_tab.fill(TEXT, ["minilm-mlm", LAB_MODEL_KEY], 3, "en", token="tok-b")


def test_refresh_adds_the_choice_and_drops_a_gone_one(keep):
    menus = LabMenus(token=None)
    menus.menu("fill", fill_mask_tab.KINDS)
    menus.menu("attention", attention_tab.KINDS, "minilm")
    keep("tok-a")
    fill_update, att_update = menus.refresh("tok-a", "en", ["minilm-mlm", LAB_MODEL_KEY], LAB_MODEL_KEY)
    assert LAB_MODEL_KEY in [v for _, v in fill_update["choices"]] and fill_update["value"] == ["minilm-mlm", LAB_MODEL_KEY]
    assert att_update["value"] == LAB_MODEL_KEY
    drop_session(APP, "tok-a")  # the session ended (or the cache needed room)
    fill_update, att_update = menus.refresh("tok-a", "zh", ["minilm-mlm", LAB_MODEL_KEY], LAB_MODEL_KEY)
    assert LAB_MODEL_KEY not in [v for _, v in fill_update["choices"]] and fill_update["value"] == ["minilm-mlm"]
    assert att_update["value"] == "minilm"


def test_a_link_naming_the_lab_model_is_dropped_by_every_menu():
    with gr.Blocks():
        lang = gr.Radio(["en", "zh"], value="en")
        ui = UIContext(lang, Localizer(), LabMenus.create())
        shared = {"fill_mask": fill_mask_tab.build_tab(ui), "attention": attention_tab.build_tab(ui)}
    menus = [c for c, _, _ in ui.lab.menus]
    assert menus == [
        shared["fill_mask"].params["models"],
        shared["attention"].params["model"],
        shared["attention"].params["other"],
    ]
    with pytest.raises(ValueError):
        decode(json.dumps([LAB_MODEL_KEY]), shared["fill_mask"].params["models"])
    for name in ("model", "other"):
        with pytest.raises(ValueError):
            decode(LAB_MODEL_KEY, shared["attention"].params[name])


def test_after_a_restart_a_page_with_the_lab_model_ticked_is_told_to_train_again():
    """The page still sends the lab key; the new server session has only the build-time choices. Through Gradio's
    own input processing, the answer must be the app's "train it again", not "not in the list of choices"."""
    import asyncio

    with gr.Blocks() as demo:
        lab = LabMenus.create()
        menu = lab.menu(gr.CheckboxGroup([("MiniLM", "minilm-mlm"), ("BERT", "bert")], value=["bert"]), ("masked",))
        out = gr.Textbox()
        button = gr.Button()
        button.click(lambda keys, token: str(session_for(token, keys, "en")), [menu, lab.token], out)
    (fn,) = [f for f in demo.fns.values() if f.inputs and f.inputs[0] is menu]
    with pytest.raises(gr.Error, match="no longer in memory") as caught:
        asyncio.run(demo.process_api(fn, [["minilm-mlm", LAB_MODEL_KEY], None], state=None))
    assert "list of choices" not in caught.value.message
    with pytest.raises(gr.Error, match="list of choices"):  # any other value is still checked by Gradio
        asyncio.run(demo.process_api(fn, [["not-a-choice"], None], state=None))
    assert menu.preprocess(["bert", LAB_MODEL_KEY, "minilm-mlm"]) == ["bert", LAB_MODEL_KEY, "minilm-mlm"]


def test_the_lab_compare_runs_the_fill_mask_entry_on_the_base_and_the_session_model(tiny_mlm, lab_model):
    import copy

    import torch

    from playground.mlm_lab.compare import compare_models

    tuned = copy.deepcopy(lab_model.model)
    with torch.no_grad():
        tuned.get_output_embeddings().bias[7] += 5.0  # the fine-tune now prefers token 7
    mine = LoadedModel(lab_model.spec, tuned, lab_model.tokenizer, "cpu")
    runtime = Runtime(load=lambda key, **kw: tiny_mlm)
    compared = compare_models(LabModel(mine, "bert", "BERT", 4), TEXT, runtime)
    base = run_fill_mask(FillMaskRequest(TEXT, ("bert",), 5), runtime).fills[0].readings[0].predictions[0]
    after = run_fill_mask(FillMaskRequest(TEXT, (LAB_MODEL_KEY,), 5), runtime.with_session({LAB_MODEL_KEY: mine}))
    assert [(r.mask, r.rank) for r in compared.rows] == [(1, k) for k in range(1, 6)]
    assert [(r.before, r.before_p) for r in compared.rows] == [(p.word, p.probability) for p in base]
    after_top = after.fills[0].readings[0].predictions[0]
    assert [(r.after, r.after_p) for r in compared.rows] == [(p.word, p.probability) for p in after_top]
    assert compared.rows[0].after == tiny_mlm.tokenizer.convert_ids_to_tokens(7) != compared.rows[0].before
    assert "fine-tune" in compared.tuned_model and all(key[0] == "bert" for key in runtime.caches["fill_mask"].keys())
