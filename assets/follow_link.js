() => {
  // After an in-app link (a lesson's try-it button) the result showed one or two screens below the fold at 1440x900
  // and nothing led the eye to it (issue 37, item 9). A click on a try-it button (id lesson-<key>-try-<i>) starts a
  // watcher: once the linked tab shows (another tab button is selected) and its first result box is on screen (marked
  // `tp-result` by playground/ui/common/form.py; else a provenance line or a plot), it is scrolled to the top of the
  // window and <html data-tp-followed> names it. The watcher gives up after three minutes (a model still loading).
  // A page-wide listener, not a Gradio js event: a js-only event without inputs or outputs never ran.
  const visible = (el) => el && el.offsetParent !== null;
  const selected = () => document.querySelector('[role="tab"][aria-selected="true"]');
  const follow = () => {
    const from = selected();
    const started = performance.now();
    delete document.documentElement.dataset.tpFollowed;
    const look = () => {
      const moved = selected() !== from; // hidden tabs' boxes have no offsetParent: what is visible is the new tab's
      const target = moved && ['.tp-result', '.tp-provenance', '.js-plotly-plot']
        .map((s) => [...document.querySelectorAll(s)].find(visible)).find(Boolean);
      if (target) {
        target.scrollIntoView({ block: 'start', behavior: 'smooth' });
        document.documentElement.dataset.tpFollowed = target.id || String(target.className);
      } else if (performance.now() - started < 180000) setTimeout(look, 100);
    };
    setTimeout(look, 100);
  };
  document.addEventListener('click', (event) => {
    const button = event.target.closest && event.target.closest('button[id^="lesson-"][id*="-try-"]');
    if (button) follow();
  }, true);
}
