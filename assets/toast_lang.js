() => {
  // Gradio's own messages in the page's language. Its client words a full queue itself ("This application is
  // currently busy..."), and the queue guard's refusals (HTTP 429, 413) reach the page as the guard's English text:
  // on a Chinese page a student read them in English (issue 37, item 23). The table (English start -> Chinese) is
  // ui/common/text.py's `toast.*`, filled in by app.py; the page's language is the header's radio.
  const TABLE = __TOAST_TABLE__;
  const chinese = () => document.querySelector('.tp-lang input:checked')?.value === 'zh';
  const translate = () => {
    if (!chinese()) return;
    for (const el of document.querySelectorAll('[data-testid="toast-body"] [data-testid="toast-text"]')) {
      const text = (el.textContent || '').trim();
      const row = TABLE.find(([en]) => text.startsWith(en));
      if (row && text !== row[1]) el.textContent = row[1];
    }
    for (const el of document.querySelectorAll('[data-testid="toast-body"] .toast-title')) {
      const row = TABLE.find(([en]) => (el.textContent || '').trim() === en);
      if (row && el.textContent !== row[1]) el.textContent = row[1];
    }
  };
  // at most once a frame, and only while a toast is shown: the page mutates constantly while it draws a view
  let queued = false;
  const soon = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      if (document.querySelector('[data-testid="toast-body"]')) translate();
    });
  };
  new MutationObserver(soon).observe(document.body, { childList: true, subtree: true, characterData: true });
}
