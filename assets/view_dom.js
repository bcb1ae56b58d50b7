// What every view script of a gr.HTML (js_on_load) builds its DOM with; playground/ui/common/view_script.py puts
// it before the view's own script. `make` sets text only as text nodes (never markup), so a token or a user's
// sentence cannot render as HTML; `fill` fills a translated template's {names}.
const fill = (template, values = {}) =>
  String(template).replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
const pct = (p) => `${(100 * p).toFixed(1)} %`;

function make(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined) continue;
    if (name === 'class') node.className = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}
