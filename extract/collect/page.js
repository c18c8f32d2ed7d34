// collect/page.js — part of collect.js, brandpack's one in-page evaluation
// (collect.go joins the parts, in order, inside one function of opts).
// The page at a glance: shared helpers, open shadow roots, the colour probe,
// the scheme and the dark pass's toggles, metadata, manifest and icons.
  const doc = document;
  const maxText = opts.maxText || 5000;
  const maxElems = opts.maxElems || 6000;
  const maxSVG = opts.maxSVG || 150000;
  const vw = window.innerWidth || 1280;
  const vh = window.innerHeight || 800;
  const sx = window.scrollX || 0;
  const sy = window.scrollY || 0;

  const abs = (u) => {
    if (!u) return '';
    try { return new URL(u, doc.baseURI).href; } catch (e) { return ''; }
  };
  const clip = (s, n) => (s || '').replace(/\s+/g, ' ').trim().slice(0, n);
  const attr = (el, name) => (el && el.getAttribute && el.getAttribute(name)) || '';
  const meta = (sel) => {
    const el = doc.querySelector(sel);
    return el ? clip(el.getAttribute('content'), 500) : '';
  };

  // Open shadow roots (web-component headers): walked like the document.
  const shadowRoots = [];
  const findRoots = (root, depth) => {
    if (depth > 4 || shadowRoots.length > 60) return;
    const els = root.querySelectorAll('*');
    for (let i = 0; i < els.length && i < 20000; i++) {
      const sr = els[i].shadowRoot;
      if (sr && shadowRoots.length <= 60) { shadowRoots.push(sr); findRoots(sr, depth + 1); }
    }
  };
  try { findRoots(doc, 0); } catch (e) { /* ignore */ }
  const queryAll = (sel) => {
    let list = Array.from(doc.querySelectorAll(sel));
    for (const r of shadowRoots) list = list.concat(Array.from(r.querySelectorAll(sel)));
    return list;
  };
  // closest() that crosses shadow boundaries up to the hosts.
  const closestDeep = (el, sel) => {
    for (let e = el; e;) {
      const hit = e.closest(sel);
      if (hit) return hit;
      const r = e.getRootNode();
      e = r && r.host ? r.host : null;
    }
    return null;
  };

  // A probe element turns any authored colour into Chromium's computed form.
  const probe = doc.createElement('span');
  probe.style.display = 'none';
  (doc.body || doc.documentElement).appendChild(probe);
  const normColor = (v) => {
    v = (v || '').trim();
    if (!v || v.length > 200) return '';
    try {
      if (!CSS.supports('color', v)) return '';
      probe.style.color = '';
      probe.style.color = v;
      return getComputedStyle(probe).color;
    } catch (e) { return ''; }
  };

  // The page's scheme at a glance: html/body and the painted background
  // behind the middle of the first screen, with their text colours.
  const schemeKey = () => {
    const r = getComputedStyle(doc.documentElement);
    const b = doc.body ? getComputedStyle(doc.body) : r;
    const parts = [r.backgroundColor, r.color, b.backgroundColor, b.color];
    let el = doc.elementFromPoint(vw / 2, Math.min(vh / 2, 240));
    if (el) parts.push(getComputedStyle(el).color);
    for (; el && el !== doc.documentElement; el = el.parentElement) {
      const c = getComputedStyle(el).backgroundColor;
      if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') { parts.push(c); break; }
    }
    return parts.join('|');
  };
  // CSS transitions started by a scheme change jump to their end, so
  // computed styles show the new scheme at once.
  const finishTransitions = () => {
    try {
      doc.getAnimations().forEach((a) => {
        if (typeof CSSTransition !== 'undefined' && a instanceof CSSTransition) { try { a.finish(); } catch (e) { /* infinite */ } }
      });
    } catch (e) { /* no Web Animations */ }
  };
  // Dark pass (opts.dark, see collect.go): the observer already emulates
  // prefers-color-scheme: dark when the page has such rules; here each
  // class/attribute toggle is tried on html/body alone, the first that
  // changes the scheme is kept, and only the colour evidence is read.
  const undo = [];
  let darkHow = '';
  let darkToggle = null;
  if (opts.dark) {
    finishTransitions();
    const kMedia = schemeKey();
    for (const t of (opts.dark.toggles || []).slice(0, 12)) {
      const el = t.on === 'body' ? doc.body : doc.documentElement;
      if (!el || !t.value) continue;
      let revert;
      if (t.attr === 'class') {
        if (el.classList.contains(t.value)) continue;
        el.classList.add(t.value);
        revert = () => el.classList.remove(t.value);
      } else {
        const prev = el.getAttribute(t.attr);
        if (prev === t.value) continue;
        el.setAttribute(t.attr, t.value);
        revert = () => (prev === null ? el.removeAttribute(t.attr) : el.setAttribute(t.attr, prev));
      }
      finishTransitions();
      if (schemeKey() !== kMedia) { undo.push(revert); darkHow = 'toggle'; darkToggle = t; break; }
      revert();
    }
    if (!darkHow && opts.dark.media && kMedia !== opts.dark.lightKey) darkHow = 'media';
    if (!darkHow) { probe.remove(); finishTransitions(); return JSON.stringify(null); }
  }

  const out = {
    url: location.href,
    title: clip(doc.title, 300),
    lang: attr(doc.documentElement, 'lang'),
    viewport: { w: vw, h: vh },
    meta: {
      themeColor: [], tileColor: normColor(meta('meta[name="msapplication-TileColor" i]')),
      ogSiteName: meta('meta[property="og:site_name"]'),
      appName: meta('meta[name="application-name"]') || meta('meta[name="apple-mobile-web-app-title"]'),
      ogTitle: meta('meta[property="og:title"]'),
      ogImage: abs(meta('meta[property="og:image"]') || meta('meta[property="og:image:url"]') || meta('meta[name="twitter:image"]')),
      twitterImage: abs(meta('meta[name="twitter:image"]') || meta('meta[property="twitter:image"]') || meta('meta[name="twitter:image:src"]')),
      description: meta('meta[name="description"]'),
      ogDescription: meta('meta[property="og:description"]') || meta('meta[name="twitter:description"]'),
      ogLocale: meta('meta[property="og:locale"]'),
      manifest: '',
    },
    icons: [], jsonLd: [], rootVars: [], colors: {}, fonts: {}, fontFaces: [],
    stylesheets: [], logos: [], text: '', body: {}, html: {}, overlays: 0,
  };

  doc.querySelectorAll('meta[name="theme-color" i]').forEach((m) => {
    const media = attr(m, 'media');
    const c = normColor(attr(m, 'content'));
    if (c) out.meta.themeColor.push({ c, media });
  });
  const man = doc.querySelector('link[rel~="manifest" i]');
  if (man) out.meta.manifest = abs(attr(man, 'href'));

  doc.querySelectorAll('link[rel]').forEach((l) => {
    const rel = attr(l, 'rel').toLowerCase();
    if (!/(^|\s)(icon|apple-touch-icon|apple-touch-icon-precomposed|mask-icon|fluid-icon)(\s|$)/.test(rel)) return;
    out.icons.push({
      rel, href: abs(attr(l, 'href')), sizes: attr(l, 'sizes'), type: attr(l, 'type'),
      color: normColor(attr(l, 'color')),
    });
  });

