/* Third-party privacy layer (test fixture): a loud fixed panel over the lower half of the page. */
(function () {
  var css = '#privacy-consent{position:fixed;left:0;right:0;bottom:0;height:48vh;z-index:99999;background:#00B3FF;color:#FFFFFF;font-family:Verdana,sans-serif;display:flex;align-items:center;justify-content:center}' +
    '#privacy-consent h2{font-family:Verdana,sans-serif;font-size:26px;color:#FFFF00}' +
    '#privacy-consent button{font-family:Verdana,sans-serif;background:#FF00AA;color:#FFFFFF;border:0;padding:14px 28px;border-radius:30px;margin:0 8px;font-size:16px}';
  var s = document.createElement('style');
  s.textContent = css;
  document.head.appendChild(s);
  var el = document.createElement('div');
  el.id = 'privacy-consent';
  el.className = 'consent-layer';
  el.innerHTML = '<div><h2>Your privacy choices</h2><p>We and our partners use cookies to measure and improve this website. Accept all, reject all or choose which ones you allow.</p>' +
    '<button type="button">Accept all cookies</button><button type="button">Reject all</button><button type="button">Let me choose</button></div>';
  document.body.appendChild(el);
})();
