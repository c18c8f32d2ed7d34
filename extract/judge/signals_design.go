package judge

// DesignSignals is what design.js observed of the page's design system in
// the same loaded page as the rest of the Signals (after settling, at the
// 1280×800 viewport): raw computed styles of visible elements, each
// aggregate with its count N, painted-area weight W (fraction of the
// viewport, summed) and smallest Top (px from the document's top). Nothing
// here is judged; extract/judge/design*.go does that.
type DesignSignals struct {
	RootFontPX  float64 `json:"rootFontPx"`  // computed font-size of <html>
	ColorScheme string  `json:"colorScheme"` // computed color-scheme of <html> ("normal", "light dark" …)
	// Text: each element's own text, aggregated by level and style.
	Text []TextStyleObs `json:"text"`
	// Spacing: padding values (each distinct value of an element once),
	// flex/grid gaps and block margins, aggregated by kind and px.
	Spacing []SpaceObs `json:"spacing"`
	// Radii: the largest corner radius of elements that paint (background,
	// border, shadow or image), by computed value.
	Radii []RadiusObs `json:"radii"`
	// Shadows: computed box-shadow values other than none.
	Shadows []ShadowObs `json:"shadows"`
	// Controls: buttons (also inside overlays, flagged), inputs, framed
	// cards, and in-page link styles aggregated by colour/decoration/weight.
	Controls []ControlObs `json:"controls"`
	// Status: elements whose class, id or role names a status (success,
	// warning, danger/error, info …), by their colours.
	Status []StatusObs `json:"status"`
	// HoverRules: how many :hover rules the readable stylesheets declare.
	HoverRules int    `json:"hoverRules"`
	Error      string `json:"error,omitempty"` // the design pass failed (set by the observer)
}

// TextStyleObs is one text style at one level. Level is the nearest
// heading's tag (h1…h6), "code" (inside code/pre/kbd/samp), "small" (inside
// <small>) or the element's own tag; Ctx is "button" (inside a button or
// button-like link), "header" (header/nav), "footer" or "" (the content).
// LH is the computed line height in px (0 = normal), LS the letter spacing
// in px (0 = normal).
type TextStyleObs struct {
	Level  string  `json:"level"`
	Ctx    string  `json:"ctx"`
	Stack  string  `json:"stack"`
	Size   float64 `json:"size"`
	Weight int     `json:"weight"`
	LH     float64 `json:"lh"`
	LS     float64 `json:"ls"`
	Chars  int     `json:"chars"`
	First  bool    `json:"first"` // seen in the first viewport
	N      int     `json:"n"`
	W      float64 `json:"w"`
	Top    float64 `json:"top"`
}

// SpaceObs is one spacing value: Kind pad, gap or margin.
type SpaceObs struct {
	Kind string  `json:"kind"`
	PX   float64 `json:"px"`
	N    int     `json:"n"`
	W    float64 `json:"w"`
	Top  float64 `json:"top"`
}

// RadiusObs is one computed corner radius ("8px", "50%", "9999px") and the
// smaller side of the first element seen with it.
type RadiusObs struct {
	R       string  `json:"r"`
	MinSide float64 `json:"minSide"`
	N       int     `json:"n"`
	W       float64 `json:"w"`
	Top     float64 `json:"top"`
}

// ShadowObs is one computed box-shadow value and the tag first seen with it.
type ShadowObs struct {
	CSS string  `json:"css"`
	Tag string  `json:"tag"`
	N   int     `json:"n"`
	W   float64 `json:"w"`
	Top float64 `json:"top"`
}

// ControlObs is one button, input or card (one element each) or one link
// style (aggregated: N links, Chars of text). Colours are Chromium's
// computed form; Bg is "" when transparent. Overlay is "consent", "chat" or
// "overlay" for a button inside such a layer (only buttons are recorded
// there). Behind is the painted background behind the element. Pad is
// top, right, bottom, left in px; R the top-left radius as computed; BW the
// widest border side, BWAll whether all four sides have one.
type ControlObs struct {
	Kind     string       `json:"kind"` // button, input, card, link
	Tag      string       `json:"tag,omitempty"`
	Text     string       `json:"text,omitempty"`
	Ident    string       `json:"ident,omitempty"`
	X        float64      `json:"x,omitempty"`
	Y        float64      `json:"y,omitempty"`
	W        float64      `json:"w"`
	H        float64      `json:"h,omitempty"`
	First    bool         `json:"first"`
	Overlay  string       `json:"overlay,omitempty"`
	Where    string       `json:"where,omitempty"` // header, footer or "" (content)
	Behind   string       `json:"behind,omitempty"`
	Bg       string       `json:"bg,omitempty"`
	Color    string       `json:"color"`
	BW       float64      `json:"bw,omitempty"`
	BS       string       `json:"bs,omitempty"`
	BC       string       `json:"bc,omitempty"`
	BWAll    bool         `json:"bwAll,omitempty"`
	R        string       `json:"r,omitempty"`
	Pad      []float64    `json:"pad,omitempty"`
	FW       int          `json:"fw"`
	FS       float64      `json:"fs,omitempty"`
	Shadow   string       `json:"shadow,omitempty"`
	Deco     string       `json:"deco,omitempty"`
	Repeated bool         `json:"repeated,omitempty"` // a card with a sibling of the same tag and class
	Hover    *HoverColors `json:"hover,omitempty"`
	Chars    int          `json:"chars,omitempty"` // links: characters of link text
	N        int          `json:"n,omitempty"`     // links: how many
	Top      float64      `json:"top,omitempty"`   // links: the first one's top
}

// HoverColors are the colours the page's :hover rules that match an
// element declare (the last matching rule in source order wins).
type HoverColors struct {
	Bg     string `json:"bg,omitempty"`
	Color  string `json:"color,omitempty"`
	Border string `json:"border,omitempty"`
}

// StatusObs is one status-named element style: Word is the status word
// its class, id or role carries (success, warning, danger, error, info …).
type StatusObs struct {
	Word  string  `json:"word"`
	Bg    string  `json:"bg,omitempty"`
	Color string  `json:"color"`
	BC    string  `json:"bc,omitempty"`
	N     int     `json:"n"`
	W     float64 `json:"w"`
	Top   float64 `json:"top"`
}
