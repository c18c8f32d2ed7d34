// A consent layer (German wording), injected after load, never dismissed.
(function () {
  var d = document.createElement('div');
  d.id = 'usercentrics-root';
  d.setAttribute('role', 'dialog');
  d.setAttribute('aria-modal', 'true');
  d.style.cssText = 'position:fixed;left:0;right:0;bottom:0;height:38vh;background:#E6007E;color:#fff;font-family:Verdana,sans-serif;padding:24px;z-index:99';
  d.innerHTML = '<p>Wir verwenden Cookies. Mit „Alle akzeptieren“ stimmen Sie zu.</p><button style="background:#FFE600;color:#000;padding:12px 20px;border:0">Alle akzeptieren</button> <button style="background:#00B7EB;color:#000;padding:12px 20px;border:0">Einstellungen</button>';
  document.body.appendChild(d);
})();
