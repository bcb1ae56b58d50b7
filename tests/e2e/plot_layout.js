(root) => {
  // For every visible Plotly plot under `root` (a CSS selector, or the whole page): the boxes of its title, axis
  // titles, tick labels, legend and legend entries, colour bars and annotations, and the problems among them:
  //  - a box outside the plot's own box;
  //  - two labels of different kinds overlapping (a title on a legend, a tick label on an axis title, ...);
  //  - two tick labels overlapping, unless one is rotated (the upright boxes of slanted labels overlap though the
  //    glyphs do not);
  // annotations among themselves are not compared (cell labels and subplot titles sit on their own grid).
  const scope = root ? document.querySelector(root) : document;
  const plots = [...scope.querySelectorAll('.js-plotly-plot')].filter(
    (p) => p.offsetParent !== null && p.getBoundingClientRect().width > 0,
  );
  const rect = (el) => {
    const r = el.getBoundingClientRect();
    return { l: r.left, t: r.top, r: r.right, b: r.bottom, w: r.width, h: r.height };
  };
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0.5 && r.height > 0.5 && (el.textContent || '').trim() !== '';
  };
  const overlap = (a, b, tol) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > tol && Math.min(a.b, b.b) - Math.max(a.t, b.t) > tol;
  const rotated = (el) => /rotate\((-?[0-9.]+)/.test(el.getAttribute('transform') || '') && !/rotate\(0[,)]/.test(el.getAttribute('transform') || '');
  const px = (el) => parseFloat(getComputedStyle(el).fontSize);
  return plots.map((gd) => {
    const box = rect(gd.querySelector('.main-svg') || gd);
    const items = [];
    const seen = new Set();
    const add = (kind, els, group) =>
      els.filter(shown).forEach((el) => {
        if (seen.has(el)) return;
        seen.add(el);
        items.push({ kind, group: group(el), el, box: rect(el), text: el.textContent.trim().slice(0, 40), rot: rotated(el), size: px(el) });
      });
    add('title', [...gd.querySelectorAll('.g-gtitle .gtitle')], () => 'title');
    const axisTitles = [...gd.querySelectorAll('.infolayer > g[class$="title"] text')].filter((t) => !t.closest('.g-gtitle') && !t.closest('.legend'));
    add('axis-title', axisTitles, (el) => el.closest('g').getAttribute('class'));
    const ticks = [...gd.querySelectorAll('[class*="tick"] > text')].filter((t) => !t.closest('.colorbar'));
    add('tick', ticks, (el) => el.parentNode.getAttribute('class'));
    add('legend', [...gd.querySelectorAll('.legend .bg')], () => 'legend');
    add('legend-item', [...gd.querySelectorAll('.legend .traces text.legendtext')], () => 'legend-item');
    add('colorbar', [...gd.querySelectorAll('.colorbar')], () => 'colorbar');
    add('annotation', [...gd.querySelectorAll('.annotation text')], () => 'annotation');
    const problems = [];
    const where = (b) => `${Math.round(b.l - box.l)},${Math.round(b.t - box.t)},${Math.round(b.r - box.l)},${Math.round(b.b - box.t)}`;
    for (const it of items) {
      if (it.box.l < box.l - 1 || it.box.r > box.r + 1 || it.box.t < box.t - 1 || it.box.b > box.b + 1)
        problems.push(`${it.kind} "${it.text}" leaves the plot (${where(it.box)} in ${Math.round(box.w)}x${Math.round(box.h)})`);
    }
    for (let i = 0; i < items.length; i++)
      for (let j = i + 1; j < items.length; j++) {
        const a = items[i];
        const b = items[j];
        const kinds = [a.kind, b.kind].sort().join();
        if (kinds === 'annotation,annotation' || kinds === 'legend,legend-item') continue;
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        if (a.kind === 'tick' && b.kind === 'tick' && a.group === b.group && (a.rot || b.rot)) continue;
        if (overlap(a.box, b.box, 1)) problems.push(`${a.kind} "${a.text}" overlaps ${b.kind} "${b.text}"`);
      }
    const fonts = {};
    for (const it of items) if (it.kind !== 'colorbar' && it.kind !== 'legend') fonts[it.kind] = Math.min(fonts[it.kind] ?? 1e9, it.size);
    const host = gd.closest('[id]');
    return { id: host ? host.id : '', width: Math.round(box.w), height: Math.round(box.h), problems, fonts, count: items.length };
  });
}
