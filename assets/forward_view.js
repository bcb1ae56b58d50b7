// The "One forward pass" view (gr.HTML's js_on_load: `element`, `props`, `watch`). Everything a control selects --
// the stage, the layer, the head, the temperature -- is already in the value the server sent (one pass per model,
// sentence and token: playground/ui/forward/render.py `view_model`), so every click here redraws in the browser and
// sends nothing. Text from the tokenizer or the user is only ever set as textContent, never parsed as markup.
const state = { stage: null, layer: 0, head: 0, temperature: 1, key: null };

const fmt = (x, digits = 3) => (x === null || x === undefined || Number.isNaN(x) ? '—' : Number(x).toFixed(digits));

// Blue for negative, orange for positive, white at 0 (the scale: the largest |value| shown).
function diverging(x, top) {
  const t = Math.max(-1, Math.min(1, x / (top || 1)));
  const [r, g, b] = t < 0 ? [0, 114, 178] : [213, 94, 0];
  const a = Math.abs(t);
  return `rgb(${Math.round(255 + (r - 255) * a)},${Math.round(255 + (g - 255) * a)},${Math.round(255 + (b - 255) * a)})`;
}

function strip(values) {
  const top = Math.max(...values.map(Math.abs), 1e-9);
  const cell = 9;
  const picture = svg('svg', { class: 'tp-fw-strip', viewBox: `0 0 ${values.length * cell} 22`, role: 'img' });
  values.forEach((x, i) => {
    const rect = svg('rect', { x: i * cell, y: 0, width: cell - 1, height: 22, fill: diverging(x, top) });
    rect.append(svg('title', {}, document.createTextNode(`${i}: ${fmt(x, 4)}`)));
    picture.append(rect);
  });
  return picture;
}

function bars(rows, width = 260) {
  // rows: [label, p, highlight]: one horizontal bar each
  const box = make('div', { class: 'tp-fw-bars' });
  for (const [label, p, marked] of rows) {
    box.append(
      make('div', { class: `tp-fw-bar${marked ? ' tp-fw-marked' : ''}` },
        make('span', { class: 'tp-fw-bar-label' }, label),
        make('span', { class: 'tp-fw-bar-fill', style: `width:${Math.max(1, Math.round(width * p))}px` }),
        make('span', { class: 'tp-fw-bar-value' }, pct(p))),
    );
  }
  return box;
}

