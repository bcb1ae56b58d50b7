() => {
  // On a phone the lesson list is one sideways-scrolling row of chips: whenever the chosen lesson changes (a click on
  // a chip, "previous" / "next", a link opening a lesson) its chip is brought into view. A page-wide watcher of the
  // chosen value (a property, which no DOM mutation reports; four looks a second): a js step on the tab's events would
  // have to hand Python every one of the Form's inputs back, in an order the page does not know.
  let shown = null;
  setInterval(() => {
    if (window.innerWidth > 640) return;
    const input = document.querySelector('#lessons-picker input:checked');
    if (!input || input.value === shown || !input.offsetParent) return;
    shown = input.value;
    input.closest('label')?.scrollIntoView({ block: 'nearest', inline: 'center' });
  }, 250);
}
