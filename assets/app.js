// brandpack dashboard: the only script. Pages work without it except the
// copy buttons; job progress falls back to <meta http-equiv=refresh>.
(function () {
  "use strict";

  // After a POST that shows a new key once, make a reload a plain GET.
  var replace = document.querySelector('meta[name="bp-replace-url"]');
  if (replace && window.history && history.replaceState) {
    history.replaceState(null, "", replace.getAttribute("content"));
  }

  // Copy buttons: data-copy names the id of the element whose text to copy.
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest("button[data-copy]");
    if (!btn) return;
    var el = document.getElementById(btn.getAttribute("data-copy"));
    if (!el) return;
    var text = el.textContent;
    var done = function () {
      btn.textContent = "Copied";
      btn.classList.add("copied");
      setTimeout(function () { btn.textContent = "Copy"; btn.classList.remove("copied"); }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { selectText(el); });
    } else {
      selectText(el);
      try { if (document.execCommand("copy")) done(); } catch (e) { /* selected for manual copy */ }
    }
  });

  function selectText(el) {
    var r = document.createRange();
    r.selectNodeContents(el);
    var s = window.getSelection();
    s.removeAllRanges();
    s.addRange(r);
  }

  // Job progress: poll the session-authenticated JSON status, then go to the
  // pack (or reload to show the error page).
  var job = document.getElementById("job");
  if (job && job.dataset.jobStatusUrl && window.fetch) {
    var refresh = document.querySelector('meta[http-equiv="refresh"]');
    if (refresh) refresh.remove(); // the script takes over
    var label = document.getElementById("job-status");
    var delay = 700;
    var poll = function () {
      fetch(job.dataset.jobStatusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (res) { return res.ok ? res.json() : Promise.reject(res.status); })
        .then(function (st) {
          if (label) label.textContent = st.status;
          if (st.done) { window.location.assign(st.next); return; }
          delay = Math.min(delay * 1.3, 3000);
          setTimeout(poll, delay);
        })
        .catch(function () { setTimeout(function () { window.location.reload(); }, 3000); });
    };
    setTimeout(poll, delay);
  }
})();
