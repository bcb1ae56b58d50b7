() => {
  // Sampling: the next-token figure redrawn in the browser for another temperature, top-k or top-p, from every logit
  // the figure brought with it (layout.meta.tp, playground/ui/sampling/run.py `browser_data`): no request to the
  // server, as Transformer Explainer's temperature slider. The stages are those of transformers' warpers, which
  // playground.sampling applies on the server: temperature (skipped at 1; 0 = greedy), then top-k (ties at the k-th
  // score kept), then top-p (TopPLogitsWarper: drop the tokens whose ascending cumulative probability is <= 1 - p,
  // never the most probable).
  const plotOf = () => document.querySelector('#sampling-next-plot .js-plotly-plot');
  const decoded = new WeakMap(); // meta -> Float32Array of the logits, most probable first

  function logitsOf(tp) {
    if (!decoded.has(tp)) {
      const bytes = Uint8Array.from(atob(tp.logits), (c) => c.charCodeAt(0));
      decoded.set(tp, new Float32Array(bytes.buffer));
    }
    return decoded.get(tp);
  }

  // Python's str.format for the few specs these texts use: {h:.2f}, {t:g}, {n}
  const format = (template, values) =>
    template.replace(/\{(\w+)(?::([^}]*))?\}/g, (all, key, spec) => {
      if (!(key in values)) return all;
      const v = values[key];
      if (spec && spec.endsWith('f')) return Number(v).toFixed(Number(spec.slice(1, -1)));
      if (spec === 'g') return String(Number(Number(v).toPrecision(6)));
      return String(v);
    });

  // One stage: the probabilities over the kept scores (-Infinity = filtered), their entropy in bits and how many.
  // Typed arrays and plain loops: 50k scores four times per slider step.
  function stage(scores) {
    const n = scores.length;
    let max = -Infinity;
    for (let i = 0; i < n; i++) if (scores[i] > max) max = scores[i];
    const p = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) if (scores[i] !== -Infinity) total += (p[i] = Math.exp(scores[i] - max));
    let entropy = 0, kept = 0;
    for (let i = 0; i < n; i++) {
      if (scores[i] === -Infinity) continue;
      kept++;
      const q = (p[i] /= total);
      if (q > 0) entropy -= q * Math.log2(q);
    }
    return { p, entropy, kept, scores };
  }

  // The scores kept where `keep(i)`, the others -Infinity (a new array: each stage keeps its own).
  function filtered(scores, keep) {
    const out = new Float64Array(scores.length);
    for (let i = 0; i < scores.length; i++) out[i] = keep(i) ? scores[i] : -Infinity;
    return out;
  }

  function stages(z, T, k, p) {
    const raw = stage(z);
    if (T === 0) { // greedy: all mass on the most probable token (index 0: the logits come sorted)
      const one = stage(filtered(z, (i) => i === 0));
      return [raw, one, one, one];
    }
    const scaled = new Float64Array(z.length);
    for (let i = 0; i < z.length; i++) scaled[i] = T === 1 ? z[i] : z[i] / T;
    const temperature = stage(scaled);
    let topK = temperature;
    if (k > 0) {
      const kth = scaled[Math.min(k, scaled.length) - 1];
      topK = stage(filtered(scaled, (i) => scaled[i] >= kth));
    }
    let topP = topK;
    if (p < 1) {
      // ascending cumulative probability, from the least probable kept token up
      const drop = new Uint8Array(z.length);
      let cumulative = 0;
      for (let i = z.length - 1; i > 0; i--) {
        cumulative += topK.p[i];
        if (cumulative <= 1 - p) drop[i] = 1;
      }
      topP = stage(filtered(topK.scores, (i) => !drop[i]));
    }
    return [raw, temperature, topK, topP];
  }

  function redraw(temperature, topK, topP) {
    const gd = plotOf();
    const tp = gd && gd.layout && gd.layout.meta && gd.layout.meta.tp;
    if (!tp || !window.Plotly) return null;
    const started = performance.now();
    const T = Number(temperature), k = Math.round(Number(topK)) || 0, p = Number(topP);
    const all = stages(logitsOf(tp), T, k, p);
    const n = tp.shown, texts = tp.texts;
    const names = [
      texts['stage.raw'],
      format(texts['stage.temperature'], { t: T }),
      k ? format(texts['stage.top_k'], { k }) : texts['stage.top_k_off'],
      p < 1 ? format(texts['stage.top_p'], { p }) : texts['stage.top_p_off'],
    ];
    const x = [], text = [], colour = [], layout = {};
    all.forEach((s, col) => {
      const shown = [...Array(n).keys()];
      x.push(shown.map((i) => s.p[i]).reverse());
      text.push(shown.map((i) => (s.scores[i] === -Infinity ? '×' : `${(100 * s.p[i]).toFixed(1)}%`)).reverse());
      colour.push(shown.map((i) => (s.scores[i] === -Infinity ? '#c7c7c7' : '#0072B2')).reverse());
      layout[`annotations[${col}].text`] = `${names[col]}<br>${format(texts['stage.stats'], { h: s.entropy, n: s.kept })}`;
    });
    window.Plotly.update(gd, { x, text, 'marker.color': colour }, layout, [0, 1, 2, 3]).then(() => {
      // how long the redraw took, read by the browser test (bench/RESULTS.md): never asserted as a time
      document.documentElement.dataset.tpRedrawMs = String(performance.now() - started);
    });
    const last = all[3];
    const summary = format(texts.summary, { h: last.entropy, raw: all[0].entropy, n: last.kept, vocab: all[0].kept });
    return T === 0 ? `${summary}\n\n${texts.greedy_note}` : summary;
  }

  window.tpSampling = { redraw };
}
