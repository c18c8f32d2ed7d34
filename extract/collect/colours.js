// collect/colours.js — part of collect.js, brandpack's one in-page evaluation
// (collect.go joins the parts, in order, inside one function of opts).
// Colour evidence: overlays and logo walls set aside, every visible
// element's paint aggregated by (colour, role); the dark pass returns
// here; then fonts in use and the visible copy.
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

