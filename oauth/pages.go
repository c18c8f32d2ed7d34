package oauth

import (
	"html/template"
	"net/http"
)

// The default pages are plain html/template; the dashboard swaps in its own
// (Config.Consent, Config.ErrorPage).

var consentTmpl = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Connect {{.ClientName}} to brandpack</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
.box{border:1px solid #ddd;border-radius:8px;padding:1.25rem}dt{font-weight:600;margin-top:.6rem}dd{margin:0}
button{font-size:1rem;padding:.6rem 1.2rem;margin-right:.5rem;border-radius:6px;border:1px solid #888;cursor:pointer}
button[value=approve]{background:#1f6f5c;color:#fff;border-color:#1f6f5c}</style></head>
<body><main class="box">
<h1>Connect {{.ClientName}}?</h1>
<p>{{.ClientName}} wants to use brandpack on your behalf, signed in as <strong>{{.UserEmail}}</strong>.</p>
<dl>
<dt>Application</dt><dd id="client-name">{{.ClientName}}</dd>
<dt>Identity</dt><dd id="client-identity">{{.Identity}}</dd>
<dt>Will return you to</dt><dd id="redirect-host">{{.RedirectHost}}</dd>
<dt>Access</dt><dd id="scope"><code>{{.Scope}}</code>: fetch and analyse brand packs, counted against your monthly quota</dd>
</dl>
<form method="post" action="{{.Action}}">
{{range $k, $v := .Fields}}<input type="hidden" name="{{$k}}" value="{{$v}}">
{{end}}<p><button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></p>
</form>
<p><small>You can disconnect it at any time under Connections.</small></p>
</main></body></html>`))

var errorTmpl = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Authorization error</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}</style></head>
<body><main><h1>This authorization request cannot continue</h1>
<p id="error-description">{{.Description}}</p>
<p>Error: <code id="error">{{.Code}}</code></p></main></body></html>`))

func defaultConsent(w http.ResponseWriter, r *http.Request, c ConsentView) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	consentTmpl.Execute(w, c)
}

func defaultErrorPage(w http.ResponseWriter, r *http.Request, status int, code, description string) {
	frameDeny(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	errorTmpl.Execute(w, struct{ Code, Description string }{code, description})
}
