() => {
  // Attention: another layer, head or query is redrawn in the browser from the maps the figure brought with it
  // (layout.meta.tp, written by playground/ui/attention/render.py `browser_data`): no request to the server, as
  // bertviz switches heads. A view that did not bring its maps (too many tokens, or a view the server computes: the
  // step-by-step numbers, the comparison) asks the server once the slider rests: a hidden button runs the tab's view.
  const plotOf = () => document.querySelector('#attention-plot .js-plotly-plot');
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
  const clamp = (value, high) => Math.max(0, Math.min(high, Math.round(Number(value) || 0)));
  let resting = null;
  const askServer = () => {
    clearTimeout(resting);
    resting = setTimeout(() => {
      const button = document.getElementById('attention-redraw');
      if (button) button.click();
    }, 250);
  };

  // One head's lines in opacity bands: the same bands as playground/figures/attention.py `token_lines`.
  function bands(matrix, query, minWeight = 0.02, levels = 6) {
    const queries = query === null ? matrix.map((_, i) => i) : [query];
    const edges = [];
    for (const i of queries) matrix[i].forEach((w, j) => { if (w >= minWeight) edges.push([i, j, w]); });
    const top = edges.reduce((m, e) => Math.max(m, e[2]), -Infinity);
    const peak = edges.length ? top : 1.0;
    const out = [];
    for (let level = 0; level < levels; level++) {
      const low = (peak * level) / levels, high = (peak * (level + 1)) / levels;
      const x = [], y = [];
      for (const [i, j, w] of edges) {
        if ((low < w && w <= high) || (level === 0 && w <= high)) { x.push(0, 1, null); y.push(-i, -j, null); }
      }
      out.push({ x, y, width: 1 + (3 * (level + 1)) / levels, opacity: 0.15 + (0.85 * (level + 1)) / levels });
    }
    return out;
  }

  // The heads added from the legend of the figure on screen (a new figure from the server starts with none).
  function addedHeads(gd) {
    const tp = gd.layout.meta && gd.layout.meta.tp;
    if (!gd.tpAdded || gd.tpAdded.meta !== tp) gd.tpAdded = { meta: tp, heads: new Set() };
    return gd.tpAdded.heads;
  }

  // The token view: each head's traces keep their style; their lines, the heads shown and the query's colour change.
  // One Plotly.react: one redraw, where a restyle per property redrew the whole figure each time.
  function tokenTraces(gd, maps, head, query) {
    const added = addedHeads(gd); // heads a student added from the legend stay
    const n = maps[0].length;
    const colours = [...Array(n).keys()].map((i) => (query === i ? '#D55E00' : query === null ? 'black' : '#c7c7c7'));
    const lines = gd.data.filter((trace) => trace.mode === 'lines');
    const texts = gd.data.filter((trace) => trace.mode === 'text');
    const drawn = [];
    maps.forEach((matrix, h) => {
      const visible = h === head || added.has(`head${h}`) ? true : 'legendonly';
      bands(matrix, query).forEach((band, k) => {
        const old = lines[h * 6 + k];
        drawn.push({ ...old, x: band.x.length ? band.x : [null], y: band.y.length ? band.y : [null], visible });
      });
    });
    return [...drawn, { ...texts[0], textfont: { ...texts[0].textfont, color: colours } }, texts[1]];
  }

  async function draw(gd, tp, layer, head, query) {
    const maps = tp.maps;
    layer = clamp(layer, maps.length - 1);
    head = clamp(head, maps[0].length - 1);
    const title = { 'title.text': fill(tp.title, { layer, head }) };
    if (tp.view === 'head') return window.Plotly.update(gd, { z: [maps[layer][head]] }, title, [0]);
    if (tp.view === 'layer') return window.Plotly.update(gd, { z: maps[layer] }, title, maps[layer].map((_, h) => h));
    if (tp.view === 'mean') {
      const heads = maps[layer];
      const mean = heads[0].map((row, i) => row.map((_, j) => heads.reduce((s, m) => s + m[i][j], 0) / heads.length));
      return window.Plotly.update(gd, { z: [mean] }, title, [0]);
    }
    if (tp.view === 'tokens') {
      const layout = { ...gd.layout, title: { ...gd.layout.title, text: title['title.text'] } };
      return window.Plotly.react(gd, tokenTraces(gd, maps[layer], head, query), layout);
    }
    return null;
  }

  // Pointing at a token on the left of the token view isolates its lines; leaving it puts the slider's query back.
  function followHover(gd) {
    if (gd.tpHover) return;
    gd.tpHover = true;
    gd.on('plotly_legendclick', (event) => {
      const group = event.data[event.curveNumber].legendgroup;
      const added = addedHeads(gd);
      if (added.has(group)) added.delete(group);
      else added.add(group);
    });
    const state = () => {
      const tp = gd.layout.meta && gd.layout.meta.tp;
      return gd.tpState && gd.tpState.meta === tp ? gd.tpState : tp || {};  // a new figure: what the server drew
    };
    gd.on('plotly_hover', (event) => {
      const tp = gd.layout.meta && gd.layout.meta.tp;
      const point = event.points && event.points[0];
      if (!tp || tp.view !== 'tokens' || !point || point.data.mode !== 'text' || point.x !== 0) return;
      const { layer = 0, head = 0 } = state();
      draw(gd, tp, layer, head, point.pointIndex);
    });
    gd.on('plotly_unhover', () => {
      const tp = gd.layout.meta && gd.layout.meta.tp;
      if (!tp || tp.view !== 'tokens') return;
      const { layer = 0, head = 0, query = null } = state();
      draw(gd, tp, layer, head, query);
    });
  }
  new MutationObserver(() => {
    const gd = plotOf();
    if (gd && gd.on) followHover(gd);
  }).observe(document.body, { childList: true, subtree: true });

  window.tpAttention = {
    // (view, layer, head, query): the controls' values as the slider's `input` event hands them over
    redraw(view, layer, head, query) {
      const gd = plotOf();
      const tp = gd && gd.layout && gd.layout.meta && gd.layout.meta.tp;
      if (!tp || tp.view !== view || !window.Plotly) return askServer();
      const started = performance.now();
      gd.tpState = { meta: tp, layer, head, query: query < 0 ? null : query };
      return Promise.resolve(draw(gd, tp, layer, head, query < 0 ? null : query)).then(() => {
        // how long the redraw took, read by the browser test (bench/RESULTS.md): never asserted as a time
        document.documentElement.dataset.tpRedrawMs = String(performance.now() - started);
      });
    },
  };
}
