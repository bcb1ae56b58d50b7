"""Transformer Playground: one Gradio page, one tab per concept. `python app.py` serves it."""

import logging
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")  # the page talks to its own server only
from playground import settings  # noqa: E402  (reads no model library: safe before `spaces`)

if os.environ.get("SPACES_ZERO_GPU") and not settings.current().zero_gpu_emulate:
    import spaces  # noqa: F401  (ZeroGPU: before anything initialises CUDA; see playground/serve/gpu.py)

from pathlib import Path  # noqa: E402

import gradio as gr  # noqa: E402

from playground.ui.attention import tab as attention_tab  # noqa: E402
from playground.ui.classroom import render as class_render, routes as class_routes, tab as class_tab  # noqa: E402
from playground.ui.elmo import tab as elmo_tab  # noqa: E402
from playground.ui.fill_mask import tab as fill_mask_tab  # noqa: E402
from playground.ui.forward import tab as forward_tab  # noqa: E402
from playground.ui.inside import tab as inside_tab  # noqa: E402
from playground.ui.insight import tab as insight_tab  # noqa: E402
from playground.ui.lessons import tab as lessons_tab  # noqa: E402
from playground.ui.masking import tab as masking_tab  # noqa: E402
from playground.ui.mlm_lab import tab as mlm_lab_tab  # noqa: E402
from playground.ui.polysemy import tab as polysemy_tab  # noqa: E402
from playground.ui.sampling import tab as sampling_tab  # noqa: E402
from playground.ui.t5 import tab as t5_tab  # noqa: E402
from playground.serve import gpu  # noqa: E402
from playground.ui.server import api_lang, guard, mcp  # noqa: E402
from playground.ui.common.i18n import LANGS, Localizer, UIContext, t, toast_table  # noqa: E402
from playground.ui.common import code_panel  # noqa: E402
from playground.ui.common.lab_models import LabMenus  # noqa: E402
from playground.ui.common.lang_switch import LangSwitch  # noqa: E402
from playground.ui.common.links import Navigator  # noqa: E402
from playground.ui.common.status import build_status  # noqa: E402

# (tab id, title text key, builder): adding a demo is one line here.
TABS = [
    ("lessons", "lessons.tab", lambda ui: lessons_tab.build_tab(ui, [tab_id for tab_id, _, _ in TABS])),  # the landing page
    ("fill_mask", "fill_mask.tab", fill_mask_tab.build_tab),
    ("polysemy", "polysemy.tab", polysemy_tab.build_tab),
    ("elmo", "elmo.tab", elmo_tab.build_tab),
    ("masking", "masking.tab", masking_tab.build_tab),
    ("sampling", "sampling.tab", sampling_tab.build_tab),
    ("attention", "attention.tab", attention_tab.build_tab),
    ("forward", "forward.tab", forward_tab.build_tab),  # the whole Transformer, one forward pass
    ("t5", "t5.tab", t5_tab.build_tab),  # the encoder-decoder: text to text, one decoder step at a time
    ("inside", "inside.tab", inside_tab.build_tab),
    ("insight", "insight.tab", insight_tab.build_tab),  # look inside a prediction: lens, attribution, knock-out, patching
    ("mlm_lab", "mlm_lab.tab", mlm_lab_tab.build_tab),
    ("classroom", "class.tab", class_tab.build_tab),  # a live class: students answer on phones, the board reveals
]

