// collect.js — brandpack's one in-page evaluation. It reads what the page
// renders (computed styles, metadata, logo candidates, fonts, visible copy)
// and returns it as one JSON string; all judgement happens in Go.
// It must not navigate, fetch or mutate the page beyond a temporary probe.
(opts) => {
  'use strict';
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

  // JSON-LD: organisation names and logos.
  doc.querySelectorAll('script[type="application/ld+json" i]').forEach((s) => {
    let data;
    try { data = JSON.parse(s.textContent); } catch (e) { return; }
    const seen = [];
    const walk = (o, depth) => {
      if (!o || typeof o !== 'object' || depth > 6 || seen.length > 200) return;
      seen.push(o);
      if (Array.isArray(o)) { o.forEach((x) => walk(x, depth + 1)); return; }
      const type = [].concat(o['@type'] || []).join(' ');
      if (/Organization|Corporation|Brand|LocalBusiness|Store|Company|NGO|WebSite/i.test(type)) {
        let logo = o.logo || '';
        if (logo && typeof logo === 'object') logo = logo.url || logo.contentUrl || logo['@id'] || '';
        const sameAs = [].concat(o.sameAs || []).filter((u) => typeof u === 'string').slice(0, 20).map((u) => clip(abs(u), 300));
        out.jsonLd.push({ type: clip(type, 80), name: clip(typeof o.name === 'string' ? o.name : '', 120), logo: typeof logo === 'string' ? abs(logo) : '', sameAs });
      }
      for (const k in o) if (k !== 'logo') walk(o[k], depth + 1);
    };
    walk(data, 0);
  });

  // Links to other sites from the header, the footer or marked rel=me (social
  // profiles are judged from these): absolute URL, where, rel.
  out.outLinks = [];
  for (const a of doc.querySelectorAll('a[href]')) {
    if (out.outLinks.length >= 80) break;
    let u;
    try { u = new URL(attr(a, 'href'), location.href); } catch (e) { continue; }
    if (!/^https?:$/.test(u.protocol) || u.host === location.host) continue;
    const rel = attr(a, 'rel').toLowerCase();
    const where = closestDeep(a, 'footer,[role=contentinfo],[class*=footer i],[id*=footer i]') ? 'footer'
      : (closestDeep(a, 'header,nav,[role=banner],[role=navigation]') ? 'header' : '');
    if (!where && !/(^|\s)me(\s|$)/.test(rel)) continue;
    out.outLinks.push({ href: clip(u.href, 300), where, rel: clip(rel, 60) });
  }

  // Custom properties declared on :root / html / body (same-origin sheets).
  const varNames = new Set();
  const fontFaces = [];
  const rootSel = /(^|,)\s*(:root|html|body)(\s*\[[^\]]*\])?\s*(,|$)/i;
  // Dark-scheme hints: rules under a prefers-color-scheme: dark media
  // query, and dark themes toggled by a class or attribute on html/body
  // (the observer emulates and toggles them afterwards, see collect.go).
  const dark = { media: 0, toggles: [], unreadable: 0 };
  const darkWord = /dark|night|slate|black|dim/i;
  // A theme class names the scheme, not a component's colour: dark,
  // dark-mode, theme-dark, night-theme, is-dark … (never bg-dark, btn-dark).
  const themeClass = /^((theme|scheme|mode|is|color-scheme|colou?r-mode)[-_])?(dark|night|dim)([-_]?(mode|theme|scheme))?$/i;
  const themeAttr = /^(data-[\w-]*(theme|scheme|mode|colou?r|appearance)[\w-]*|theme|class)$/i;
  const addToggle = (t) => {
    if (dark.toggles.length >= 6) return;
    if (!dark.toggles.find((x) => x.on === t.on && x.attr === t.attr && x.value === t.value)) dark.toggles.push(t);
  };
  const scanDarkSelector = (sel) => {
    for (const part of sel.split(',').slice(0, 20)) {
      // The first compound of the selector: html.dark, :root[data-theme="dark"], .dark, body.theme-dark …
      const m = /^\s*(html|:root|body)?((?:\.[\w-]+|\[[^\]]+\]|:not\([^)]*\)|:where\([^)]*\)|:is\([^)]*\))+)/i.exec(part);
      if (!m) continue;
      const on = (m[1] || '').toLowerCase() === 'body' ? 'body' : 'html';
      const compound = m[2].replace(/:(not|where|is)\([^)]*\)/gi, '');
      for (const c of compound.match(/\.[\w-]+/g) || []) {
        if (themeClass.test(c.slice(1))) addToggle({ on, attr: 'class', value: c.slice(1) });
      }
      for (const a of compound.match(/\[[^\]]+\]/g) || []) {
        const am = /^\[\s*([\w-]+)\s*[~|^$*]?=\s*["']?([\w-]+)["']?\s*(i|s)?\s*\]$/.exec(a);
        if (am && themeAttr.test(am[1]) && darkWord.test(am[2]) && !/light/i.test(am[2])) {
          addToggle(am[1].toLowerCase() === 'class' ? { on, attr: 'class', value: am[2] } : { on, attr: am[1].toLowerCase(), value: am[2] });
        }
      }
    }
  };
  const walkRules = (rules, depth) => {
    if (!rules || depth > 4) return;
    for (let i = 0; i < rules.length && i < 5000; i++) {
      const r = rules[i];
      if (r.type === 1 && r.selectorText && darkWord.test(r.selectorText)) scanDarkSelector(r.selectorText);
      if (r.type === 1 && r.selectorText && rootSel.test(r.selectorText)) {
        for (let j = 0; j < r.style.length; j++) {
          const p = r.style[j];
          if (p.startsWith('--')) varNames.add(p);
        }
      } else if (r.type === 3) { // CSSImportRule
        if (r.href) out.stylesheets.push(abs(r.href));
        try { if (r.styleSheet) walkRules(r.styleSheet.cssRules, depth + 1); } catch (e) { dark.unreadable++; }
      } else if (r.type === 4 && r.media && /prefers-color-scheme\s*:\s*dark/i.test(r.media.mediaText)) {
        dark.media++;
        walkRules(r.cssRules, depth + 1);
      } else if (r.type === 5) { // CSSFontFaceRule
        fontFaces.push({
          family: clip(r.style.getPropertyValue('font-family'), 120),
          src: clip(r.style.getPropertyValue('src'), 600),
        });
      } else if (r.cssRules) {
        walkRules(r.cssRules, depth + 1);
      }
    }
  };
  for (const sheet of Array.from(doc.styleSheets).slice(0, 200)) {
    out.stylesheets.push(sheet.href || '');
    let rules = null;
    try { rules = sheet.cssRules; } catch (e) { dark.unreadable++; continue; } // cross-origin
    if (sheet.media && /prefers-color-scheme\s*:\s*dark/i.test(sheet.media.mediaText)) dark.media++;
    walkRules(rules, 0);
  }
  if (dark.media || dark.toggles.length || dark.unreadable) out.darkHints = Object.assign(dark, { lightKey: opts.dark ? '' : schemeKey() });
  doc.querySelectorAll('link[href*="fonts.googleapis.com"],link[href*="fonts.bunny.net"],link[href*="use.typekit.net"]').forEach((l) => {
    out.stylesheets.push(abs(attr(l, 'href')));
  });
  out.stylesheets = out.stylesheets.slice(0, 300);
  const rootCS = getComputedStyle(doc.documentElement);
  const bodyCS = doc.body ? getComputedStyle(doc.body) : rootCS;
  for (const name of Array.from(varNames).slice(0, 400)) {
    const raw = (rootCS.getPropertyValue(name) || bodyCS.getPropertyValue(name)).trim();
    const c = normColor(raw);
    if (c) out.rootVars.push({ name, c });
  }
  out.fontFaces = fontFaces.slice(0, 100);
  try {
    doc.fonts.forEach((f) => {
      if (out.fontFaces.length < 150) out.fontFaces.push({ family: clip(f.family, 120), src: '', api: true });
    });
  } catch (e) { /* no FontFaceSet */ }

  out.html = { bg: rootCS.backgroundColor, color: rootCS.color, font: rootCS.fontFamily };
  out.body = { bg: bodyCS.backgroundColor, color: bodyCS.color, font: bodyCS.fontFamily, weight: bodyCS.fontWeight };

  // Overlays: fixed/sticky consent or banner layers are not the brand.
  const overlayRE = /cookie|consent|gdpr|ccpa|\bcmp\b|cmp[-_]|onetrust|didomi|usercentrics|cookiebot|truste|quantcast|banner|modal|popup|newsletter-?signup/i;
  const consentRE = /cookie|consent|gdpr|ccpa|\bcmp\b|cmp[-_]|onetrust|didomi|usercentrics|cookiebot/i;
  const ident = (el) => [el.id, typeof el.className === 'string' ? el.className : attr(el, 'class'), attr(el, 'aria-label'), attr(el, 'data-testid')].join(' ');
  // Chat launchers and partner/press logo walls are somebody else's colours.
  const chatRE = /chat|intercom|drift|crisp|tawk|zendesk|livechat|launcher|helpscout|hubspot-messages|messenger/i;
  const wallRE = /partner|sponsor|as-seen|as-heard|as heard|as seen|trusted-?by|trusted by|logo-?(wall|cloud|strip|grid|garden)|client-?logos|press-?logos|featured-?in|featured in/i;
  const isOverlayRoot = (el, cs) => {
    const id = ident(el);
    const pos = cs.position;
    const floating = pos === 'fixed' || pos === 'sticky';
    if (/^(SECTION|ASIDE|DIV|UL|FOOTER)$/.test(el.tagName) && wallRE.test(id)) return true;
    if (floating) {
      if (/^(HEADER|NAV)$/.test(el.tagName) || attr(el, 'role') === 'banner') return consentRE.test(id);
      return overlayRE.test(id) || chatRE.test(id);
    }
    const role = attr(el, 'role');
    return consentRE.test(id) && (role === 'dialog' || role === 'alertdialog' || attr(el, 'aria-modal') === 'true');
  };

  // Colour evidence aggregated by (computed colour, role).
  const colors = {};
  const addColor = (c, role, w, top) => {
    if (!c || w <= 0 || c === 'rgba(0, 0, 0, 0)' || c === 'transparent') return;
    const k = role + '|' + c;
    const e = colors[k] || (colors[k] = { c, role, w: 0, n: 0, top: 1e9 });
    e.w += w; e.n += 1; if (top < e.top) e.top = top;
  };
  // Code paints a syntax theme's colours, not the brand's. A block (pre,
  // a highlighter's box, a .highlight wrapper whose own child is a pre)
  // gives no colour; inline code (code, kbd, samp, tt) keeps only a text
  // colour it inherits (a cross-reference written as <a><code> is the
  // page's link colour). A pre that is most of the page (text-art pages)
  // is the page, not code.
  const noColour = () => {};
  const blockSel = 'pre,.hljs,.codehilite,.prettyprint,.sourceCode,.CodeMirror';
  const pageH = Math.max(doc.documentElement.scrollHeight, 1);
  const isPagePre = (b) => {
    if (b.tagName !== 'PRE') return false;
    const r = b.getBoundingClientRect();
    return r.height >= 0.6 * pageH && r.width >= 0.6 * vw;
  };
  const codeOf = (el) => {
    const b = closestDeep(el, blockSel);
    if (b && !isPagePre(b)) return 'block';
    const h = closestDeep(el, '.highlight,.highlighter-rouge');
    if (h && !/^(HTML|BODY|MAIN)$/.test(h.tagName) && h.querySelector(':scope > pre, :scope > .highlight > pre')) return 'block';
    return closestDeep(el, 'code,kbd,samp,tt') ? 'inline' : '';
  };
  const fonts = {};
  const addFont = (family, role, weight, chars) => {
    const k = role + '|' + family;
    const e = fonts[k] || (fonts[k] = { family, role, chars: 0, weights: {} });
    e.chars += chars; e.weights[weight] = (e.weights[weight] || 0) + chars;
  };

  const ctaRE = /(^|[\s_-])(btn|button|cta|call-to-action)([\s_-]|$)/i;
  const isHomeHref = (a) => {
    if (!a) return false;
    const h = attr(a, 'href');
    if (!h) return false;
    let u;
    try { u = new URL(h, doc.baseURI); } catch (e) { return false; }
    if (u.hostname.replace(/^www\./, '') !== location.hostname.replace(/^www\./, '')) return false;
    const p = u.pathname.replace(/\/index\.(html?|php)$/, '/');
    return p === '/' || p === location.pathname || /^\/[a-z]{2}([-_][a-z]{2})?\/?$/i.test(p);
  };
  const effectiveBg = (el) => {
    for (let e = el.parentElement; e; e = e.parentElement) {
      const b = getComputedStyle(e).backgroundColor;
      if (b && b !== 'rgba(0, 0, 0, 0)' && b !== 'transparent') return b;
    }
    return '';
  };
  const isCTA = (el, cs, rect) => {
    const tag = el.tagName;
    if (tag === 'BUTTON' || attr(el, 'role') === 'button') return true;
    if (tag === 'INPUT') return /^(submit|button)$/i.test(attr(el, 'type'));
    if (tag !== 'A') return false;
    if (ctaRE.test(typeof el.className === 'string' ? el.className : '')) return true;
    // A link painted like a button: own background unlike what is behind it, padded.
    const bg = cs.backgroundColor;
    if (!bg || bg === 'rgba(0, 0, 0, 0)') return false;
    const pad = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
    return pad >= 12 && rect.height >= 24 && bg !== effectiveBg(el);
  };

  // The painted background behind an element (its own or its nearest
  // painted ancestor's; '' when nothing paints up to the root), memoised.
  const bgMemo = new Map();
  const paintedBg = (e) => {
    if (!e || e === doc.documentElement) return '';
    if (bgMemo.has(e)) return bgMemo.get(e);
    const b = getComputedStyle(e).backgroundColor;
    const v = (b && b !== 'rgba(0, 0, 0, 0)' && b !== 'transparent') ? b : paintedBg(e.parentElement);
    bgMemo.set(e, v);
    return v;
  };
  const textBg = {};
  const textParts = [];
  let textLen = 0;
  let all = doc.body ? Array.from(doc.body.getElementsByTagName('*')) : [];
  for (const r of shadowRoots) all = all.concat(Array.from(r.querySelectorAll('*')));
  let ovRoot = null;
  const n = Math.min(all.length, maxElems);
  const visit = (el) => {
    const tag = el.tagName;
    if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|META|LINK|HEAD|TITLE|BR|IFRAME|OBJECT|EMBED)$/.test(tag)) return;
    if (el.closest('svg') && tag.toLowerCase() !== 'svg') return;
    if (ovRoot && !ovRoot.contains(el)) ovRoot = null;
    if (tag === 'STYLE' || tag === 'SLOT') return;
    const cs = getComputedStyle(el);
    if (!ovRoot && isOverlayRoot(el, cs)) { ovRoot = el; out.overlays++; }
    if (cs.display === 'none' || cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) return;
    const rect = el.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1) return;
    const top = rect.top + sy;
    let own = 0;
    for (const ch of el.childNodes) if (ch.nodeType === 3) own += ch.nodeValue.trim().length;
    const overlay = !!ovRoot;
    const pre = overlay ? 'overlay-' : '';
    const code = codeOf(el);
    const addC = code ? noColour : addColor;
    const addT = code === 'block' || (code === 'inline' && el.parentElement &&
      cs.color !== getComputedStyle(el.parentElement).color) ? noColour : addColor;
    const heading = /^H[1-6]$/.test(tag) || !!closestDeep(el, 'h1,h2,h3,h4,h5,h6');
    const inHeader = !!closestDeep(el, 'header,nav,[role=banner],[role=navigation]');
    const inFooter = !!closestDeep(el, 'footer,[role=contentinfo]');
    const isHeaderEl = /^(HEADER|NAV)$/.test(tag) || /^(banner|navigation)$/.test(attr(el, 'role'));
    const isFooterEl = tag === 'FOOTER' || attr(el, 'role') === 'contentinfo';
    const cta = isCTA(el, cs, rect);
    const anchor = el.closest('a');
    const link = !cta && !!anchor && !anchor.matches('[class*=btn],[class*=button]');
    const area = Math.min(rect.width * rect.height, vw * vh) / (vw * vh);
    const prominence = top < vh ? 1.25 : 1;

    // Backgrounds.
    const bg = cs.backgroundColor;
    if (cta) addC(bg, pre + 'cta-bg', prominence, top);
    else if (isHeaderEl) addC(bg, pre + 'header-bg', 1, top);
    else if (isFooterEl) addC(bg, pre + 'footer-bg', 1, top);
    else if (rect.width * rect.height >= 150) addC(bg, pre + 'bg', area, top);
    // Gradient fills paint with their stops (a gradient header, hero or
    // button): each stop counts like the background, at half the weight.
    const bgi = cs.backgroundImage || '';
    if (bgi.includes('gradient') && rect.width * rect.height >= 150) {
      const stops = (bgi.match(/rgba?\([^)]*\)/g) || []).slice(0, 4);
      const role = cta ? 'cta-bg' : isHeaderEl ? 'header-bg' : isFooterEl ? 'footer-bg' : 'bg';
      for (const c of stops) addC(c, pre + role, role === 'bg' ? area / 2 : 0.5, top);
    }

    // Text colour.
    if (own > 0) {
      let role = 'text';
      if (cta) role = 'cta-text';
      else if (heading) role = 'heading-text';
      else if (link) role = inHeader ? 'nav-text' : (inFooter ? 'footer-text' : 'link-text');
      addT(cs.color, pre + role, role === 'text' ? own : 1, top);
      if (!ovRoot && !code) {
        const b = paintedBg(el);
        textBg[b] = (textBg[b] || 0) + own;
      }
    }

    // Borders (underlines, rules, outlines). A button's border counts once
    // per button, and not at all when it only repeats its background.
    for (const side of ['Top', 'Right', 'Bottom', 'Left']) {
      const bw = parseFloat(cs['border' + side + 'Width']);
      const style = cs['border' + side + 'Style'];
      const color = cs['border' + side + 'Color'];
      if (!(bw >= 1) || style === 'none' || style === 'hidden') continue;
      if (cta) {
        if (color !== bg) addC(color, pre + 'cta-border', 0.25 * prominence, top);
        continue;
      }
      const len = (side === 'Top' || side === 'Bottom') ? rect.width : rect.height;
      addC(color, pre + (inHeader ? 'nav-border' : 'border'), Math.min(1, (bw * len) / (vw * 4)), top);
    }

    // Fonts and copy (never from overlays).
    if (own > 0 && !overlay) {
      const fw = parseInt(cs.fontWeight, 10) || 400;
      addFont(cs.fontFamily, heading ? 'heading' : (cta || inHeader ? 'ui' : 'text'), fw, own);
      if (textLen < maxText) {
        let t = '';
        for (const ch of el.childNodes) if (ch.nodeType === 3) t += ch.nodeValue;
        t = t.replace(/\s+/g, ' ').trim();
        if (t) { textParts.push(t); textLen += t.length + 1; }
      }
    }
  };
  for (let i = 0; i < n; i++) {
    try { visit(all[i]); } catch (e) { /* one odd element must not spoil the page */ }
  }
  out.colors = Object.values(colors).slice(0, 600);
  out.textBg = Object.entries(textBg).map(([c, chars]) => ({ c, chars })).sort((a, b) => b.chars - a.chars).slice(0, 20);
  if (opts.dark) {
    probe.remove();
    undo.forEach((f) => f());
    finishTransitions();
    return JSON.stringify({
      how: darkHow, toggle: darkToggle, rootVars: out.rootVars, colors: out.colors,
      textBg: out.textBg, body: out.body, html: out.html,
    });
  }
  out.fonts = Object.values(fonts).slice(0, 200);
  out.text = textParts.join('\n').slice(0, maxText);

  // Logo candidates.
  const brandish = (el) => {
    const a = closestDeep(el, 'a');
    const parts = [];
    for (let e = el, d = 0; e && d < 3; e = e.parentElement, d++) parts.push(ident(e));
    return {
      ident: clip(parts.join(' '), 400),
      linkLabel: clip(a ? (attr(a, 'aria-label') || attr(a, 'title')) : '', 200),
      inHomeLink: isHomeHref(a),
      inHeader: !!closestDeep(el, 'header,nav,[role=banner],[role=navigation],[class*=header i],[id*=header i],[class*=navbar i]'),
      inFooter: !!closestDeep(el, 'footer,[role=contentinfo],[class*=footer i],[id*=footer i]'),
      inButton: !!closestDeep(el, 'button,[role=button]'),
      inOverlay: (() => { for (let e = el; e; e = e.parentElement || (e.getRootNode() && e.getRootNode().host) || null) { if (isOverlayRoot(e, getComputedStyle(e))) return true; } return false; })(),
      siblings: el.parentElement && el.parentElement.parentElement ? el.parentElement.parentElement.querySelectorAll('img,svg').length : 0,
    };
  };
  const box = (el) => {
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    return {
      x: Math.round(r.left + sx), y: Math.round(r.top + sy), w: Math.round(r.width), h: Math.round(r.height),
      visible: r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none' && parseFloat(cs.opacity) > 0,
    };
  };
  const firstSrc = (srcset) => {
    if (!srcset) return '';
    let best = '', bestW = -1;
    srcset.split(/,\s+/).forEach((part) => {
      const bits = part.trim().split(/\s+/);
      const w = parseFloat(bits[1]) || 1;
      if (bits[0] && w > bestW) { best = bits[0]; bestW = w; }
    });
    return abs(best);
  };

  const imgs = queryAll('img').slice(0, 250);
  const safely = (fn) => { try { fn(); } catch (e) { /* skip this candidate */ } };
  for (const img of imgs) safely(() => {
    const c = Object.assign({ kind: 'img' }, box(img), brandish(img));
    c.src = img.currentSrc || abs(attr(img, 'src'));
    const lazy = attr(img, 'data-src') || attr(img, 'data-lazy-src') || attr(img, 'data-original');
    if (lazy && (!c.src || c.src.startsWith('data:image/gif') || /placeholder|blank|spacer/i.test(c.src))) c.src = abs(lazy);
    if (!c.src) c.src = firstSrc(attr(img, 'srcset') || attr(img, 'data-srcset'));
    c.alt = clip(attr(img, 'alt'), 200);
    c.title = clip(attr(img, 'title'), 200);
    c.nw = img.naturalWidth || 0; c.nh = img.naturalHeight || 0;
    const pic = img.parentElement && img.parentElement.tagName === 'PICTURE' ? img.parentElement : null;
    if (pic) {
      pic.querySelectorAll('source').forEach((s) => {
        if (/prefers-color-scheme\s*:\s*dark/i.test(attr(s, 'media'))) c.darkSrc = firstSrc(attr(s, 'srcset'));
        else if (/prefers-color-scheme\s*:\s*light/i.test(attr(s, 'media'))) c.lightSrc = firstSrc(attr(s, 'srcset'));
      });
    }
    if (c.src) out.logos.push(c);
  });

  // <object data="logo.svg" type="image/svg+xml"> and <embed src="…">: an
  // image drawn by a plugin-free embed is a candidate like an <img>.
  const imageURL = /\.(svg|png|jpe?g|gif|webp|avif)([?#]|$)/i;
  for (const ob of queryAll('object[data],embed[src]').slice(0, 30)) safely(() => {
    const url = attr(ob, 'data') || attr(ob, 'src');
    if (!/^image\//i.test(attr(ob, 'type')) && !imageURL.test(url)) return;
    const c = Object.assign({ kind: 'img' }, box(ob), brandish(ob));
    c.src = abs(url);
    c.alt = clip(attr(ob, 'alt') || attr(ob, 'aria-label') || ob.textContent, 200);
    c.title = clip(attr(ob, 'title'), 200);
    if (c.src) out.logos.push(c);
  });

  // Inline SVGs: serialise a clone with computed paint inlined so the stored
  // file looks like the page without the page's stylesheet.
  const paintProps = ['fill', 'stroke', 'stroke-width', 'opacity', 'fill-opacity', 'stroke-opacity'];
  const fontProps = ['font-family', 'font-weight', 'font-size'];
  const paintDefaults = { 'stroke': 'none', 'stroke-width': '1px', 'opacity': '1', 'fill-opacity': '1', 'stroke-opacity': '1' };
  const shapeRE = /^(path|circle|rect|ellipse|polygon|polyline|line|text|tspan|textpath|use)$/i;
  const textRE = /^(text|tspan|textpath)$/i;
  const svgs = queryAll('svg').filter((s) => !s.parentElement || !s.parentElement.closest('svg')).slice(0, 120);
  let markupBudget = opts.maxMarkup || 600000;
  for (const svg of svgs) safely(() => {
    const b = box(svg);
    if (!b.visible || b.w < 12 || b.h < 8) return;
    const c = Object.assign({ kind: 'svg' }, b, brandish(svg));
    const t = svg.querySelector('title');
    c.title = clip(t ? t.textContent : '', 200);
    c.alt = clip(attr(svg, 'aria-label'), 200);
    // An <svg> that only frames one <image href="logo.svg"> (no shapes of
    // its own; the whole image inside the frame, untransformed and not
    // sliced: not a crop of a sprite sheet) shows that file: it is a
    // candidate like an <img> of it, so the pack carries the file rather
    // than a wrapper around a link. A data: URL stays in the inline
    // candidate's markup.
    const drawn = (sel) => Array.from(svg.querySelectorAll(sel)).filter((s) => !s.closest('defs,clipPath,mask,pattern,symbol,marker'));
    const images = drawn('image');
    const href = images.length === 1 ? (attr(images[0], 'href') || attr(images[0], 'xlink:href')) : '';
    if (href && !/^data:/i.test(href) && !drawn('path,circle,rect,ellipse,polygon,polyline,line,text,use,foreignObject').length) {
      const im = images[0];
      let moved = /slice/i.test(attr(im, 'preserveAspectRatio'));
      for (let e = im; e && e !== svg; e = e.parentElement) moved = moved || !!attr(e, 'transform') || getComputedStyle(e).transform !== 'none';
      const ib = im.getBBox();
      const vb = svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width > 0 ? svg.viewBox.baseVal : { x: 0, y: 0, width: b.w, height: b.h };
      const inside = ib.x >= vb.x - 1 && ib.y >= vb.y - 1 && ib.x + ib.width <= vb.x + vb.width + 1 && ib.y + ib.height <= vb.y + vb.height + 1;
      const file = abs(href);
      if (inside && !moved && file) {
        c.kind = 'img';
        c.src = file;
        out.logos.push(c);
        return;
      }
    }
    // Only marks that could be the logo are serialised (bounded in total).
    const plausible = c.inHeader || c.inHomeLink || b.y < vh || /logo|brand/i.test(c.ident + ' ' + c.title + ' ' + c.alt + ' ' + c.linkLabel);
    if (!plausible || c.inOverlay || markupBudget <= 0) return;
    c.hasText = !!Array.from(svg.querySelectorAll('text')).find((x) => x.textContent.trim());
    c.externalUse = !!Array.from(svg.querySelectorAll('use')).find((u) => { const h = attr(u, 'href') || attr(u, 'xlink:href'); return h && !h.startsWith('#'); });
    const fills = {};
    const clone = svg.cloneNode(true);
    const src = Array.from(svg.querySelectorAll('*'));
    const dst = Array.from(clone.querySelectorAll('*'));
    for (let k = 0; k < src.length && k < 3000; k++) {
      const tag = src[k].tagName;
      if (!shapeRE.test(tag) || src[k].closest('defs,clipPath,mask,pattern,symbol,marker')) continue;
      const ecs = getComputedStyle(src[k]);
      const props = textRE.test(tag) ? paintProps.concat(fontProps) : paintProps;
      for (const p of props) {
        const v = ecs.getPropertyValue(p);
        if (v && paintDefaults[p] !== v) dst[k].setAttribute(p, v);
      }
      for (const p of ['fill', 'stroke']) {
        const f = ecs.getPropertyValue(p);
        if (f && f.startsWith('rgb')) fills[f] = (fills[f] || 0) + 1;
      }
    }
    // <use href="#id"> pointing at a sprite elsewhere in the page: carry the
    // referenced symbols along so the stored file stands alone.
    const carried = [];
    clone.querySelectorAll('use').forEach((u) => {
      const h = attr(u, 'href') || attr(u, 'xlink:href');
      if (!h || !h.startsWith('#') || h.length < 2) return;
      const id = h.slice(1);
      if (svg.querySelector('[id="' + CSS.escape(id) + '"]')) return;
      const ref = doc.getElementById(id);
      if (ref && ref.closest('svg') && !carried.includes(ref)) carried.push(ref);
    });
    if (carried.length) {
      const defs = doc.createElementNS('http://www.w3.org/2000/svg', 'defs');
      carried.forEach((r) => defs.appendChild(r.cloneNode(true)));
      clone.insertBefore(defs, clone.firstChild);
    }
    if (!attr(clone, 'width')) clone.setAttribute('width', String(b.w));
    if (!attr(clone, 'height')) clone.setAttribute('height', String(b.h));
    clone.removeAttribute('class');
    clone.removeAttribute('style');
    const html = clone.outerHTML;
    c.markup = html.length <= maxSVG ? html : '';
    markupBudget -= c.markup.length;
    c.fills = Object.keys(fills).slice(0, 20);
    out.logos.push(c);
  });

  // drawnBackground is where an element's first background image is drawn
  // when it is drawn once (no-repeat) at a size that is not the whole box:
  // {x, y, w, h, visible} in page pixels, or null (repeated, covering, or
  // its natural size unknown: the image is not in the page's cache).
  // Only an image the page already loaded is probed (collect.js must not
  // fetch): its size is then known at once from the cache.
  const naturalSize = (url) => {
    if (!performance.getEntriesByName(url).length) return null;
    const im = doc.createElement('img');
    im.src = url;
    return im.complete && im.naturalWidth > 0 && im.naturalHeight > 0 ? [im.naturalWidth, im.naturalHeight] : null;
  };
  const lengthOf = (v, room, auto) => {
    if (v === 'auto') return auto;
    if (/%$/.test(v)) return room * parseFloat(v) / 100;
    if (/px$/.test(v)) return parseFloat(v);
    return NaN;
  };
  const drawnBackground = (el) => {
    const cs = getComputedStyle(el);
    if (!/^no-repeat$/.test((cs.backgroundRepeat || '').split(',')[0].trim())) return null;
    const m = /url\(["']?([^"')]+)["']?\)/.exec(cs.backgroundImage || '');
    const nat = m ? naturalSize(abs(m[1])) : null;
    if (!nat) return null;
    const r = el.getBoundingClientRect();
    const size = (cs.backgroundSize || 'auto').split(',')[0].trim();
    if (/calc\(/.test(size) || /calc\(/.test(cs.backgroundPosition || '')) return null;
    let w, h;
    if (size === 'cover') return null;
    if (size === 'contain') {
      const k = Math.min(r.width / nat[0], r.height / nat[1]);
      w = nat[0] * k; h = nat[1] * k;
    } else {
      const bits = size.split(/\s+/);
      w = lengthOf(bits[0], r.width, NaN);
      h = lengthOf(bits[1] || 'auto', r.height, NaN);
      if (isNaN(w) && isNaN(h)) { w = nat[0]; h = nat[1]; }
      else if (isNaN(w)) w = h * nat[0] / nat[1];
      else if (isNaN(h)) h = w * nat[1] / nat[0];
    }
    if (!(w > 0 && h > 0) || (w >= r.width * 0.9 && h >= r.height * 0.9)) return null;
    const pos = (cs.backgroundPosition || '0% 0%').split(',')[0].trim().split(/\s+/);
    const ox = lengthOf(pos[0] || '0%', r.width - w, NaN);
    const oy = lengthOf(pos[1] || '50%', r.height - h, NaN);
    if (isNaN(ox) || isNaN(oy)) return null;
    const b = box(el);
    return { x: Math.round(b.x + ox), y: Math.round(b.y + oy), w: Math.round(Math.min(w, r.width)), h: Math.round(Math.min(h, r.height)), visible: b.visible };
  };

  // CSS background-image logos in the header ("a.logo { background: url(…) }").
  // A logo-named box often draws nothing itself: its link or span does
  // ("#logo a { background: url(logo.png) }"), so the first drawing
  // descendant stands in for it.
  const hasBG = (el) => /url\(/.test(getComputedStyle(el).backgroundImage || '');
  const bgLogo = [];
  for (const el of queryAll('[class*=logo i],[id*=logo i],[class*=brand i]').slice(0, 40)) {
    if (hasBG(el)) { bgLogo.push(el); continue; }
    const inner = Array.from(el.querySelectorAll(':scope > *, :scope > * > *')).slice(0, 8).find(hasBG);
    if (inner && !bgLogo.includes(inner)) bgLogo.push(inner);
  }
  // … and any mark-sized background image in the header or the top band
  // ("#header #site { background: url(…) }", a mascot beside the title):
  // the judge ranks them with the rest.
  // A large box (a hero, a jumbotron) is a backdrop unless its image is
  // drawn once at its own size: then the drawn rectangle is the candidate
  // ("a mascot at the right of the hero").
  const bgSeen = new Set(bgLogo);
  const drawnAt = new Map();
  let bgExtra = 0;
  for (const el of queryAll('header *,[role=banner] *,[id*=header i] *,[class*=header i] *,body > *,body > * > *,body > * > * > *')) {
    if (bgExtra >= 12 || bgSeen.has(el)) continue;
    const bi = getComputedStyle(el).backgroundImage || '';
    if (!/url\(/.test(bi) || /gradient/.test(bi)) continue;
    const r = el.getBoundingClientRect();
    if (r.top + sy > 400 || r.width < 24 || r.height < 16) continue;
    if (r.height > 400 || (r.width > 900 && r.height > 200 && !closestDeep(el, 'header,[role=banner],[id*=header i],[class*=header i]'))) {
      let d = null;
      try { d = drawnBackground(el); } catch (e) { d = null; }
      if (!d || d.y > 400 || d.w > 600 || d.h > 400) continue;
      drawnAt.set(el, d);
    }
    bgSeen.add(el);
    bgLogo.push(el);
    bgExtra++;
  }
  for (const el of bgLogo) safely(() => {
    const m = /url\(["']?([^"')]+)["']?\)/.exec(getComputedStyle(el).backgroundImage || '');
    if (!m) return;
    const c = Object.assign({ kind: 'bg' }, box(el), drawnAt.get(el) || {}, brandish(el));
    c.src = abs(m[1]);
    // A box's text labels its own background, not a mark drawn in a
    // corner of a hero.
    c.alt = clip(attr(el, 'aria-label') || (drawnAt.has(el) ? '' : el.textContent), 200);
    out.logos.push(c);
  });

  probe.remove();
  return JSON.stringify(out);
}
