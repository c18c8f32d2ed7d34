package app

// The design system a page shows (beyond the spec, docs/packs.md): its type
// scale, spacing, radii, shadows and component styles, measured from the
// computed styles of visible elements weighted by painted area and position.
// Every part is omitted when the page does not show it; nothing is invented.

// Typography is the page's type scale: one style per level the page shows.
type Typography struct {
	H1    *TypeStyle `json:"h1,omitempty"`
	H2    *TypeStyle `json:"h2,omitempty"`
	H3    *TypeStyle `json:"h3,omitempty"`
	Body  *TypeStyle `json:"body,omitempty"`
	Small *TypeStyle `json:"small,omitempty"`
	Code  *TypeStyle `json:"code,omitempty"` // only when the page shows code
}

// TypeStyle is one level of the type scale as the browser computed it at
// the observer's 1280 px wide viewport. LineHeight is unitless (line
// height / font size); LetterSpacing is in px (0 = normal).
type TypeStyle struct {
	Family        string  `json:"family"`
	SizePX        float64 `json:"size_px"`
	Weight        int     `json:"weight"`
	LineHeight    float64 `json:"line_height"`
	LetterSpacing float64 `json:"letter_spacing_px"`
}

// Spacing is the page's spacing system: BaseUnit is 4 or 8 when the
// paddings, margins and gaps agree with that grid, else the most common
// step; Scale lists up to 6 observed steps in px, ascending.
type Spacing struct {
	BaseUnit float64   `json:"base_unit_px"`
	Scale    []float64 `json:"scale_px"`
}

// Radius is one step of the page's border radii (up to 4, ascending).
// Pill is a fully rounded end (≥ 9999 px or 50 %); its PX is 9999.
type Radius struct {
	Name string  `json:"name"` // sm, md, lg, xl, pill
	PX   float64 `json:"px"`
	Pill bool    `json:"pill,omitempty"`
}

// Shadow is one distinct box-shadow (up to 3, lowest elevation first).
// CSS is the computed value; Layers the same parsed.
type Shadow struct {
	Name   string        `json:"name"` // sm, md, lg
	CSS    string        `json:"css"`
	Layers []ShadowLayer `json:"layers"`
}

// ShadowLayer is one comma-separated layer of a box-shadow, lengths in px.
type ShadowLayer struct {
	Color   string  `json:"color"` // #RRGGBB or #RRGGBBAA
	OffsetX float64 `json:"offset_x_px"`
	OffsetY float64 `json:"offset_y_px"`
	Blur    float64 `json:"blur_px"`
	Spread  float64 `json:"spread_px"`
	Inset   bool    `json:"inset,omitempty"`
}

// Components are the styles of the page's common components. The primary
// button is the most prominent call to action in the first viewport (never
// a cookie-consent or chat button).
type Components struct {
	ButtonPrimary   *ComponentStyle `json:"button_primary,omitempty"`
	ButtonSecondary *ComponentStyle `json:"button_secondary,omitempty"`
	Input           *ComponentStyle `json:"input,omitempty"`
	Link            *ComponentStyle `json:"link,omitempty"`
	Card            *ComponentStyle `json:"card,omitempty"`
}

// ComponentStyle is one component's computed style. Colours are #RRGGBB
// (#RRGGBBAA when translucent); Background is "" when transparent.
// Padding is CSS shorthand in px ("12px 24px"). Hover holds what the
// stylesheets declare for :hover, when they do.
type ComponentStyle struct {
	Background string          `json:"background,omitempty"`
	Text       string          `json:"text,omitempty"`
	Border     *Border         `json:"border,omitempty"`
	RadiusPX   float64         `json:"radius_px"`
	Padding    string          `json:"padding,omitempty"`
	FontWeight int             `json:"font_weight,omitempty"`
	Shadow     string          `json:"shadow,omitempty"`
	Hover      *ComponentHover `json:"hover,omitempty"`
}

// Border is a component's border (omitted when it has none).
type Border struct {
	WidthPX float64 `json:"width_px"`
	Color   string  `json:"color"`
}

// ComponentHover is what a component's :hover rule changes.
type ComponentHover struct {
	Background string `json:"background,omitempty"`
	Text       string `json:"text,omitempty"`
	Border     string `json:"border,omitempty"`
}

// SemanticColors are status and link colours the page actually uses
// (alerts, badges, form states, custom properties named for them); each is
// omitted when not observed, never invented.
type SemanticColors struct {
	Link    string `json:"link,omitempty"`
	Success string `json:"success,omitempty"`
	Warning string `json:"warning,omitempty"`
	Danger  string `json:"danger,omitempty"`
	Info    string `json:"info,omitempty"`
}
