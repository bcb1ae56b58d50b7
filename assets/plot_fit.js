() => {
  // Fits every Plotly plot on the page to the classroom: projector mode and phones.
  //
  // Plotly measures its text once, when it lays a figure out. Enlarging plot text by CSS leaves the margins, legend
  // rows and tick spacing of the small text (labels clip and overlap), and the server cannot know the width a figure
  // will get. So the page asks Plotly itself to re-lay out each visible plot:
  //  - projector mode (class tp-projector on <body>): fonts of at least 16 px (titles 22 px);
  //  - every plot, at any width: the title and the notes above the plot wrap at word (or CJK character) boundaries to
  //    the width they have, long legend entries wrap, the axes get automargin and the top margin is measured to hold
  //    the title and what sits above the plot, so the margins grow to fit instead of text leaving the plot;
  //  - a narrow plot (a phone): crowded category labels stand upright, a legend beside the plot moves below it,
  //    side-by-side subplots and diagrams keep a minimum width and scroll in their box.
  // Switching back restores the figure's own values. Gradio exposes the Plotly it bundles as window.Plotly once a plot
  // has been drawn, and replaces a plot's layout object whenever it draws a new figure: the layout object is the key.
  const MIN = 16; // projector: ticks, axis titles, legend, bar labels, annotations, colour bars (px)
  const TITLE = 22; // projector: figure titles (px)
  const NARROW = 600; // plot width (px) under which titles and legends are re-flowed
  const fitted = new WeakMap(); // a plot's layout object -> {mode, undo}
  const projector = () => document.body.classList.contains('tp-projector');
  const big = (value, min) => (Array.isArray(value) ? value.map((v) => big(v, min)) : Math.max(min, Number(value) || 0));
  const read = (obj, path) => path.split(/[.[\]]+/).filter(Boolean).reduce((o, k) => (o == null ? undefined : o[k]), obj);
  const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/;

  // The width of a line of text in px at font `size`, estimated per character (tags do not count).
  const measure = (s, size) =>
    [...String(s).replace(/<[^>]*>/g, '')].reduce((sum, c) => sum + (CJK.test(c) ? 1.0 : /[A-Z0-9mwMW@]/.test(c) ? 0.68 : 0.52) * size, 0);

  // Text wrapped with <br> so that no line is wider than `width` px at font `size`.
  function wrap(text, width, size) {
    if (typeof text !== 'string' || !text || /<(?!br|\/?b>|\/?i>|\/?sub>|\/?sup>)[^>]* [^>]*>/i.test(text)) return text;
    const measureLine = (s) => measure(s, size);
    const lines = [];
    for (const line of text.split(/<br\s*\/?>/i)) {
      if (measureLine(line) <= width) {
        lines.push(line);
        continue;
      }
      // pieces: a tag, a CJK character (with the punctuation after it), a word (up to a space, or after / or -)
      const pieces = line.match(/<[^>]*>|[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef][，。、：；）」]?|[^\s<\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef/-]+[/-]?\s*|[/-]\s*|\s+/g) || [line];
      // an opening bracket stays with what follows it: no line ends in "（" ("微调（" / "3 步）")
      for (let i = pieces.length - 2; i >= 0; i--) if (/^[（「《]$/.test(pieces[i])) pieces.splice(i, 2, pieces[i] + pieces[i + 1]);
      let current = '';
      for (const piece of pieces) {
        if (current.trim() && measureLine(current + piece.trimEnd()) > width) {
          lines.push(current.trimEnd());
          current = piece.trimStart();
        } else current += piece;
      }
      if (current.trim()) lines.push(current.trimEnd());
    }
    return lines.join('<br>');
  }

  // Gradio draws the plot's label (when shown) over the figure's top-left corner: a title at the top starts under it.
  function labelClear(gd) {
    const block = gd.closest('.block');
    const label = block && block.querySelector('[data-testid="block-label"]');
    const svg = gd.querySelector('.main-svg');
    if (!label || label.offsetParent === null || !svg) return 6;
    return Math.max(6, Math.ceil(label.getBoundingClientRect().bottom - svg.getBoundingClientRect().top + 4));
  }

  // Plotly's mode bar sits over the figure's top edge; what starts at the top must clear its bottom.
  function modebarClear(gd) {
    const bar = gd.querySelector('.modebar');
    const svg = gd.querySelector('.main-svg');
    if (!bar || !svg) return 0;
    return Math.max(0, Math.ceil(bar.getBoundingClientRect().bottom - svg.getBoundingClientRect().top + 4));
  }

  function plan(gd, mode) {
    const full = gd._fullLayout;
    const size = full._size;
    const width = full.width;
    const layout = {};
    const traces = {};
    const fontOf = (font, min) => (mode.big ? big(font && font.size, min) : (font && font.size) || full.font.size);
    const set = (path, value) => (layout[path] = value);
    if (mode.big) set('font.size', big(full.font && full.font.size, MIN));
    const text = (path) => {
      const value = read(gd.layout, path);
      return typeof value === 'string' ? value : '';
    };
    if (text('title.text')) {
      const titleSize = fontOf(full.title.font, TITLE);
      if (mode.big) set('title.font.size', titleSize);
      set('title.text', wrap(text('title.text'), width - 24, titleSize));
      // at the top of the figure; apply() then makes the top margin hold it and the notes above the plot
      set('title.yref', 'container');
      set('title.y', 1);
      set('title.yanchor', 'top');
      // on a phone the mode bar spans most of the plot's width: the title starts under it, not behind it
      set('title.pad.t', mode.narrow ? Math.max(labelClear(gd), modebarClear(gd)) : labelClear(gd));
    }
    for (const key of Object.keys(full).filter((k) => /^[xy]axis\d*$/.test(k))) {
      const axis = full[key];
      if (!axis || axis.visible === false) continue;
      if (mode.big) {
        set(`${key}.tickfont.size`, big(axis.tickfont && axis.tickfont.size, MIN));
        if (text(`${key}.title.text`)) set(`${key}.title.font.size`, big(axis.title.font && axis.title.font.size, MIN));
      }
      if (text(`${key}.title.text`) && key.startsWith('x')) {
        const span = (axis.domain[1] - axis.domain[0]) * size.w;
        set(`${key}.title.text`, wrap(text(`${key}.title.text`), Math.max(span, 60), fontOf(axis.title.font, MIN)));
      }
      set(`${key}.automargin`, true);
      // Category labels on a narrow x axis: wrapped to their slot when that fits, else upright (-90°) and wrapped,
      // so that neighbours never overlap and the last label never leaves the plot.
      const categories = axis._categories || [];
      if (mode.narrow && key.startsWith('x') && axis.type === 'category' && categories.length && axis.showticklabels !== false) {
        const tickSize = fontOf(axis.tickfont, MIN);
        const slot = ((axis.domain[1] - axis.domain[0]) * size.w) / categories.length;
        const widest = Math.max(...categories.map((c) => measure(c, tickSize)));
        if (widest > slot - 6) {
          const fits = categories.map((c) => wrap(String(c), slot - 6, tickSize));
          const upright = fits.some((c) => c.split('<br>').some((line) => measure(line, tickSize) > slot - 6));
          // upright labels closer than ~1.3 lines of text touch (attention's 16 keys on a phone): every k-th is
          // labelled, the rest keep their column (the hover names it; a position-numbered label says which it is)
          const every = upright ? Math.max(1, Math.ceil((1.3 * tickSize) / slot)) : 1;
          const kept = categories.map((c, i) => i).filter((i) => i % every === 0);
          set(`${key}.tickmode`, 'array');
          set(`${key}.tickvals`, kept.map((i) => categories[i]));
          const twoLines = slot * every > 2.4 * tickSize; // an upright label wraps into columns: only where two fit
          const upText = (c) => (twoLines ? wrap(String(c), 120, tickSize) : String(c));
          set(`${key}.ticktext`, kept.map((i) => (upright ? upText(categories[i]) : fits[i])));
          set(`${key}.tickangle`, upright ? -90 : 0);
        }
      }
    }
    if (full.showlegend && full.legend) {
      if (mode.big) {
        set('legend.font.size', big(full.legend.font && full.legend.font.size, MIN));
        if (text('legend.title.text')) set('legend.title.font.size', big(full.legend.title.font.size, MIN));
      }
      const legendSize = fontOf(full.legend.font, MIN);
      // a legend entry as wide as the plot at most (room for the symbol); a vertical legend beside a narrow plot moves below
      traces.name = gd._fullData.map((t) => {
        const name = gd.data[t.index].name;
        return t.showlegend === false || typeof name !== 'string' ? name : wrap(name, width - 80, legendSize);
      });
      // A legend below the plot sits at a fixed fraction under the plot area, whatever room the tick labels now take:
      // anchored to the bottom of the figure instead, Plotly adds its height to theirs. On a phone a legend beside
      // the plot moves there too.
      const below = full.legend.orientation === 'h' && full.legend.y <= 0;
      if (below || (mode.narrow && full.legend.x >= 1)) {
        set('legend.orientation', 'h');
        set('legend.x', 0);
        set('legend.xanchor', 'left');
        set('legend.yref', 'container');
        set('legend.y', 0);
        set('legend.yanchor', 'bottom');
      }
    }
    (full.annotations || []).forEach((a, i) => {
      const annSize = fontOf(a.font, MIN);
      if (mode.big) set(`annotations[${i}].font.size`, annSize);
      const own = text(`annotations[${i}].text`);
      if (!own) return;
      if (diagram(full)) return;
      if (a.showarrow || a.xref !== 'paper') {
        // a note pointing at a point: half the plot's width at most
        if (mode.narrow) set(`annotations[${i}].text`, wrap(own, Math.max(size.w / 2, 80), annSize));
        return;
      }
      // room: the subplot whose domain holds the note, else the space to the nearer edge of the figure
      const px = size.l + a.x * size.w;
      const axis = Object.keys(full)
        .filter((k) => /^xaxis\d*$/.test(k) && full[k].domain && full[k].domain[0] <= a.x + 1e-6 && a.x <= full[k].domain[1] + 1e-6)
        .map((k) => full[k])[0];
      let room = a.xanchor === 'left' ? width - px : a.xanchor === 'right' ? px : 2 * Math.min(px, width - px);
      if (axis && a.xanchor !== 'left' && a.xanchor !== 'right') room = Math.min(room, (axis.domain[1] - axis.domain[0]) * size.w);
      set(`annotations[${i}].text`, wrap(own, Math.max(room - 8, 60), annSize));
    });
    if (mode.big) {
      for (const key of Object.keys(full).filter((k) => /^coloraxis\d*$/.test(k))) {
        if (full[key].colorbar) set(`${key}.colorbar.tickfont.size`, big(full[key].colorbar.tickfont.size, MIN));
      }
      traces['textfont.size'] = gd._fullData.map((t) => big(t.textfont && t.textfont.size, MIN));
      if (gd._fullData.some((t) => t.colorbar && t.showscale !== false)) {
        traces['colorbar.tickfont.size'] = gd._fullData.map((t) => big(t.colorbar && t.colorbar.tickfont && t.colorbar.tickfont.size, MIN));
      }
    }
    return { layout, traces };
  }

  // Side-by-side subplots on a phone would each get a sliver: the plot keeps COLUMN px per column and its box scrolls
  // sideways instead (as wide tables do).
  const COLUMN = 250;
  const columns = (full) =>
    new Set(
      Object.keys(full)
        .filter((k) => /^xaxis\d*$/.test(k) && full[k].visible !== false && full[k].domain)
        .map((k) => full[k].domain.map((d) => d.toFixed(2)).join('-')),
    ).size;

  // A diagram (no visible axis: shapes and notes placed in data units) keeps DIAGRAM px and scrolls: wrapping its
  // notes would pile them onto its boxes.
  const DIAGRAM = 680;
  const diagram = (full) => {
    const axes = Object.keys(full).filter((k) => /^[xy]axis\d*$/.test(k));
    return axes.length > 0 && axes.every((k) => full[k].visible === false);
  };

  // A figure of token cells says how wide it must be for every cell to hold its token (layout.meta.min_width, in px at
  // the normal font; at projector fonts meta.min_width_projector where the figure knows it, else 1.4 times that): at
  // any width its box scrolls rather than squeezing cells. The masking grid wraps into bands that fit a 1440 px
  // window's box at projector fonts: the rough 1.4 had its default sentence ask 1,236 px of 1,214 and scroll.
  const asked = (gd, mode) => {
    const meta = (gd.layout && gd.layout.meta) || {};
    const px = Number(meta.min_width) || 0;
    return mode.big ? Number(meta.min_width_projector) || Math.round(px * 1.4) : px;
  };

  async function apply(gd, mode) {
    const n = columns(gd._fullLayout);
    const layoutMinimum = mode.narrow ? (diagram(gd._fullLayout) ? DIAGRAM : n >= 2 ? n * COLUMN + 60 : 0) : 0;
    const minimum = Math.max(layoutMinimum, asked(gd, mode));
    let scroll = false;
    if (minimum && gd._fullLayout.width < minimum) {
      gd.style.minWidth = `${minimum}px`;
      gd.parentElement.style.overflowX = 'auto';
      scroll = true;
      await window.Plotly.Plots.resize(gd);
    }
    const indices = gd._fullData.map((t) => t.index);
    const { layout, traces } = plan(gd, mode);
    const undo = { layout: {}, traces: {}, indices };
    for (const path of Object.keys(layout)) {
      const old = read(gd.layout, path);
      undo.layout[path] = old === undefined ? null : old;
    }
    const traceUpdate = {};
    for (const [path, values] of Object.entries(traces)) {
      traceUpdate[path] = values; // one value per trace (an array value is that trace's array)
      undo.traces[path] = indices.map((i) => {
        const old = read(gd.data[i], path);
        return old === undefined ? null : old;
      });
    }
    undo.scroll = scroll;
    fitted.set(gd.layout, { mode: mode.key, undo });
    const area = gd._fullLayout._size.h;
    await window.Plotly.update(gd, traceUpdate, layout, indices);
    await topClear(gd, undo);
    // Every tick label of a y axis one line high at least (larger fonts on a heatmap of many tokens): grow the figure.
    let short = 0;
    for (const key of Object.keys(gd._fullLayout).filter((k) => /^yaxis\d*$/.test(k))) {
      const axis = gd._fullLayout[key];
      const count = gd.querySelectorAll(`.${axis._id}tick > text`).length;
      const need = count * (axis.tickfont ? axis.tickfont.size : MIN) * 1.3;
      short = Math.max(short, need - (axis.domain[1] - axis.domain[0]) * gd._fullLayout._size.h);
    }
    if (short > 0) {
      if (!('height' in undo.layout)) undo.layout.height = gd.layout.height === undefined ? null : gd.layout.height;
      await window.Plotly.relayout(gd, { height: Math.ceil(gd._fullLayout.height + short + 4) });
    }
    // Larger or wrapped labels take room from the plot area: give most of it back by growing the figure.
    const lost = area - gd._fullLayout._size.h;
    if (lost > 0.2 * area) {
      if (!('height' in undo.layout)) undo.layout.height = gd.layout.height === undefined ? null : gd.layout.height;
      await window.Plotly.relayout(gd, { height: Math.round(gd._fullLayout.height + lost) });
    }
  }

  // The top margin holds the title and, under it, whatever sits above the plot area (subplot titles, notes, an axis
  // on top).
  async function topClear(gd, undo) {
    const found = gd.querySelector('.g-gtitle .gtitle');
    const title = found && (found.textContent || '').trim() ? found : null;
    let svg = gd.querySelector('.main-svg').getBoundingClientRect();
    const cut = title ? svg.top + 4 - title.getBoundingClientRect().top : 0; // a title of several lines can start above the figure
    if (cut > 0) {
      if (!('title.pad.t' in undo.layout)) undo.layout['title.pad.t'] = null;
      await window.Plotly.relayout(gd, { 'title.pad.t': Math.ceil(gd._fullLayout.title.pad.t + cut) });
      svg = gd.querySelector('.main-svg').getBoundingClientRect();
    }
    const full = gd._fullLayout;
    const plotTop = svg.top + full._size.t;
    let above = 0;
    const aboveThePlot = '.annotation, .legend, [class^="g-x"][class$="title"], [class$="tick"] > text';
    for (const el of gd.querySelectorAll(aboveThePlot)) {
      const r = el.getBoundingClientRect();
      if (r.height > 0 && r.bottom <= plotTop + 4) above = Math.max(above, plotTop - r.top);
    }
    if (!title && !above) return;
    const need = Math.ceil((title ? title.getBoundingClientRect().bottom - svg.top : 0) + 6 + above);
    if (need > full._size.t + 1) {
      if (!('margin.t' in undo.layout)) undo.layout['margin.t'] = gd.layout.margin && gd.layout.margin.t !== undefined ? gd.layout.margin.t : null;
      await window.Plotly.relayout(gd, { 'margin.t': need });
    }
  }

  const roomOf = (gd) => (gd.parentElement && gd.parentElement.clientWidth) || gd._fullLayout.width; // the room, not the plot
  let busy = false;
  async function scan() {
    pending = false;
    if (!window.Plotly) return;
    if (busy) return later(); // a figure arrived while plots were being fitted: look again
    busy = true;
    try {
      const on = projector();
      for (const gd of document.querySelectorAll('.js-plotly-plot')) {
        if (!gd.layout || !gd._fullLayout || !gd._fullData || gd.offsetParent === null) continue; // fitted when shown
        const narrow = roomOf(gd) < NARROW;
        const mode = { big: on, narrow, key: `${on}/${narrow}` };
        const done = fitted.get(gd.layout);
        if (done && done.mode === mode.key) continue;
        try {
          if (done) {
            fitted.delete(gd.layout);
            await window.Plotly.update(gd, done.undo.traces, done.undo.layout, done.undo.indices);
            if (done.undo.scroll) {
              gd.style.minWidth = '';
              await window.Plotly.Plots.resize(gd);
            }
          }
          await apply(gd, mode);
        } catch (err) {
          console.warn('plot fit: could not re-lay out a plot', err);
        }
      }
    } finally {
      busy = false;
    }
  }

  // For tests and curious readers: true when every visible plot is laid out for the current mode.
  window.tpPlotsFitted = () =>
    !pending &&
    !busy &&
    [...document.querySelectorAll('.js-plotly-plot')]
      .filter((gd) => gd.layout && gd._fullLayout && gd.offsetParent !== null)
      .every((gd) => {
        const on = projector();
        const narrow = roomOf(gd) < NARROW;
        const done = fitted.get(gd.layout);
        return Boolean(done) && done.mode === `${on}/${narrow}`;
      });

  // Rescan shortly after anything changes: a new figure (Gradio swaps the plot's layout), a tab shown, the switch.
  let pending = false;
  const later = () => {
    if (!pending) {
      pending = true;
      setTimeout(scan, 150);
    }
  };
  new MutationObserver(later).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'style'] });
  window.addEventListener('resize', later);
  later();
}