function render() {
  const started = performance.now();
  const value = props.value;
  element.replaceChildren();
  if (!value || !value.result) return;
  const r = value.result, tx = value.texts;
  const key = `${r.model}|${r.tokens.join('\u0001')}|${r.token}`;
  if (state.key !== key) Object.assign(state, { key, layer: 0, head: 0, temperature: 1, stage: null });
  const words = r.tokens.map((tok, i) => r.display[i] || tok);
  // a stage's name inside its block ("attn.out" of "blocks.3.attn.out") keys its texts
  r.stages.forEach((s) => { s.stage = s.stage || s.name.replace(/^blocks\.\d+\./, ''); s.inputs = s.inputs || []; });
  const byName = Object.fromEntries(r.stages.map((s) => [s.name, s]));
  const stageTitle = (s) => tx[`stage.${s.stage}`] || s.stage;

  // the model in one line, and the tokens
  const kv = r.kv_heads < r.heads ? fill(tx['ui.kv'], { kv: r.kv_heads }) : '';
  element.append(
    make('p', { class: 'tp-fw-model' }, fill(tx['ui.model'], {
      model: r.model_id, kind: tx[`kind.${r.block_kind}`] || r.block_label, layers: r.layers, heads: r.heads, kv, d: r.d_model, ff: r.d_ff,
      direction: tx[r.causal ? 'ui.causal' : 'ui.bidirectional'],
    })),
    make('div', { class: 'tp-fw-tokens' }, make('span', {}, tx['ui.tokens']),
      words.map((w, i) => make('span', { class: `tp-fw-token${i === r.token ? ' tp-fw-marked' : ''}` }, `${i}·${w}`))),
  );

  // the diagram: input stages, one block (stepped through), output stages; each stage a button
  const inBlock = (s) => s.layer === state.layer;
  const input = r.stages.filter((s) => s.layer < 0 && s.name.startsWith('embed.'));
  const output = r.stages.filter((s) => s.layer < 0 && !s.name.startsWith('embed.'));
  if (!state.stage || !byName[state.stage]) state.stage = (input[0] || r.stages[0]).name;
  const current = byName[state.stage];
  if (current.layer >= 0 && current.layer !== state.layer) {
    state.stage = `blocks.${state.layer}.${current.stage}`; // the same stage of the layer stepped to
  }
  const stageButton = (s) =>
    make('button', {
      class: `tp-fw-stage${s.name === state.stage ? ' tp-fw-selected' : ''}`, 'data-stage': s.name,
      onclick: () => { state.stage = s.name; render(); },
    }, make('b', {}, stageTitle(s)), make('small', {}, `[${s.shape.join(' × ')}] ‖x‖ ${fmt(s.norm, 2)}`));
  const step = (delta) => () => {
    state.layer = Math.max(0, Math.min(r.layers - 1, state.layer + delta));
    render();
  };
  const diagram = make('div', { class: 'tp-fw-diagram' },
    make('h4', {}, tx['ui.input']), input.map(stageButton),
    make('div', { class: 'tp-fw-block' },
      make('div', { class: 'tp-fw-stepper' },
        make('button', { class: 'tp-fw-prev', onclick: step(-1) }, tx['ui.prev']),
        make('h4', {}, fill(tx['ui.block'], { layer: state.layer, last: r.layers - 1 })),
        make('button', { class: 'tp-fw-next', onclick: step(1) }, tx['ui.next'])),
      r.stages.filter(inBlock).map(stageButton)),
    output.length ? [make('h4', {}, tx['ui.output']), output.map(stageButton)] : null);
  diagram.querySelector('.tp-fw-prev').disabled = state.layer === 0;
  diagram.querySelector('.tp-fw-next').disabled = state.layer === r.layers - 1;

  // the chosen stage: what it does, its formula with the real norms, where it is computed, its vector
  const s = byName[state.stage];
  const from = s.inputs.map((name) => byName[name]).filter(Boolean);
  const detail = make('div', { class: 'tp-fw-detail' },
    make('h3', {}, stageTitle(s)),
    make('p', {}, tx[`what.${s.stage}`] || ''),
    make('p', {}, `${tx['ui.formula']}: `, make('code', {}, s.formula)),
    from.length ? make('p', { class: 'tp-fw-from' }, `${tx['ui.inputs']} `,
      from.map((f, i) => [i ? ' · ' : '', `${stageTitle(f)} ‖${fmt(f.norm, 2)}‖`]), ` → ‖${fmt(s.norm, 2)}‖`) : null,
    make('p', {}, `${tx['ui.shape']}: [${s.shape.join(' × ')}] · ${tx['ui.norm']}: ${fmt(s.norm, 3)} · ${tx['ui.module']}: `,
      make('code', {}, s.module || '—')),
    make('p', { class: 'tp-fw-check' }, fill(tx['ui.checked'], { error: s.error.toExponential(1), scale: fmt(s.scale, 2) })));
  if (s.stage === 'attn.pattern') {
    const heads = make('div', { class: 'tp-fw-heads' }, make('span', {}, `${tx['ui.head']}: `),
      [...Array(r.heads).keys()].map((h) => make('button', {
        class: `tp-fw-headbtn${h === state.head ? ' tp-fw-selected' : ''}`, 'data-head': h,
        onclick: () => { state.head = h; render(); },
      }, String(h))));
    const row = r.attention[s.layer][Math.min(state.head, r.heads - 1)][r.token];
    detail.append(heads, make('p', {}, fill(tx['ui.row'], { head: state.head })),
      bars(row.map((p, j) => [`${j}·${words[j]}`, p, j === r.token])));
  } else {
    detail.append(make('p', {}, fill(tx['ui.values'], { n: s.values.length, size: s.size })), strip(s.values));
  }
  element.append(make('div', { class: 'tp-fw-main' }, diagram, detail));

  // the stack: per layer ‖x‖ of the stream and the norms of the two updates at this token
  const series = [[tx['ui.resid'], r.resid_norms.slice(1).map((row) => row[r.token]), '#000000'],
    [tx['ui.attn'], r.attn_norms.map((row) => row[r.token]), '#0072B2'],
    [tx['ui.mlp'], r.mlp_norms.map((row) => row[r.token]), '#D55E00']];
  const top = Math.max(...series.flatMap(([, ys]) => ys), 1e-9);
  const W = 44 * r.layers + 40, H = 140;
  const chart = svg('svg', { class: 'tp-fw-stack', viewBox: `0 0 ${W} ${H + 24}`, role: 'img' });
  for (let layer = 0; layer < r.layers; layer++) {
    const x0 = 30 + 44 * layer;
    const hit = svg('rect', { x: x0 - 4, y: 0, width: 40, height: H + 22, class: `tp-fw-col${layer === state.layer ? ' tp-fw-selected' : ''}`,
      'data-layer': layer });
    hit.addEventListener('click', () => { state.layer = layer; render(); });
    chart.append(hit);
    series.forEach(([name, ys, colour], k) => {
      const h = (H - 4) * (ys[layer] / top);
      const bar = svg('rect', { x: x0 + 11 * k, y: H - h, width: 10, height: h, fill: colour });
      bar.append(svg('title', {}, document.createTextNode(`${tx['ui.layer']} ${layer} · ${name}: ${fmt(ys[layer], 2)}`)));
      chart.append(bar);
    });
    chart.append(svg('text', { x: x0 + 16, y: H + 16, 'text-anchor': 'middle' }, document.createTextNode(String(layer))));
  }
  const legend = make('p', { class: 'tp-fw-legend' },
    series.map(([name, , colour]) => make('span', {}, make('i', { style: `background:${colour}` }), name)));
  element.append(make('h4', {}, tx['ui.stack']), legend, make('div', { class: 'tp-fw-scroll' }, chart));

  // the logit lens and the output with its temperature
  if (!r.top) {
    element.append(make('p', {}, tx['ui.no_head']));
  } else {
    const answer = r.top.tokens[0];
    const rows = r.lens.map((lr) => make('tr', { class: lr.answer_rank === 0 ? 'tp-fw-marked' : '' },
      make('td', {}, lr.layer === 0 ? `0 (${tx['ui.embeddings']})` : String(lr.layer)),
      make('td', {}, lr.tokens[0]), make('td', {}, pct(lr.probs[0])),
      make('td', {}, `${lr.answer_rank + 1} · ${pct(lr.answer_prob)}`)));
    const first = r.lens.find((lr, i) => lr.answer_rank === 0 && r.lens.slice(i).every((x) => x.answer_rank === 0));
    element.append(make('h4', {}, tx['ui.lens']),
      make('p', {}, first && first.layer < r.layers ? fill(tx['ui.first'], { token: answer, layer: first.layer })
        : fill(tx['ui.never'], { token: answer })),
      make('div', { class: 'tp-fw-scroll' }, make('table', { class: 'tp-fw-lens' },
        make('tr', {}, make('th', {}, tx['ui.layer']), make('th', {}, tx['ui.top1']), make('th', {}, 'p'),
          make('th', {}, fill(tx['ui.answer'], { token: answer }))), rows)));
    // softmax(logits / T) from the top logits and the binned rest (playground.forward.lens.compact): the slider
    // redraws the bars only, so a drag is never interrupted by a rebuilt page
    const L = r.logits, k = r.top.tokens.length;
    const output = make('div', { class: 'tp-fw-output' });
    const label = make('span', {});
    const draw = (from = started) => {
      const T = state.temperature, m = Math.max(...L.top_logits, ...L.tail_logits);
      const weights = L.top_logits.map((l) => Math.exp((l - m) / T));
      const z = weights.reduce((a, b) => a + b, 0) + L.tail_logits.reduce((a, l, i) => a + L.tail_counts[i] * Math.exp((l - m) / T), 0);
      label.textContent = `${tx['ui.temperature']} = ${T.toFixed(2)} `;
      output.replaceChildren(bars(L.top_tokens.slice(0, k).map((tok, i) => [tok, weights[i] / z, i === 0])));
      document.documentElement.dataset.tpForwardMs = String(performance.now() - from);
    };
    const slider = make('input', { type: 'range', min: '0.05', max: '2', step: '0.05', value: String(state.temperature), class: 'tp-fw-temperature' });
    slider.addEventListener('input', () => { state.temperature = Number(slider.value); draw(performance.now()); });
    element.append(make('h4', {}, fill(tx['ui.final'], { k })), make('label', { class: 'tp-fw-t' }, label, slider), output);
    draw();
  }
  // how long the redraw took, read by the browser test (bench/RESULTS.md): never asserted as a time
  document.documentElement.dataset.tpForwardMs = String(performance.now() - started);
}

watch('value', render);
render();
