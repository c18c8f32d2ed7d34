package app

import "time"

// Pack is a brand pack (spec §2.1). Fields beyond the spec only add to it.
type Pack struct {
	Brand    string       `json:"brand"`
	Domain   string       `json:"domain"`
	Colors   Colors       `json:"colors"`
	Fonts    []Font       `json:"fonts"`
	Logos    []Logo       `json:"logos"`
	Voice    Voice        `json:"voice"`
	Metadata PackMetadata `json:"metadata"`

	// Identity beyond the name (omitted when the page states none).
	Description string `json:"description,omitempty"` // meta or Open Graph description
	Tagline     string `json:"tagline,omitempty"`     // the slogan the page's title states next to the name
	Locale      string `json:"locale,omitempty"`      // BCP 47 tag, from og:locale or <html lang>
	Links       []Link `json:"links,omitempty"`       // social profiles, one per platform

	// The site's icons and share images, stored like logos (omitted when
	// the page declares none that could be fetched).
	Icons  []Icon  `json:"icons,omitempty"`
	Images *Images `json:"images,omitempty"`

	// The design system the page shows (app/design.go; each omitted when
	// the page does not show it). ColorScheme is light or dark: the scheme
	// the page shows by default.
	Typography  *Typography `json:"typography,omitempty"`
	Spacing     *Spacing    `json:"spacing,omitempty"`
	Radii       []Radius    `json:"radii,omitempty"`
	Shadows     []Shadow    `json:"shadows,omitempty"`
	Components  *Components `json:"components,omitempty"`
	ColorScheme string      `json:"color_scheme,omitempty"`
}

// Icon is one stored site icon: a favicon, apple-touch-icon, mask-icon
// (with its Color) or web app manifest icon. URL is absolute like a
// logo's; Width/Height are the file's own (an SVG's from its size or
// viewBox); Sizes is what the page declared.
type Icon struct {
	URL       string `json:"url"`
	Kind      string `json:"kind"`          // favicon, apple-touch-icon, mask-icon, manifest
	Rel       string `json:"rel,omitempty"` // the <link> rel; absent for manifest icons
	SourceURL string `json:"source_url"`
	Format    string `json:"format"` // svg, png, ico, jpeg, gif, webp
	Width     int    `json:"width,omitempty"`
	Height    int    `json:"height,omitempty"`
	Sizes     string `json:"sizes,omitempty"`
	Color     string `json:"color,omitempty"`   // a mask-icon's colour, #RRGGBB
	Purpose   string `json:"purpose,omitempty"` // a manifest icon's purpose (any, maskable, monochrome)
}

// Images are the page's share images, stored like logos: OG is its Open
// Graph image (else its Twitter card image), Banner its Twitter card image
// when that is another picture.
type Images struct {
	OG     *Image `json:"og,omitempty"`
	Banner *Image `json:"banner,omitempty"`
}

// Image is one stored share image; URL is absolute like a logo's.
type Image struct {
	URL       string `json:"url"`
	SourceURL string `json:"source_url"`
	Format    string `json:"format"`
	Width     int    `json:"width,omitempty"`
	Height    int    `json:"height,omitempty"`
}

// Link is one social profile of the brand.
type Link struct {
	Platform string `json:"platform"` // x, facebook, instagram, linkedin, youtube, github, …
	URL      string `json:"url"`
}

// ColorRoles are one colour scheme's #RRGGBB roles, with the evidence for
// each and their contrast against the background.
type ColorRoles struct {
	Primary    string   `json:"primary"`
	Secondary  string   `json:"secondary"`
	Accent     string   `json:"accent"`
	Background string   `json:"background"`
	Text       string   `json:"text"`
	Palette    []string `json:"palette"`
	// Evidence says, for each role, where the colour was seen and how sure
	// the judge is; Contrast measures the roles against the background.
	Evidence *ColorEvidenceSet `json:"evidence,omitempty"`
	Contrast *ContrastSet      `json:"contrast,omitempty"`
}

// Colors is the pack's palette: the light (default) scheme's roles and,
// when the site defines one, its dark scheme.
type Colors struct {
	ColorRoles
	Dark *DarkColors `json:"dark,omitempty"`
	// Semantic: link and status colours the page uses (omitted when none).
	Semantic *SemanticColors `json:"semantic,omitempty"`
}

