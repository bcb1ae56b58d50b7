// The "Text to text (T5)" view (gr.HTML's js_on_load: `element`, `props`, `watch`). One run of an encoder-decoder
// is in the value the server sent (playground/ui/t5/render.py `view_model`): every decoder step's distribution and
// cross-attention and the three attention families, so choosing a step, a family, a layer, a head or a sampler stage
// redraws here and sends nothing. Tokens (T5's ▁, <extra_id_0>, </s>) are only ever set as textContent, never markup.
const state = { step: 0, family: 'cross', layer: -1, head: -1, stage: 'top_p', key: null };

// White at 0, deep blue at the row's largest weight shown.
const shade = (p, top) => {
  const a = Math.max(0, Math.min(1, p / (top || 1)));
  return `rgb(${Math.round(255 - 255 * a)},${Math.round(255 - 141 * a)},${Math.round(255 - 77 * a)})`;
};
const ink = (p, top) => (p / (top || 1) > 0.55 ? '#fff' : '#000');

// (layers, heads, rows, cols) -> (rows, cols) for one layer / head, or their mean (-1 = mean over that axis)
function pick(tensor, layer, head) {
  const layers = layer < 0 ? tensor : [tensor[Math.min(layer, tensor.length - 1)]];
  let out = null, n = 0;
  for (const L of layers) {
    const heads = head < 0 ? L : [L[Math.min(head, L.length - 1)]];
    for (const H of heads) {
      if (!out) out = H.map((row) => row.map(() => 0));
      H.forEach((row, i) => row.forEach((x, j) => { out[i][j] += x; }));
      n += 1;
    }
  }
  return out.map((row) => row.map((x) => x / n));
}

function which(tx, layer, head) {
  if (layer < 0 && head < 0) return tx['mean'];
  if (layer < 0) return fill(tx['head_mean'], { head });
  if (head < 0) return fill(tx['layer_mean'], { layer });
  return fill(tx['one'], { layer, head });
}

function chips(tokens, weights, onpick, selected) {
  const top = weights ? Math.max(...weights, 1e-9) : 1;
  return make('div', { class: 'tp-t5-chips' }, tokens.map((tok, i) => {
    const style = weights ? `background:${shade(weights[i], top)};color:${ink(weights[i], top)}` : null;
    const chip = make(onpick ? 'button' : 'span', {
      class: `tp-t5-chip${i === selected ? ' tp-t5-selected' : ''}`, style, 'data-index': i,
      title: weights ? pct(weights[i]) : null, onclick: onpick ? () => onpick(i) : null,
    }, make('span', { class: 'tp-t5-tok' }, tok), weights ? make('small', {}, pct(weights[i])) : null);
    return chip;
  }));
}

