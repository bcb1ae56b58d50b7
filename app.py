"""Transformer Playground: one Gradio page, one tab per concept. `python app.py` serves it."""

import logging
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")  # the page talks to its own server only

from pathlib import Path  # noqa: E402

import gradio as gr  # noqa: E402

from playground.ui import (  # noqa: E402
    attention_tab,
    elmo_tab,
    fill_mask_tab,
    inside_tab,
    lessons_tab,
    masking_tab,
    mlm_lab_tab,
    polysemy_tab,
    sampling_tab,
)
from playground.ui.i18n import LANGS, Localizer, UIContext, t  # noqa: E402
from playground.ui.lab_models import LabMenus  # noqa: E402
from playground.ui.share import restore_from_url  # noqa: E402
from playground.ui.status import build_status  # noqa: E402

# (tab id, title text key, builder): adding a demo is one line here.
TABS = [
    ("lessons", "lessons.tab", lambda ui: lessons_tab.build_tab(ui, [tab_id for tab_id, _, _ in TABS])),  # the landing page
    ("fill_mask", "fill_mask.tab", fill_mask_tab.build_tab),
    ("polysemy", "polysemy.tab", polysemy_tab.build_tab),
    ("elmo", "elmo.tab", elmo_tab.build_tab),
    ("masking", "masking.tab", masking_tab.build_tab),
    ("sampling", "sampling.tab", sampling_tab.build_tab),
    ("attention", "attention.tab", attention_tab.build_tab),
    ("inside", "inside.tab", inside_tab.build_tab),
    ("mlm_lab", "mlm_lab.tab", mlm_lab_tab.build_tab),
]

# Follow the browser's language on first load (the switch overrides it).
DETECT_LANG = "() => ((navigator.language || 'en').toLowerCase().startsWith('zh') ? 'zh' : 'en')"
# The built-in theme with system fonts only: a Google-font theme would fetch from outside.
THEME = gr.themes.Default(font=["system-ui", "sans-serif"], font_mono=["ui-monospace", "monospace"])
CSS = (Path(__file__).parent / "assets" / "style.css").read_text()
# Plots fitted in the browser to projector mode and to phones (Plotly re-lays them out; CSS alone would clip them).
PLOT_JS = (Path(__file__).parent / "assets" / "plot_fit.js").read_text()
# Projector mode is a class on <body> (assets/style.css raises the sizes); remembered in the browser across links.
PROJECTOR_JS = (
    "(on) => { document.body.classList.toggle('tp-projector', !!on); localStorage.setItem('tp-projector', on ? '1' : '0'); }"
)
PROJECTOR_LOAD = (
    "() => { const on = localStorage.getItem('tp-projector') === '1';"
    " document.body.classList.toggle('tp-projector', on); return on; }"
)


def build_app() -> gr.Blocks:
    loc = Localizer()
    # delete_cache: Gradio copies every served file into its cache; drop copies older than 30 min every 10 min.
    with gr.Blocks(title=t("app.title"), delete_cache=(600, 1800)) as demo:
        with gr.Row(elem_classes="tp-header"):
            loc.add(
                gr.Markdown(f"# {t('app.title')}\n{t('app.subtitle')}"),
                value=lambda lang: f"# {t('app.title', lang)}\n{t('app.subtitle', lang)}",
            )
            with gr.Column(scale=0, min_width=220, elem_classes="tp-header-controls"):
                lang = gr.Radio(
                    [(name, code) for code, name in LANGS.items()],
                    value="en",
                    label=t("app.language"),
                    elem_classes="tp-lang",
                )
                projector = loc.add(
                    gr.Checkbox(False, label=t("app.projector"), elem_id="tp-projector", container=False),
                    label="app.projector",
                )
        build_status(loc, "en")
        # The session's MLM lab token, made before the tabs: the fill-mask and attention menus offer its model.
        ui, shared = UIContext(lang, loc, LabMenus.create()), {}
        with gr.Tabs() as tabs:
            for tab_id, title, build in TABS:
                with loc.add(gr.Tab(t(title), id=tab_id), label=title):
                    shared[tab_id] = build(ui)
        ui.lab.wire(lang)
        lang.change(loc.updates, lang, loc.components(), api_visibility="private", queue=False)
        demo.load(None, None, lang, js=DETECT_LANG)
        projector.change(None, projector, None, js=PROJECTOR_JS, api_visibility="private", queue=False)
        demo.load(None, None, projector, js=PROJECTOR_LOAD)
        restore_from_url(demo, tabs, shared, lang)
    demo.shared_links = shared  # tab id -> its shareable inputs (the link tests read the parameter names here)
    return demo


def launch(demo: gr.Blocks, **kwargs) -> None:
    port = int(os.environ.get("PORT") or os.environ.get("GRADIO_SERVER_PORT") or 7860)
    host = os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1")
    # A bounded queue: past PLAYGROUND_QUEUE_SIZE waiting requests a new one is refused at once ("busy, try again")
    # instead of waiting minutes behind requests whose clients may be long gone.
    demo.queue(
        default_concurrency_limit=int(os.environ.get("PLAYGROUND_CONCURRENCY", "2")),
        max_size=int(os.environ.get("PLAYGROUND_QUEUE_SIZE", "64")),
    )
    # No "settings" footer link: its language menu would be a second switch that disagrees with ours.
    demo.launch(server_name=host, server_port=port, theme=THEME, css=CSS, js=PLOT_JS, footer_links=["api"], **kwargs)


if __name__ == "__main__":
    # One line per refused request (see ui.common.refuse); faults of ours still print their traceback.
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not one line per internal request
    launch(build_app())
