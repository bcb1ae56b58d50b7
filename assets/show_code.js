() => {
  // A share link with `show=code` opens the Code panel of its tab once the link has run (once per page: a student
  // who closes the panel again keeps it closed).
  //
  // It waits for the page's link event to end (ui/common/links.py then marks <html data-tp-opened>: the view and its
  // script are filled), then for the tab's panel to be laid out, and clicks its header. It used to listen to the
  // code box's change event, which a box mounted after its value arrived never fires (Gradio mounts a tab's
  // children when the tab is shown, and loads the code editor's module then): the panel then stayed closed.
  if (new URLSearchParams(window.location.search).get('show') !== 'code') return;
  const root = document.documentElement;
  const FRAMES = 600; // ~10 s of frames for the tab's panel to be laid out; then the page is left as it is
  const open = (left) => {
    const panels = [...document.querySelectorAll('.tp-code')].filter((panel) => panel.offsetParent);
    if (!panels.length) {
      if (left > 0) requestAnimationFrame(() => open(left - 1));
      return;
    }
    for (const panel of panels) {
      const header = panel.querySelector('button.label-wrap');
      if (header && !header.classList.contains('open')) header.click();
    }
  };
  if (root.dataset.tpOpened) return open(FRAMES);
  const watch = new MutationObserver(() => {
    if (!root.dataset.tpOpened) return;
    watch.disconnect();
    open(FRAMES);
  });
  watch.observe(root, { attributes: true, attributeFilter: ['data-tp-opened'] });
}