function heatmap(matrix, rows, cols, onrow, marked) {
  const cell = 26, left = 96, topPad = 70;
  const W = left + cols.length * cell, H = topPad + rows.length * cell;
  const picture = svg('svg', { class: 'tp-t5-heat', viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img' });
  cols.forEach((c, j) => {
    const x = left + j * cell + cell / 2;
    picture.append(svg('text', { x, y: topPad - 4, transform: `rotate(-55 ${x} ${topPad - 4})`, class: 'tp-t5-label' },
      document.createTextNode(c)));
  });
  matrix.forEach((row, i) => {
    const top = Math.max(...row, 1e-9);
    const y = topPad + i * cell;
    const label = svg('text', { x: left - 4, y: y + cell * 0.65, 'text-anchor': 'end',
      class: `tp-t5-label${i === marked ? ' tp-t5-marked' : ''}` }, document.createTextNode(rows[i]));
    picture.append(label);
    row.forEach((p, j) => {
      const rect = svg('rect', { x: left + j * cell, y, width: cell - 1, height: cell - 1, fill: shade(p, top) });
      rect.append(svg('title', {}, document.createTextNode(`${rows[i]} → ${cols[j]}: ${pct(p)}`)));
      picture.append(rect);
    });
    if (onrow) {
      const hit = svg('rect', { x: 0, y, width: W, height: cell, class: `tp-t5-row${i === marked ? ' tp-t5-selected' : ''}`,
        'data-row': i });
      hit.addEventListener('click', () => onrow(i));
      picture.append(hit);
    }
  });
  return picture;
}

function render() {
  const started = performance.now();
  const value = props.value;
  element.replaceChildren();
  if (!value || !value.result) return;
  const r = value.result, tx = value.texts;
  const steps = r.steps;
  if (!steps.length) return;
  const key = `${r.model}|${r.source_tokens.join('\u0001')}|${r.output_ids.join(',')}`;
  // a new run starts at its first step; greedy shows the raw softmax (its other stages keep the argmax alone)
  if (state.key !== key) Object.assign(state, { key, step: 0, layer: -1, head: -1, stage: r.settings.temperature === 0 ? 'raw' : 'top_p' });
  state.step = Math.max(0, Math.min(steps.length - 1, state.step));
  const s = steps[state.step];
  const go = (i) => { state.step = Math.max(0, Math.min(steps.length - 1, i)); render(); };
  const written = steps.map((st) => st.token);

  // the output, one chip per decoder step; the selected step's source weights under it
  const cross = r.attention.cross;
  const decLayers = cross.length, heads = cross[0].length;
  const layer = Math.min(state.layer, decLayers - 1);
  const row = pick(cross, layer, state.head)[state.step];
  const topIndex = row.indexOf(Math.max(...row));
  const stepper = make('div', { class: 'tp-t5-stepper' },
    make('button', { class: 'tp-t5-prev', onclick: () => go(state.step - 1) }, tx['prev']),
    make('b', {}, fill(tx['step'], { step: state.step + 1, steps: steps.length })),
    make('button', { class: 'tp-t5-next', onclick: () => go(state.step + 1) }, tx['next']));
  stepper.querySelector('.tp-t5-prev').disabled = state.step === 0;
  stepper.querySelector('.tp-t5-next').disabled = state.step === steps.length - 1;
  const d = s.distribution;
  element.append(
    make('h4', {}, tx['output']), chips(written, null, go, state.step), stepper,
    make('p', { class: 'tp-t5-wrote' }, fill(tx['wrote'], { read: s.read, token: s.token, p: pct(d.chosen_prob), rank: d.chosen_rank })),
    make('h4', {}, tx['source']),
    make('p', {}, fill(tx['looks'], { which: which(tx, layer, state.head), top: r.source_tokens[topIndex], p: pct(row[topIndex]) })),
    chips(r.source_tokens, row, null, topIndex),
  );

  // layer and head: shared by the source weights above and the family below
  const select = (name, count, current, onchange) => {
    const menu = make('select', { class: `tp-t5-${name}`, 'aria-label': tx[name] },
      make('option', { value: '-1' }, tx['all']),
      [...Array(count).keys()].map((i) => make('option', { value: String(i) }, String(i))));
    menu.value = String(current);
    menu.addEventListener('change', () => { onchange(Number(menu.value)); render(); });
    return make('label', { class: 'tp-t5-select' }, `${tx[name]} `, menu);
  };

  // the step's distribution through the sampler's stages
  const stages = ['raw', 'temperature', 'top_k', 'top_p'];
  const stageButtons = make('div', { class: 'tp-t5-stages' }, stages.map((st) => make('button', {
    class: `tp-t5-stage${st === state.stage ? ' tp-t5-selected' : ''}`, 'data-stage': st,
    onclick: () => { state.stage = st; render(); },
  }, tx[`stage.${st}`])));
  const probs = d.probs[state.stage], filtered = d.filtered[state.stage];
  const bars = make('div', { class: 'tp-t5-bars' }, d.tokens.map((tok, i) => make('div', {
    class: `tp-t5-bar${d.token_ids[i] === s.token_id ? ' tp-t5-marked' : ''}${filtered[i] ? ' tp-t5-filtered' : ''}`,
  }, make('span', { class: 'tp-t5-bar-label' }, tok),
  make('span', { class: 'tp-t5-bar-track' }, make('span', { class: 'tp-t5-bar-fill', style: `width:${(100 * probs[i]).toFixed(1)}%` })),
  make('span', {}, pct(probs[i])))));
  element.append(make('h4', {}, tx['distribution']), stageButtons,
    make('p', { class: 'tp-t5-kept' }, fill(tx['kept'], { kept: d.kept[state.stage], bits: d.entropy_bits[state.stage].toFixed(2) })), bars);

  // the three families, one switch
  const families = ['encoder', 'decoder', 'cross'];
  const tensor = r.attention[state.family];
  const famLayer = Math.min(state.layer, tensor.length - 1);
  const matrix = pick(tensor, famLayer, state.head);
  const rows = state.family === 'encoder' ? r.source_tokens : written;
  const cols = state.family === 'cross' ? r.source_tokens : state.family === 'encoder' ? r.source_tokens : r.decoder_tokens;
  element.append(
    make('h4', {}, tx['families']),
    make('div', { class: 'tp-t5-families', role: 'radiogroup' }, families.map((f) => make('button', {
      class: `tp-t5-family${f === state.family ? ' tp-t5-selected' : ''}`, 'data-family': f, role: 'radio',
      'aria-checked': String(f === state.family), onclick: () => { state.family = f; render(); },
    }, tx[`family.${f}`]))),
    make('div', { class: 'tp-t5-controls' },
      select('layer', Math.max(...families.map((f) => r.attention[f].length)), state.layer, (v) => { state.layer = v; }),
      select('head', heads, state.head, (v) => { state.head = v; })),
    make('p', {}, tx[`family_what.${state.family}`], ' ', make('small', {}, fill(tx['rows'], {
      what: tx[state.family === 'encoder' ? 'rows_source' : 'rows_steps'] }), ' · ', which(tx, famLayer, state.head))),
    make('div', { class: 'tp-t5-scroll' }, heatmap(matrix, rows, cols, state.family === 'encoder' ? null : go,
      state.family === 'encoder' ? -1 : state.step)),
  );
  // how long the redraw took, read by the browser test: never asserted as a time
  document.documentElement.dataset.tpT5Ms = String(performance.now() - started);
}

watch('value', render);
render();