# The language is the link's `lang`, else the browser's (Accept-Language), decided by the first event of the page
# (ui.common.links). A page that will turn Chinese stays hidden until it has (no English flash): assets/lang_first.html.
HEAD = (Path(__file__).parent / "assets" / "lang_first.html").read_text()
# The built-in theme with system fonts only: a Google-font theme would fetch from outside.
THEME = gr.themes.Default(font=["system-ui", "sans-serif"], font_mono=["ui-monospace", "monospace"])
CSS = (Path(__file__).parent / "assets" / "style.css").read_text() + class_render.CSS  # the class board's, as on /class/board
# Plots fitted in the browser to projector mode and to phones (Plotly re-lays them out; CSS alone would clip them).
PLOT_JS = (Path(__file__).parent / "assets" / "plot_fit.js").read_text()
# The open tab kept in sight in the tab row, which scrolls sideways on a phone.
TAB_ROW_JS = (Path(__file__).parent / "assets" / "tab_row.js").read_text()
# A share link's show=code opens the Code panel once the link has run.
SHOW_CODE_JS = (Path(__file__).parent / "assets" / "show_code.js").read_text()
# Attention's layer, head and query redrawn in the browser from the maps its figure brought (no request).
ATTENTION_JS = (Path(__file__).parent / "assets" / "attention_redraw.js").read_text()
# Sampling's next-token stages redrawn in the browser for another temperature, top-k or top-p (no request).
SAMPLING_JS = (Path(__file__).parent / "assets" / "sampling_redraw.js").read_text()
# Gradio's own toast texts (a full queue, the guard's refusals) in the page's language.
TOAST_JS = (Path(__file__).parent / "assets" / "toast_lang.js").read_text().replace("__TOAST_TABLE__", toast_table())
# Polysemy's layer and projection redrawn in the browser from every layer its cosine figure brought (no request).
POLYSEMY_JS = (Path(__file__).parent / "assets" / "polysemy_redraw.js").read_text()
# Gradio runs one function at page load: each script above is one, called in turn.
# A lesson's try-it scrolls its result into view once it shows; on a phone the chosen lesson's chip stays in view.
FOLLOW_JS = (Path(__file__).parent / "assets" / "follow_link.js").read_text()
CHIPS_JS = (Path(__file__).parent / "assets" / "lesson_chips.js").read_text()
PAGE_SCRIPTS = (PLOT_JS, TAB_ROW_JS, SHOW_CODE_JS, ATTENTION_JS, SAMPLING_JS, POLYSEMY_JS, TOAST_JS, FOLLOW_JS, CHIPS_JS)
PAGE_JS = "() => { " + " ".join(f"({js})();" for js in PAGE_SCRIPTS) + " }"
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
        build_status(loc, "en", lang)
        # The session's MLM lab token, made before the tabs: the fill-mask and attention menus offer its model.
        ui, shared, tab_items = UIContext(lang, loc, LabMenus.create()), {}, {}
        # "wrap": Gradio then keeps no overflow list (its "menu" mode moved tabs that did not fit into one, and that
        # list briefly kept a Chinese page's English tab names); assets/style.css keeps the tabs in one scrolling row.
        with gr.Tabs(overflow_behavior="wrap") as tabs:
            for tab_id, title, build in TABS:
                loc.tab = None  # tab titles are always in view: relabelled with the header
                with loc.add(gr.Tab(t(title), id=tab_id), label=title) as tab_items[tab_id]:
                    loc.tab = tab_id  # what the tab registers is relabelled when it is shown
                    shared[tab_id] = build(ui)
        loc.tab = None
        ui.lab.wire(ui)
        switch = LangSwitch(lang, loc, ui.redraws, TABS[0][0])
        switch.wire(tab_items)
        code_panel.register_api()  # /code: the script behind any view
        projector.change(None, projector, None, js=PROJECTOR_JS, api_visibility="private", queue=False)
        demo.load(None, None, projector, js=PROJECTOR_LOAD)
        # One event opens the page's link (language, tab, inputs, result); in-app links take the same path, in place.
        Navigator(tabs, shared, lang, switch, TABS[0][0]).wire(demo, ui.links)
    api_lang.check_lang(demo)  # every endpoint's `lang`: "en" or "zh", else refused in both
    demo.shared_links = shared  # tab id -> its shareable inputs (the link tests read the parameter names here)
    return demo


def launch(demo: gr.Blocks, **kwargs) -> None:
    port = int(os.environ.get("PORT") or os.environ.get("GRADIO_SERVER_PORT") or 7860)
    host = os.environ.get("GRADIO_SERVER_NAME", "127.0.0.1")
    # A bounded queue: past PLAYGROUND_QUEUE_SIZE waiting requests a new one is refused at once ("busy, try again")
    # instead of waiting minutes behind requests whose clients may be long gone.
    demo.queue(
        default_concurrency_limit=settings.current().concurrency,
        max_size=settings.current().queue_size,
    )
    gpu.install()  # spaces.GPU on a ZeroGPU Space (or its emulation), plain calls elsewhere
    gpu.preload()  # ZeroGPU: the lesson models now, not on the first student's click
    if mcp.enabled():  # PLAYGROUND_MCP=1: the API endpoints as MCP tools (JSON results, API names)
        mcp.install()
    # No "settings" footer link: its language menu would be a second switch that disagrees with ours.
    # Run history off unless PLAYGROUND_RUN_HISTORY=1: on a shared classroom PC it would keep every student's inputs
    # and results in the browser for the next one to read (docs/hosting.md).
    limits = guard.launch_limits()
    # The class's phone page, projector board and their JSON, beside Gradio's routes (playground/ui/classroom/routes.py)
    limits["app_kwargs"]["routes"] = class_routes.routes()
    demo.launch(
        server_name=host,
        server_port=port,
        theme=THEME,
        css=CSS,
        js=PAGE_JS,
        head=HEAD,
        footer_links=["api"],
        mcp_server=mcp.enabled(),
        run_history=settings.current().run_history,
        **{**limits, **kwargs},
    )


if __name__ == "__main__":
    # One line per refused request (see ui.common.refuse); faults of ours still print their traceback.
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not one line per internal request
    gpu.install_bundles_on_space()  # a Space installs requirements.txt only: the bundled weights come --no-deps
    launch(build_app())
