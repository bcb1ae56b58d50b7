"""Every tab's hint, proven on the built app's config instead of in a browser per tab.

The browser checks the hint once (tests/e2e/test_hints.py, the fill-mask tab): that a hidden box is not drawn and a
hint is. What is per tab is structure, and the page config says it: each demo tab (and each ELMo view) has a hint, every
result box (plot, table, file, image, JSON) starts inside something hidden, and a hint is hidden again only by a
reveal that runs on a run's success.
"""

import pytest

RESULT_BOXES = {"plot", "dataframe", "file", "image", "json"}


@pytest.fixture(scope="module")
def page(built_app):
    import app

    cfg = built_app.config
    comps = {c["id"]: c for c in cfg["components"]}
    parent: dict[int, int | None] = {}

    def walk(node, up=None):
        parent[node["id"]] = up
        for child in node.get("children", []):
            walk(child, node["id"])

    walk(cfg["layout"])

    def ancestors(i):
        while i is not None:
            yield i
            i = parent.get(i)

    def tab_of(i, ids):
        for a in ancestors(i):
            props = comps.get(a, {}).get("props", {})
            if comps.get(a, {}).get("type") == "tabitem" and props.get("id") in ids:
                return props["id"]
        return None

    return app, cfg, comps, ancestors, tab_of


def _hints(comps):
    return {i for i, c in comps.items() if "tp-hint" in (c["props"].get("elem_classes") or [])}


def test_every_demo_tab_and_every_elmo_view_has_a_hint(page):
    app, _, comps, _, tab_of = page
    demos = [tab_id for tab_id, _, _ in app.TABS if tab_id != "lessons"]
    hints = _hints(comps)
    assert {tab_of(h, demos) for h in hints} == set(demos)
    elmo_views = {tab_of(h, ["elmo-mix", "elmo-bilm", "elmo-oov"]) for h in hints}
    assert {"elmo-mix", "elmo-bilm", "elmo-oov"} <= elmo_views
    # Inside BERT: one hint per view (embeddings, params, nsp, heads)
    assert sum(tab_of(h, ["inside"]) == "inside" for h in hints) >= 4


def test_no_result_box_is_drawn_before_a_run(page):
    app, _, comps, ancestors, tab_of = page
    demos = [tab_id for tab_id, _, _ in app.TABS if tab_id != "lessons"]
    shown = [
        (tab_of(i, demos), c["type"], c["props"].get("elem_id") or c["props"].get("label"))
        for i, c in comps.items()
        if c["type"] in RESULT_BOXES
        and tab_of(i, demos)
        and not any(comps.get(a, {}).get("props", {}).get("visible") is False for a in ancestors(i))
    ]
    assert not shown, f"result boxes visible before a run: {shown}"


def test_each_hint_is_hidden_by_a_run_that_shows_its_tab_result(page):
    app, cfg, comps, ancestors, tab_of = page
    demos = [tab_id for tab_id, _, _ in app.TABS if tab_id != "lessons"]
    hints = _hints(comps)
    (lang,) = [i for i, c in comps.items() if "tp-lang" in (c["props"].get("elem_classes") or [])]
    # Writers of a hint that are not the language switch (which relabels it) hide it: a run's reveal chained with
    # `.success` (reveal_after, tests/unit/core/test_result_hint.py), or the run itself (an error applies no output).
    hiding = [d for d in cfg["dependencies"] if set(d["outputs"]) & hints and [lang, "change"] not in map(list, d["targets"])]
    assert {h for d in hiding for h in d["outputs"] if h in hints} == hints
    assert all(d["trigger_only_on_success"] for d in hiding if d["backend_fn"] and not d["inputs"])  # the reveals
    revealed = {o for d in hiding for o in d["outputs"]} - hints
    for tab in demos:
        boxes = [i for i, c in comps.items() if c["type"] in RESULT_BOXES and tab_of(i, [tab]) == tab]
        assert any(a in revealed for i in boxes for a in ancestors(i)), f"{tab}: no result box shown by a run"


CONTROLS = {"button", "number", "slider", "textbox", "radio", "dropdown", "checkbox", "checkboxgroup", "uploadbutton"}


def test_no_section_heading_heads_nothing_before_a_run(page):
    """A Markdown heading whose section holds only results (no control of its own) starts hidden with them: the
    sampling tab showed "Next token: …" and "Generated text …" over nothing before a run."""
    app, cfg, comps, ancestors, tab_of = page
    demos = [tab_id for tab_id, _, _ in app.TABS if tab_id != "lessons"]
    nodes = {}

    def walk(node):
        nodes[node["id"]] = node
        for child in node.get("children", []):
            walk(child)

    walk(cfg["layout"])

    def hidden(i):
        return any(comps.get(a, {}).get("props", {}).get("visible") is False for a in ancestors(i))

    def has_control(node):
        c = comps.get(node["id"], {})
        visible = c.get("props", {}).get("visible") is not False
        return visible and (c.get("type") in CONTROLS or any(has_control(n) for n in node.get("children", [])))

    def heading(i):
        c = comps.get(i, {})
        return c.get("type") == "markdown" and str(c["props"].get("value") or "").lstrip().startswith("#")

    empty = []
    for node in nodes.values():
        children = node.get("children", [])
        for k, child in enumerate(children):
            i = child["id"]
            if not heading(i) or hidden(i) or not tab_of(i, demos):
                continue
            section = []
            for later in children[k + 1 :]:
                if heading(later["id"]):
                    break
                section.append(later)
            if not any(has_control(n) for n in section):
                empty.append((tab_of(i, demos), comps[i]["props"]["value"][:50]))
    assert not empty, f"headings over nothing but results, visible before a run: {empty}"
