() => {
  // On a phone the lesson list is one sideways-scrolling row of chips: the chosen one is brought into view after a
  // click on a chip, on "previous" or on "next" (whose answer moves the choice a moment later). A page-wide listener:
  // a js step on the tab's events would have to hand Python every one of the Form's inputs back, in an order the
  // page does not know.
  const chip = () => document.querySelector('#lessons-picker input:checked')?.closest('label');
  document.addEventListener('click', (event) => {
    const on = event.target.closest && event.target.closest('#lessons-picker, #lessons-previous, #lessons-next');
    if (!on || window.innerWidth > 640) return;
    const before = chip();
    let left = 60; // ~3 s of 50 ms looks for previous / next's answer
    const look = () => {
      const now = chip();
      if (now && (now !== before || on.id === 'lessons-picker')) now.scrollIntoView({ block: 'nearest', inline: 'center' });
      else if (left-- > 0) setTimeout(look, 50);
    };
    setTimeout(look, 0);
  }, true);
}
