// collect/logos.js — part of collect.js, brandpack's one in-page evaluation
// (collect.go joins the parts, in order, inside one function of opts).
// Logo candidates: images, embeds, inline SVGs and CSS backgrounds in the
// header and the top band; then the result.
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
  // fetch): the images its stylesheets loaded (resource entries initiated
  // by CSS, at most 40) are decoded from the cache first, side by side and
  // for at most 500 ms in all — a new image of a cached URL is not complete
  // at once in current Chromium, so its size must be awaited.
  const natSizes = new Map();
  await Promise.race([
    Promise.all(performance.getEntriesByType('resource')
      .filter((e) => e.initiatorType === 'css').slice(0, 40)
      .map((e) => {
        const im = new Image();
        im.src = e.name;
        return im.decode().then(() => {
          if (im.naturalWidth > 0 && im.naturalHeight > 0) natSizes.set(e.name, [im.naturalWidth, im.naturalHeight]);
        }, () => {});
      })),
    new Promise((done) => setTimeout(done, 500)),
  ]);
  const naturalSize = (url) => natSizes.get(url) || null;
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
