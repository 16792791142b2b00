// Inlined at the top of index.html's <head> by scripts/boot-frame.ts, which replaces __BOOT__.
// Sets the page's language, and keeps for the short script after the frame (frame.js) the
// functions that fill the frame and then start the app. The texts sit here, in the head, so the
// frame is never painted half-filled while a long script after it is still arriving.
(() => {
  const boot = __BOOT__;
  const stored = (key) => {
    try {
      return localStorage.getItem(key);
    } catch {
      // why: storage may be blocked; the app then starts in ja-JP, without a session, as well.
      return null;
    }
  };
  const wanted = (stored('lang') || '').split(',')[0].trim().toLowerCase().replace('_', '-');
  const language = wanted.split('-')[0];
  const locale =
    boot.locales.find((each) => each.toLowerCase() === wanted) ||
    boot.locales.find((each) => each.toLowerCase().startsWith(`${language}-`)) ||
    boot.fallback;
  document.documentElement.lang = locale;
  const path = window.location.hash.replace(/^#/, '').split('?')[0].toLowerCase();
  const isFirstScreen = path === '' || path === '/' || path === boot.firstScreen;
  const files = [...(boot.preload[locale] || []), ...(boot.preload[boot.fallback] || [])];
  if (isFirstScreen) files.push(...boot.firstScreenFiles);
  else files.push(...(boot.parts[locale] || []), ...(boot.parts[boot.fallback] || []));
  // Fills the market list's frame (frame.html) with the visitor's texts, drops the welcome card for
  // a signed-in visitor and repeats the skeleton rows; on any other page removes the frame. React
  // replaces it at its first render.
  const fill = () => {
    const root = document.getElementById('root');
    if (!isFirstScreen) {
      root.textContent = '';
      return;
    }
    const table = boot.texts[locale] || boot.texts[boot.fallback];
    const text = (key) => table[boot.keys.indexOf(key)];
    for (const element of root.querySelectorAll('[data-t]')) element.textContent = text(element.dataset.t);
    for (const element of root.querySelectorAll('[data-t-aria-label]'))
      element.setAttribute('aria-label', text(element.dataset.tAriaLabel));
    for (const element of root.querySelectorAll('[data-t-placeholder]'))
      element.setAttribute('placeholder', text(element.dataset.tPlaceholder));
    // why: the policy allows no style attribute in the HTML; a style set from a script it allows.
    for (const element of root.querySelectorAll('[data-boot-height]'))
      element.style.height = element.dataset.bootHeight;
    for (const list of root.querySelectorAll('[data-repeat]')) {
      const row = list.firstElementChild;
      for (let i = 1; i < Number(list.dataset.repeat); i++) list.appendChild(row.cloneNode(true));
    }
    if (stored('token')) for (const element of root.querySelectorAll('[data-guest-only]')) element.remove();
    root.firstElementChild?.setAttribute('data-boot-ready', '');
  };
  // Starts the app once the frame is on screen: the main script and what it imports, the texts it
  // needs first (the visitor's locale and the ja-JP fallback) and, on the market list, that page's
  // code are all requested at once, one frame after the frame's first paint, so that paint never
  // waits for them, however fast they would arrive.
  const start = () => {
    const run = () => {
      for (const file of new Set([...boot.entryFiles, ...files])) {
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = file;
        document.head.appendChild(link);
      }
      if (!boot.entry) return;
      const script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = boot.entry;
      document.head.appendChild(script);
    };
    if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(run));
    else run();
  };
  window.__bourseBoot = { fill, start };
})();
