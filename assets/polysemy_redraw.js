() => {
  // Polysemy: another layer, or PCA again after t-SNE, is redrawn in the browser from every layer the cosine figure
  // brought with it (layout.meta.tp, written by playground/ui/polysemy/render.py `browser_data`): the points of each
  // panel, the cosines and their colour range, the panel titles, the reading and the score table, all as the server
  // draws them, so the menu answers with no request. What it did not bring (t-SNE at another layer: seconds a layer
  // on the server) is asked of the server once, through a hidden button that runs the tab's view.
  const plotOf = (name) => document.querySelector(`#polysemy-${name} .js-plotly-plot`);
  let resting = null;
  const askServer = () => {
    clearTimeout(resting);
    resting = setTimeout(() => {
      const button = document.getElementById('polysemy-redraw');
      if (button) button.click();
    }, 250);
  };
  const axis = (name, n) => `${name}${n ? n + 1 : ''}`; // plotly's xaxis, xaxis2 ... for panel 0, 1 ...

  // The panel titles replaced, the other annotations (the scatter's "n sentences, one point") as `notes` say.
  function annotations(gd, titles, notes) {
    const kept = (gd.layout.annotations || []).slice(0, titles.length).map((a, i) => ({ ...a, text: titles[i] }));
    const placed = notes.map(({ n, text, x, y, xanchor = 'center', ay = -28 }) => ({
      text, x, y, xref: axis('x', n), yref: axis('y', n), showarrow: true, arrowhead: 0, ax: 0, ay, xanchor,
    }));
    return [...kept, ...placed];
  }

  function cosines(gd, entry) {
    const n = entry.sim.length;
    const data = { z: entry.sim, zmin: Array(n).fill(entry.zrange[0]), zmax: Array(n).fill(entry.zrange[1]) };
    const layout = { annotations: annotations(gd, entry.titles, []) };
    return window.Plotly.update(gd, data, layout, [...Array(n).keys()]);
  }

  // The scatter: each trace's points (trace -> panel and rows: tp.traces), each 2-D panel's range padded by 15 %
  // (playground/figures/polysemy.py `scatter_figure`), the coincident points' notes.
  function points(gd, tp, coords, notes, titles) {
    const three = gd.data.length && gd.data[0].type === 'scatter3d';
    const data = { x: [], y: [], z: [] };
    tp.traces.forEach(([n, rows]) => {
      data.x.push(rows.map((k) => coords[n][k][0]));
      data.y.push(rows.map((k) => coords[n][k][1]));
      data.z.push(rows.map((k) => (coords[n][k].length > 2 ? coords[n][k][2] : 0)));
    });
    if (!three) delete data.z;
    const layout = {};
    if (three) {
      coords.forEach((_, n) => {
        const scene = notes.filter((note) => note.n === n)
          .map(({ text, x, y, z }) => ({ text, x, y, z, showarrow: true, arrowhead: 0, ax: 0, ay: -28 }));
        layout[`${axis('scene', n)}.annotations`] = scene;
      });
      layout.annotations = annotations(gd, titles, []);
    } else {
      coords.forEach((panel, n) => {
        ['x', 'y'].forEach((name, d) => {
          const values = panel.map((point) => point[d]);
          const low = values.length ? Math.min(...values) : -1, high = values.length ? Math.max(...values) : 1;
          const pad = Math.max(high - low, 1e-6) * 0.15;
          layout[`${axis(`${name}axis`, n)}.range`] = [low - pad, high + pad];
        });
      });
      layout.annotations = annotations(gd, titles, notes);
    }
    return window.Plotly.update(gd, data, layout, [...Array(tp.traces.length).keys()]);
  }

  window.tpPolysemy = {
    // (layer, projection): the menu's values as their `input` event hands them over; returns [reading, table]
    redraw(layer, projection) {
      const heat = plotOf('heatmap');
      const tp = heat && heat.layout && heat.layout.meta && heat.layout.meta.tp;
      const entry = tp && tp.layers[String(layer)];
      const coords = entry && (tp.few ? [] : entry[projection]);
      if (!window.Plotly || !entry || !coords) {
        askServer();
        return null;
      }
      const started = performance.now();
      const jobs = [cosines(heat, entry)];
      const scatter = plotOf('scatter');
      if (!tp.few && scatter) jobs.push(points(scatter, tp, coords, entry[`${projection}_notes`] || [], entry.titles));
      Promise.all(jobs).then(() => {
        // how long the redraw took, read by the browser test and bench/browser_redraw.py: never asserted as a time
        document.documentElement.dataset.tpRedrawMs = String(performance.now() - started);
      });
      return [entry.reading, { headers: tp.headers, data: entry.table }];
    },
  };
}
