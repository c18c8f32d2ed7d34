// collect/meta.js — part of collect.js, brandpack's one in-page evaluation
// (collect.go joins the parts, in order, inside one function of opts).
// Structured data, outbound links, custom properties, dark-scheme hints,
// web fonts, and the root and body styles.
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

