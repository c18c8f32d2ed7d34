// design.js — brandpack's design-system observation, evaluated in the same
// loaded page right after collect.js (see design.go). It records raw
// computed styles of visible elements (type, spacing, radii, shadows,
// buttons, inputs, links, cards, status colours) with their painted area
// and position, and the :hover rules of readable stylesheets; all
// judgement happens in Go (extract/judge/design*.go). It must not
// navigate, fetch or change the page beyond a temporary probe element.
(opts) => {
  'use strict';
  const doc = document;
  const maxElems = opts.maxElems || 6000;
  const vw = window.innerWidth || 1280;
  const vh = window.innerHeight || 800;
  const sy = window.scrollY || 0;
  const clip = (s, n) => (s || '').replace(/\s+/g, ' ').trim().slice(0, n);
  const attr = (el, name) => (el && el.getAttribute && el.getAttribute(name)) || '';
  const px = (v) => { const f = parseFloat(v); return isFinite(f) ? Math.round(f * 100) / 100 : 0; };
  const clear = (c) => !c || c === 'rgba(0, 0, 0, 0)' || c === 'transparent';
  const ident = (el) => [el.id, typeof el.className === 'string' ? el.className : attr(el, 'class'), attr(el, 'role'), attr(el, 'aria-label'), attr(el, 'data-testid')].join(' ');

  // A probe turns an authored colour (var() already resolved) into Chromium's computed form.
  const probe = doc.createElement('span');
  probe.style.display = 'none';
  (doc.body || doc.documentElement).appendChild(probe);
  const normColor = (v) => {
    v = (v || '').trim();
    if (!v || v.length > 200 || /currentcolor|inherit|initial|unset|revert/i.test(v)) return '';
    try {
      if (!CSS.supports('color', v)) return '';
      probe.style.color = '';
      probe.style.color = v;
      return getComputedStyle(probe).color;
    } catch (e) { return ''; }
  };
  // var(--x, fallback) resolved against the element's own custom properties.
  const resolveVars = (v, cs, depth) => {
    if (!v || depth > 4 || v.indexOf('var(') < 0) return v;
    return resolveVars(v.replace(/var\(\s*(--[\w-]+)\s*(?:,\s*([^()]*(?:\([^()]*\))?[^()]*))?\)/g, (m, name, fb) => {
      const got = cs.getPropertyValue(name).trim();
      return got || (fb || '').trim();
    }), cs, depth + 1);
  };

  // The colour a declared value holds: itself, or the first colour token
  // of a shorthand ("2px solid #123", "#fff url(x.png)").
  const colorIn = (v) => {
    const whole = normColor(v);
    if (whole) return whole;
    const toks = (v || '').match(/(?:[a-z-]+\([^()]*\)|#[0-9a-f]{3,8}\b|[a-z]+)/gi) || [];
    for (const t of toks.slice(0, 12)) { const c = normColor(t); if (c) return c; }
    return '';
  };
  // :hover rules of readable stylesheets (selector without :hover, declared colours).
  const hover = [];
  let ruleBudget = 20000;
  const walk = (rules, depth) => {
    if (!rules || depth > 5) return;
    for (let i = 0; i < rules.length && ruleBudget > 0 && hover.length < 400; i++, ruleBudget--) {
      const r = rules[i];
      if (r.type === 1 && r.selectorText && r.selectorText.indexOf(':hover') >= 0) {
        const st = r.style;
        // A shorthand written with var() leaves its longhands empty in the
        // CSSOM: the shorthand's own text is kept then.
        const get = (names) => { for (const nm of names) { const v = st.getPropertyValue(nm); if (v) return v; } return ''; };
        const decl = { bg: get(['background-color', 'background']), color: get(['color']), border: get(['border-top-color', 'border-color', 'border-top', 'border']) };
        if (!decl.bg && !decl.color && !decl.border) continue;
        for (const part of r.selectorText.split(',').slice(0, 20)) {
          if (part.indexOf(':hover') < 0) continue;
          const base = part.replace(/:hover/g, '').trim();
          if (!base || /[>+~]$/.test(base)) continue;
          hover.push(Object.assign({ sel: base }, decl));
        }
      } else if (r.type === 3) {
        try { if (r.styleSheet) walk(r.styleSheet.cssRules, depth + 1); } catch (e) { /* cross-origin */ }
      } else if (r.cssRules && !(r.type === 4 && r.media && /prefers-color-scheme\s*:\s*dark|print/i.test(r.media.mediaText))) {
        walk(r.cssRules, depth + 1);
      }
    }
  };
  for (const sheet of Array.from(doc.styleSheets).slice(0, 200)) {
    if (sheet.media && /print/i.test(sheet.media.mediaText)) continue;
    try { walk(sheet.cssRules, 0); } catch (e) { /* cross-origin */ }
  }
  const hoverOf = (el, cs) => {
    let out = null;
    for (const h of hover) {
      let ok = false;
      try { ok = el.matches(h.sel); } catch (e) { ok = false; }
      if (!ok) continue;
      out = out || {};
      for (const k of ['bg', 'color', 'border']) {
        const c = h[k] ? colorIn(resolveVars(h[k], cs, 0)) : '';
        if (c) out[k] = c;
      }
    }
    return out && (out.bg || out.color || out.border) ? out : null;
  };

  // Overlays: cookie/consent layers wherever they sit; chat launchers and
  // other floating layers (modal, popup, newsletter) when fixed or sticky.
  // "cookie" alone is a consent layer only when it floats or is a dialog (a bakery sells cookies).
  const consentRE = /consent|gdpr|ccpa|\bcmp\b|cmp[-_]|onetrust|didomi|usercentrics|cookiebot|truste|quantcast|cookie[-_ ]?(banner|bar|notice|consent|law|policy|popup|modal|dialog|message|settings|accept|pref)/i;
  const cookieRE = /cookie/i;
  const chatRE = /chat|intercom|drift|crisp|tawk|zendesk|livechat|launcher|helpscout|hubspot-messages|messenger/i;
  const floatRE = /banner|modal|popup|newsletter-?signup|overlay|dialog/i;
  const ovMemo = new Map();
  const overlayOf = (el) => {
    if (!el || el === doc.body || el === doc.documentElement) return '';
    if (ovMemo.has(el)) return ovMemo.get(el);
    const id = ident(el);
    let kind = '';
    const pos = getComputedStyle(el).position;
    const floating = pos === 'fixed' || pos === 'sticky';
    const dialog = /^(dialog|alertdialog)$/.test(attr(el, 'role')) || attr(el, 'aria-modal') === 'true' || el.tagName === 'DIALOG';
    if (consentRE.test(id) || (cookieRE.test(id) && (floating || dialog))) kind = 'consent';
    else {
      if (floating && !/^(HEADER|NAV)$/.test(el.tagName) && chatRE.test(id)) kind = 'chat';
      else if (floating && !/^(HEADER|NAV)$/.test(el.tagName) && floatRE.test(id)) kind = 'overlay';
    }
    if (!kind) kind = overlayOf(el.parentElement);
    ovMemo.set(el, kind);
    return kind;
  };
  const bgMemo = new Map();
  const paintedBg = (e) => {
    if (!e) return '';
    if (bgMemo.has(e)) return bgMemo.get(e);
    const b = getComputedStyle(e).backgroundColor;
    const v = !clear(b) ? b : paintedBg(e.parentElement);
    bgMemo.set(e, v);
    return v;
  };

  const rootCS = getComputedStyle(doc.documentElement);
  const out = {
    rootFontPx: px(rootCS.fontSize), colorScheme: clip(rootCS.colorScheme, 40),
    text: [], spacing: [], radii: [], shadows: [], controls: [], status: [], hoverRules: hover.length,
  };
  const textAgg = {}, spaceAgg = {}, radiusAgg = {}, shadowAgg = {}, linkAgg = {}, statusAgg = {};
  const bump = (agg, k, init, w, top) => {
    const e = agg[k] || (agg[k] = Object.assign(init, { n: 0, w: 0, top: 1e9 }));
    e.n++; e.w += w; if (top < e.top) e.top = Math.round(top);
    return e;
  };
  const ctaRE = /(^|[\s_-])(btn|button|cta|call-to-action)([\s_-]|$)/i;
  const isButton = (el, cs, rect) => {
    const tag = el.tagName;
    if (tag === 'BUTTON' || attr(el, 'role') === 'button') return true;
    if (tag === 'INPUT') return /^(submit|button|reset)$/i.test(attr(el, 'type'));
    if (tag !== 'A') return false;
    if (ctaRE.test(typeof el.className === 'string' ? el.className : '')) return true;
    const pad = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight);
    return !clear(cs.backgroundColor) && pad >= 12 && rect.height >= 24 && cs.backgroundColor !== paintedBg(el.parentElement);
  };
  const statusRE = /(^|[\s_-])(success|valid|positive|warning|warn|caution|danger|error|invalid|negative|destructive|critical|info|notice|note|tip)([\s_-]|$)/i;
  // The widest border side that is drawn: its style and colour.
  const widest = (cs) => {
    let best = { w: 0, style: 'none', color: '' };
    for (const s of ['Top', 'Right', 'Bottom', 'Left']) {
      const w = px(cs['border' + s + 'Width']), st = cs['border' + s + 'Style'];
      if (w > best.w && st !== 'none' && st !== 'hidden') best = { w, style: st, color: cs['border' + s + 'Color'] };
    }
    return best;
  };
  const style = (el, cs) => ({
    bg: clear(cs.backgroundColor) ? '' : cs.backgroundColor, color: cs.color,
    bw: Math.max(px(cs.borderTopWidth), px(cs.borderRightWidth), px(cs.borderBottomWidth), px(cs.borderLeftWidth)),
    bs: widest(cs).style, bc: widest(cs).color, bwAll: ['Top', 'Right', 'Bottom', 'Left'].every((s) => px(cs['border' + s + 'Width']) >= 1 && cs['border' + s + 'Style'] !== 'none'),
    r: cs.borderTopLeftRadius, pad: [px(cs.paddingTop), px(cs.paddingRight), px(cs.paddingBottom), px(cs.paddingLeft)],
    fw: parseInt(cs.fontWeight, 10) || 400, fs: px(cs.fontSize), shadow: cs.boxShadow === 'none' ? '' : clip(cs.boxShadow, 400),
    deco: cs.textDecorationLine,
  });

  let all = doc.body ? Array.from(doc.body.getElementsByTagName('*')) : [];
  const n = Math.min(all.length, maxElems);
  let buttons = 0, inputs = 0, cards = 0;
  const visit = (el) => {
    const tag = el.tagName;
    if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|META|LINK|HEAD|TITLE|BR|SLOT)$/.test(tag)) return;
    if (el.closest('svg') && tag.toLowerCase() !== 'svg') return;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) return;
    const rect = el.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1 || rect.right <= 0 || rect.left >= vw) return;
    const top = rect.top + sy;
    const first = top < vh && rect.bottom + sy > 0;
    const area = Math.min(rect.width * rect.height, vw * vh);
    const ov = overlayOf(el);
    let own = 0;
    for (const ch of el.childNodes) if (ch.nodeType === 3) own += ch.nodeValue.trim().length;
    const where = el.closest('footer,[role=contentinfo],[class*=footer i],[id*=footer i]') ? 'footer' : (el.closest('header,nav,[role=banner],[role=navigation]') ? 'header' : '');
    const btn = isButton(el, cs, rect);
    const inBtn = btn || !!(el.parentElement && el.parentElement.closest('button,[role=button],a[class*=btn],a[class*=button]'));

    // Type: each element's own text, by level (nearest heading, code, small, or its tag).
    if (own > 0 && !ov) {
      const h = el.closest('h1,h2,h3,h4,h5,h6');
      const level = h ? h.tagName.toLowerCase() : (el.closest('code,pre,kbd,samp') ? 'code' : (el.closest('small') ? 'small' : tag.toLowerCase()));
      const ctx = inBtn ? 'button' : where;
      const lh = cs.lineHeight === 'normal' ? 0 : px(cs.lineHeight);
      const ls = cs.letterSpacing === 'normal' ? 0 : px(cs.letterSpacing);
      const t = { level, ctx, stack: clip(cs.fontFamily, 300), size: px(cs.fontSize), weight: parseInt(cs.fontWeight, 10) || 400, lh, ls };
      const k = [level, ctx, t.stack, t.size, t.weight, lh, ls].join('|');
      const e = bump(textAgg, k, Object.assign(t, { chars: 0, first: false }), own, top);
      e.chars += own; e.first = e.first || first;
    }
    if (ov) {
      if (btn && buttons < 80) { buttons++; out.controls.push(Object.assign({ kind: 'button', tag: tag.toLowerCase(), text: clip(el.innerText || el.value, 60), ident: clip(ident(el), 160), x: Math.round(rect.left), y: Math.round(top), w: Math.round(rect.width), h: Math.round(rect.height), first, overlay: ov, where, behind: paintedBg(el.parentElement) }, style(el, cs))); }
      return;
    }
    // Spacing: each distinct padding value of an element once, gaps, block margins.
    const seen = {};
    for (const s of ['Top', 'Right', 'Bottom', 'Left']) {
      const v = px(cs['padding' + s]);
      if (v > 0 && !seen[v]) { seen[v] = 1; bump(spaceAgg, 'pad|' + v, { kind: 'pad', px: v }, 1, top); }
    }
    if (/flex|grid/.test(cs.display)) {
      for (const g of new Set([px(cs.rowGap), px(cs.columnGap)])) if (g > 0) bump(spaceAgg, 'gap|' + g, { kind: 'gap', px: g }, 1, top);
    }
    for (const s of ['Top', 'Bottom']) {
      const v = px(cs['margin' + s]);
      if (v > 0) bump(spaceAgg, 'margin|' + v, { kind: 'margin', px: v }, 1, top);
    }
    // Radii of elements that paint something (background, border, shadow, image).
    const paints = !clear(cs.backgroundColor) || cs.borderTopStyle !== 'none' || cs.boxShadow !== 'none' || tag === 'IMG';
    if (paints) {
      const corners = [cs.borderTopLeftRadius, cs.borderTopRightRadius, cs.borderBottomRightRadius, cs.borderBottomLeftRadius];
      let r = '', best = 0;
      for (const c of corners) { const v = parseFloat(c) || 0; if (v > best) { best = v; r = c.split(' ')[0]; } }
      if (best > 0) bump(radiusAgg, r, { r, minSide: Math.round(Math.min(rect.width, rect.height)) }, area / (vw * vh), top);
    }
    if (cs.boxShadow && cs.boxShadow !== 'none') bump(shadowAgg, cs.boxShadow, { css: clip(cs.boxShadow, 400), tag: tag.toLowerCase() }, area / (vw * vh), top);

    // Components.
    const base = () => Object.assign({ tag: tag.toLowerCase(), text: clip(el.innerText || el.value || attr(el, 'placeholder'), 60), ident: clip(ident(el), 160), x: Math.round(rect.left), y: Math.round(top), w: Math.round(rect.width), h: Math.round(rect.height), first, overlay: '', where, behind: paintedBg(el.parentElement) }, style(el, cs));
    if (btn) {
      if (buttons < 80) { buttons++; const c = Object.assign({ kind: 'button' }, base()); const hv = hoverOf(el, cs); if (hv) c.hover = hv; out.controls.push(c); }
    } else if (/^(INPUT|TEXTAREA|SELECT)$/.test(tag) && !/^(hidden|checkbox|radio|range|color|file|image|submit|button|reset)$/i.test(attr(el, 'type'))) {
      if (inputs < 20) { inputs++; const c = Object.assign({ kind: 'input' }, base()); const hv = hoverOf(el, cs); if (hv) c.hover = hv; out.controls.push(c); }
    } else if (tag === 'A' && own > 0 && !inBtn) {
      const k = [where, cs.color, cs.textDecorationLine, cs.fontWeight].join('|');
      const e = bump(linkAgg, k, { kind: 'link', where, color: cs.color, deco: cs.textDecorationLine, fw: parseInt(cs.fontWeight, 10) || 400, chars: 0, first: false }, 0, top);
      e.chars += own; e.first = e.first || first;
      if (!e.hoverDone) { e.hoverDone = true; const hv = hoverOf(el, cs); if (hv) e.hover = hv; }
    } else if (cards < 40 && /^(DIV|ARTICLE|SECTION|LI|ASIDE|A)$/.test(tag) && rect.width >= 120 && rect.width <= vw * 0.7 && rect.height >= 60 && (el.innerText || '').trim().length > 0) {
      const behind = paintedBg(el.parentElement);
      const framed = (!clear(cs.backgroundColor) && cs.backgroundColor !== behind) || (cs.boxShadow !== 'none') ||
        ['Top', 'Right', 'Bottom', 'Left'].every((s) => px(cs['border' + s + 'Width']) >= 1 && cs['border' + s + 'Style'] !== 'none');
      const cls = typeof el.className === 'string' ? el.className : '';
      const repeated = framed && !!el.parentElement && Array.from(el.parentElement.children).slice(0, 60).some((s) => s !== el && s.tagName === el.tagName && (s.className || '') === cls);
      if (framed && (repeated || /card|tile|panel/i.test(cls))) { cards++; out.controls.push(Object.assign({ kind: 'card', repeated }, base(), { text: '' })); }
    }
    // Status colours: alerts, badges, form states named for them.
    const sm = statusRE.exec(ident(el));
    if (sm && (own > 0 || !clear(cs.backgroundColor))) {
      const word = sm[2].toLowerCase();
      const k = [word, cs.backgroundColor, cs.color, widest(cs).color].join('|');
      bump(statusAgg, k, { word, bg: clear(cs.backgroundColor) ? '' : cs.backgroundColor, color: cs.color, bc: widest(cs).color }, area / (vw * vh), top);
    }
  };
  for (let i = 0; i < n; i++) {
    try { visit(all[i]); } catch (e) { /* one odd element must not spoil the page */ }
  }
  const top = (agg, k) => Object.values(agg).sort((a, b) => b.n - a.n).slice(0, k);
  out.text = Object.values(textAgg).sort((a, b) => b.chars - a.chars).slice(0, 200);
  out.spacing = top(spaceAgg, 200);
  out.radii = top(radiusAgg, 40);
  out.shadows = top(shadowAgg, 30);
  for (const l of top(linkAgg, 20)) { delete l.hoverDone; out.controls.push(l); }
  out.status = top(statusAgg, 40);
  probe.remove();
  return JSON.stringify(out);
}
