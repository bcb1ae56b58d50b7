() => {
  // Keeps the open tab in sight in the tab row.
  //
  // On a phone the tab row scrolls sideways (assets/style.css). A tab opened by a link, a lesson's try-it button or a
  // share link can then sit past the row's visible part, and the student does not see which tab is open. Whenever a
  // tab is selected, the row is scrolled just enough to show it. Only the row scrolls, never the page: scrollIntoView
  // would also move the page up to the row, away from the result the link has just drawn.
  const MARGIN = 24; // px of the next tab left showing, so the row still looks scrollable
  const reveal = () => {
    for (const row of document.querySelectorAll('.tab-wrapper')) {
      const tab = row.querySelector('button[role=tab][aria-selected=true]');
      if (!tab || row.scrollWidth <= row.clientWidth) continue;
      const box = row.getBoundingClientRect();
      const at = tab.getBoundingClientRect();
      if (at.left < box.left) row.scrollLeft -= box.left - at.left + MARGIN;
      else if (at.right > box.right) row.scrollLeft += at.right - box.right + MARGIN;
    }
  };
  let queued = false;
  const later = () => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        reveal();
      });
    }
  };
  // Only a tab's selection is watched (not every change on the page: a figure being drawn makes thousands, and each
  // would cost a measure); the page's first selected tab is shown at the start anyway, and a resize moves the row.
  new MutationObserver(later).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-selected'] });
  window.addEventListener('resize', later);
  later();
}
