/* Orbit Grove client bundle (test fixture): fetches its config, then renders after a delay. */
(function () {
  'use strict';
  function render(cfg) {
    var c = cfg.colors;
    var css = [
      '@font-face { font-family: "Hanken Grotesk"; src: url("/static/hanken.woff2") format("woff2"); }',
      'body { margin: 0; background: ' + c.surface + '; color: ' + c.ink + '; font-family: "Hanken Grotesk", Arial, sans-serif; font-size: 17px; line-height: 1.6; }',
      'a { color: ' + c.primary + '; }',
      '.og-shell { max-width: 1080px; margin: 0 auto; padding: 0 24px; }',
      '.og-top { display: flex; align-items: center; gap: 28px; height: 84px; border-bottom: 1px solid ' + c.line + '; }',
      '.og-top img { display: block; }',
      '.og-nav { display: flex; gap: 22px; margin-left: auto; }',
      '.og-nav a { color: ' + c.ink + '; text-decoration: none; }',
      '.og-btn { display: inline-block; background: ' + c.primary + '; color: #FFFFFF; padding: 12px 20px; border-radius: 8px; text-decoration: none; font-weight: 700; }',
      '.og-btn:hover { background: ' + c.primaryHover + '; }',
      '.og-hero h1 { font-size: 46px; margin: 48px 0 16px; }',
      '.og-hero p { color: ' + c.muted + '; max-width: 640px; }',
      '.og-chip { display: inline-block; background: ' + c.accent + '; color: ' + c.ink + '; padding: 3px 12px; border-radius: 99px; font-weight: 700; font-size: 13px; }'
    ].join('\n');
    var style = document.createElement('style');
    style.textContent = css;
    document.head.appendChild(style);
    document.title = cfg.name + ' | ' + cfg.tagline;
    document.getElementById('app').innerHTML =
      '<div class="og-shell">' +
        '<header class="og-top">' +
          '<a href="/" class="og-logo"><img src="/static/orbitgrove-logo.png" alt="Orbit Grove" width="240" height="60"></a>' +
          '<nav class="og-nav"><a href="/how">How it works</a><a href="/families">For families</a><a href="/pricing">Pricing</a></nav>' +
          '<a class="og-btn" href="/join">Start your first streak</a>' +
        '</header>' +
        '<main class="og-hero">' +
          '<span class="og-chip">New: shared chore charts</span>' +
          '<h1>Small habits, shared by everyone at home.</h1>' +
          '<p>Orbit Grove keeps the whole household on track: watering the plants, walking the dog, reading before bed. Everyone sees the same board, everyone earns their streak, and nobody has to nag.</p>' +
          '<p>It is simple enough for a seven-year-old and honest about what matters: a little progress every day, together.</p>' +
          '<p><a class="og-btn" href="/join">Start your first streak</a></p>' +
        '</main>' +
      '</div>';
  }
  var xhr = new XMLHttpRequest();
  xhr.open('GET', '/static/brand.json');
  xhr.onload = function () {
    var cfg = JSON.parse(xhr.responseText);
    setTimeout(function () { render(cfg); }, 700);
  };
  xhr.send();
})();
