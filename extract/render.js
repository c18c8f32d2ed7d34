// Draws logos to PNG on a transparent canvas. An SVG job's document, given
// its own size (and a viewBox when it has none, so it scales), is loaded as
// an <img> from a data: URL and drawn at w×h. A raster job (src: a data: URL
// of a JPEG, WebP, GIF or ICO) is drawn at its natural size, capped at max
// px on the long side. Returns a JSON array of base64 PNGs, "" for a job
// that failed. Runs in a blank page.
async (jobs, max) => {
  const draw = (img, w, h) => {
    const c = document.createElement('canvas');
    c.width = w;
    c.height = h;
    const g = c.getContext('2d');
    g.imageSmoothingQuality = 'high';
    g.drawImage(img, 0, 0, w, h);
    const url = c.toDataURL('image/png');
    return url.startsWith('data:image/png;base64,') ? url.slice(22) : '';
  };
  const svg = async (j) => {
    const doc = new DOMParser().parseFromString(j.svg, 'image/svg+xml');
    const root = doc.documentElement;
    if (!root || root.localName !== 'svg' || doc.getElementsByTagName('parsererror').length) {
      throw new Error('not an svg document');
    }
    if (!root.hasAttribute('viewBox') && j.vw > 0 && j.vh > 0) {
      root.setAttribute('viewBox', '0 0 ' + j.vw + ' ' + j.vh);
    }
    root.setAttribute('width', String(j.w));
    root.setAttribute('height', String(j.h));
    const img = new Image();
    img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(new XMLSerializer().serializeToString(root));
    await img.decode();
    return draw(img, j.w, j.h);
  };
  const raster = async (j) => {
    if (!j.src.startsWith('data:image/')) {
      throw new Error('not an image data: URL');
    }
    const img = new Image();
    img.src = j.src;
    await img.decode();
    const nw = img.naturalWidth, nh = img.naturalHeight;
    if (!(nw > 0 && nh > 0)) {
      throw new Error('no size');
    }
    const s = Math.min(1, max / Math.max(nw, nh));
    return draw(img, Math.max(1, Math.round(nw * s)), Math.max(1, Math.round(nh * s)));
  };
  const out = await Promise.all(jobs.map((j) => (j.src ? raster(j) : svg(j)).catch(() => '')));
  return JSON.stringify(out);
}
