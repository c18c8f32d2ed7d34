// A third-party-style chat launcher, injected late and fixed bottom-right.
(function () {
  var w = document.createElement('div');
  w.id = 'chat-widget-container';
  w.className = 'chat-widget';
  w.innerHTML = '<button class="chat-launcher" style="position:fixed;right:24px;bottom:24px;background:#7C3AED;color:#fff;border:0;border-radius:28px;padding:16px 22px;font:600 16px Arial">Chat with us</button>';
  document.body.appendChild(w);
})();
