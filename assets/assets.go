// Package assets embeds the dashboard's static files (CSS, JS, icons). The
// binary serves them itself at /assets/: no CDN, no external fonts or scripts.
package assets

import "embed"

// FS holds the files, at the root (app.css, app.js, favicon.svg).
//
//go:embed *.css *.js *.svg
var FS embed.FS
