// settle.js — installed before any page script runs (Page.addScriptToEvaluateOnNewDocument).
// It lets brandpack tell when a page has settled without fixed sleeps:
// the time of the last DOM mutation, and the short timers still pending
// (a SPA that renders "in 600 ms", an interstitial that replaces itself
// "in 3 s"). Timers longer than 5 s, setInterval and timer chains deeper
// than 3 (tickers, carousels) are not waited for. It also records when a
// short timer last fired or a fetch last ended, and which fetches are in
// flight: a timer that starts a fetch (an interstitial fetching the real
// page) must not look quiet in the instant before Chromium reports the
// request to brandpack, nor in the instant between the answer and what the
// page renders from it.
// It never changes what a timer or a fetch does.
(() => {
  const key = Symbol.for('brandpack.settle');
  if (window[key]) return;
  const now = () => performance.now();
  const st = { lastMut: now(), lastFire: -1, pending: new Map(), fetches: new Map() };
  Object.defineProperty(window, key, { value: st, enumerable: false });
  try {
    new MutationObserver(() => { st.lastMut = now(); })
      .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  } catch (e) { /* no document yet: nothing to observe */ }
  const origSet = window.setTimeout;
  const origClear = window.clearTimeout;
  let depth = 0;
  const wrappedSet = function (fn, ms, ...args) {
    const delay = Number(ms) || 0;
    const mine = depth;
    if (typeof fn !== 'function' || delay > 5000 || mine >= 3) return origSet.apply(this, arguments);
    let id = 0;
    id = origSet.call(this, function () {
      st.pending.delete(id);
      depth = mine + 1;
      try { return fn.apply(this, args); } finally { depth = 0; st.lastFire = now(); }
    }, delay);
    st.pending.set(id, now() + delay);
    return id;
  };
  const wrappedClear = function (id) {
    st.pending.delete(id);
    return origClear.apply(this, arguments);
  };
  try {
    Object.defineProperty(wrappedSet, 'toString', { value: () => origSet.toString() });
    Object.defineProperty(wrappedClear, 'toString', { value: () => origClear.toString() });
  } catch (e) { /* ignore */ }
  window.setTimeout = wrappedSet;
  window.clearTimeout = wrappedClear;
  const origFetch = window.fetch;
  if (typeof origFetch === 'function') {
    let seq = 0;
    const wrappedFetch = function () {
      const id = ++seq;
      st.fetches.set(id, now());
      let p;
      try { p = origFetch.apply(this, arguments); } catch (e) { st.fetches.delete(id); throw e; }
      // What the page does with the answer (read the body, render it)
      // comes a few microtasks later: an ended fetch counts as a fire.
      const done = () => { st.fetches.delete(id); st.lastFire = now(); };
      p.then(done, done);
      return p;
    };
    try { Object.defineProperty(wrappedFetch, 'toString', { value: () => origFetch.toString() }); } catch (e) { /* ignore */ }
    window.fetch = wrappedFetch;
  }
})();
