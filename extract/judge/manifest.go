package judge

import "net/url"

// WebManifest is the part of a web app manifest brandpack reads.
type WebManifest struct {
	Name            string         `json:"name"`
	ShortName       string         `json:"short_name"`
	ThemeColor      string         `json:"theme_color"`
	BackgroundColor string         `json:"background_color"`
	Icons           []ManifestIcon `json:"icons"`
	Base            string         `json:"base"` // the manifest's own URL, for its relative icon URLs
}

type ManifestIcon struct {
	Src     string `json:"src"`
	Sizes   string `json:"sizes"`
	Type    string `json:"type"`
	Purpose string `json:"purpose"`
}

func (m *WebManifest) resolve(ref string) string {
	base, err := url.Parse(m.Base)
	if err != nil {
		return ""
	}
	u, err := base.Parse(ref)
	if err != nil {
		return ""
	}
	return u.String()
}
