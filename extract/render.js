// Draws SVG documents to PNG: each job's SVG, given its own size (and a
// viewBox when it has none, so it scales), is loaded as an <img> from a
// data: URL and drawn on a transparent canvas of w×h. Returns a JSON array
// of base64 PNGs, "" for a job that failed. Runs in a blank page.
async (jobs) => {
  const one = async (j) => {
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
    const c = document.createElement('canvas');
    c.width = j.w;
    c.height = j.h;
    c.getContext('2d').drawImage(img, 0, 0, j.w, j.h);
    const url = c.toDataURL('image/png');
    return url.startsWith('data:image/png;base64,') ? url.slice(22) : '';
  };
  const out = await Promise.all(jobs.map((j) => one(j).catch(() => '')));
  return JSON.stringify(out);
}