// DarkColors is the palette a site shows in its dark scheme: the same
// roles, evidence and contrast as the light one (against the dark
// background). Source says how the site switches to it: media (a
// prefers-color-scheme: dark query), class or attribute (a toggle on html
// or body, written in Selector such as html.dark or
// html[data-theme="dark"]), or theme-color (only a dark theme-color meta:
// the background is that colour, the brand colours are the light ones).
type DarkColors struct {
	ColorRoles
	Source   string `json:"source"`
	Selector string `json:"selector,omitempty"`
}

// ColorEvidence is where one role's colour came from. Source is the
// strongest kind of evidence: css-var (a custom property, named in
// Property), button, link, nav, header, footer, heading, border, surface,
// text, theme-color, manifest, tile-color, mask-icon, logo, body (the page's
// own background/text), default (nothing painted: white/black) or fallback
// (no colour of its own, another role's colour reused). Sources lists every
// kind seen, strongest first. Confidence is 0..1.
type ColorEvidence struct {
	Source     string   `json:"source"`
	Property   string   `json:"property,omitempty"`
	Sources    []string `json:"sources"`
	Confidence float64  `json:"confidence"`
}

// ColorEvidenceSet holds the evidence of each colour role.
type ColorEvidenceSet struct {
	Primary    *ColorEvidence `json:"primary,omitempty"`
	Secondary  *ColorEvidence `json:"secondary,omitempty"`
	Accent     *ColorEvidence `json:"accent,omitempty"`
	Background *ColorEvidence `json:"background,omitempty"`
	Text       *ColorEvidence `json:"text,omitempty"`
}

// Font is one font family and its role (primary = body, secondary = headings).
type Font struct {
	Family  string `json:"family"`
	Role    string `json:"role"`
	Weights []int  `json:"weights,omitempty"`
	Origin  string `json:"origin,omitempty"` // google, adobe, self-hosted, system
	// URL is the public stylesheet (Google Fonts, Adobe Fonts kit) or font
	// file it loads from; Fallbacks the rest of the declared CSS stack.
	URL       string   `json:"url,omitempty"`
	Fallbacks []string `json:"fallbacks,omitempty"`
}

// Logo is one stored logo asset. URL is absolute, under
// {base_url}/api/v1/assets/logos/{domain}/{file}.
type Logo struct {
	URL       string   `json:"url"`
	Role      string   `json:"role"`
	Variants  []string `json:"variants"`
	SourceURL string   `json:"source_url,omitempty"`
	Format    string   `json:"format,omitempty"`
	Width     int      `json:"width,omitempty"`
	Height    int      `json:"height,omitempty"`
	PNGURL    string   `json:"png_url,omitempty"` // a PNG rendering of the logo (every format) (a PNG logo: itself); absolute like URL
}

// Voice describes the brand's written voice.
type Voice struct {
	Tone      string `json:"tone"`
	Archetype string `json:"archetype"`
	// ArchetypeConfidence (0–1) is the classifier's probability of
	// Archetype: a firm reading is near 1, a guess near 1/12.
	ArchetypeConfidence float64  `json:"archetype_confidence"`
	Descriptors         []string `json:"descriptors"`
}

// PackMetadata describes the extraction behind a pack.
type PackMetadata struct {
	Cached       bool      `json:"cached"`
	ExtractedAt  time.Time `json:"extracted_at"`
	TotalCostUSD float64   `json:"total_cost_usd"`
	FinalURL     string    `json:"final_url,omitempty"`
	DurationMS   int64     `json:"duration_ms,omitempty"`
}

// Asset is the bytes of one logo file, stored next to the pack and served at
// /api/v1/assets/logos/{Domain}/{File}.
type Asset struct {
	Domain      string
	File        string
	ContentType string
	Data        []byte
	SHA256      string // hex, used as the ETag
	CreatedAt   time.Time
}

// Extraction is what an Extractor returns: a pack whose logo URLs are still
// relative file names (Logo.URL = File) and the asset bytes.
type Extraction struct {
	Pack   Pack
	Assets []Asset
}

// CacheTTL is how long a pack is served from cache (spec §3.1, §8).
const CacheTTL = 24 * time.Hour
