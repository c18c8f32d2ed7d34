package judge

// SignalsVersion is the version of the Signals JSON shape; it changes when a
// field changes meaning or disappears (added fields do not change it).
const SignalsVersion = 3

// Signals is what the observer saw on one page: raw observations, no
// judgement (collect.js fills most of it in the page). It serialises to
// JSON (`brandpack extract --signals FILE`); docs/extraction.md documents it.
type Signals struct {
	Version  int    `json:"version"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Lang     string `json:"lang"`
	Viewport struct {
		W float64 `json:"w"`
		H float64 `json:"h"`
	} `json:"viewport"`
	Meta struct {
		ThemeColor    []ThemeColor `json:"themeColor"`
		TileColor     string       `json:"tileColor"`
		OGSiteName    string       `json:"ogSiteName"`
		AppName       string       `json:"appName"`
		OGTitle       string       `json:"ogTitle"`
		OGImage       string       `json:"ogImage"`      // og:image, else twitter:image
		TwitterImage  string       `json:"twitterImage"` // twitter:image (or twitter:image:src)
		Description   string       `json:"description"`
		OGDescription string       `json:"ogDescription"` // og:description or twitter:description
		OGLocale      string       `json:"ogLocale"`
		Manifest      string       `json:"manifest"`
	} `json:"meta"`
	Icons       []IconLink   `json:"icons"`
	JSONLD      []JSONLDOrg  `json:"jsonLd"`
	RootVars    []RootVar    `json:"rootVars"`
	Colors      []ColorObs   `json:"colors"`
	Fonts       []FontObs    `json:"fonts"`
	FontFaces   []FontFace   `json:"fontFaces"`
	Stylesheets []string     `json:"stylesheets"`
	Logos       []LogoCand   `json:"logos"`
	Text        string       `json:"text"`
	Body        ElementStyle `json:"body"`
	HTML        ElementStyle `json:"html"`
	Overlays    int          `json:"overlays"`
	// TextBg: characters of copy by the painted background behind them
	// ("" = nothing painted up to the root, i.e. the page's own).
	TextBg []TextBg `json:"textBg,omitempty"`
	// OutLinks: links to other hosts in the header, the footer or marked
	// rel=me (where = header, footer or "").
	OutLinks []OutLink `json:"outLinks,omitempty"`

	// DarkHints: what the page's readable stylesheets say about a dark
	// scheme (absent when they say nothing and none is unreadable).
	DarkHints *DarkHints `json:"darkHints,omitempty"`
	// Dark: the colour evidence read again with the dark scheme on
	// (emulated prefers-color-scheme: dark and/or a toggle on html/body);
	// absent when the page has no dark scheme the observer could switch to.
	Dark *DarkSignals `json:"dark,omitempty"`
	// Design: the design system's raw observations (design.js, same page
	// load; signals_design.go). Version 3.
	Design *DesignSignals `json:"design,omitempty"`

	// Filled in by the observer after the page: the web app manifest and
	// every logo candidate it tried (see LogoFile).
	Manifest  *WebManifest `json:"manifest,omitempty"`
	LogoFiles []LogoFile   `json:"logoFiles"`
	// MediaFiles: every icon and share image tried (MediaRefs), keyed by URL.
	MediaFiles []LogoFile `json:"mediaFiles,omitempty"`
}

// DarkHints counts rules under a prefers-color-scheme: dark media query
// (Media), lists dark themes toggled by a class or attribute on html or
// body (Toggles, from selectors such as html.dark or [data-theme=dark]),
// counts stylesheets that could not be read (cross-origin), and keeps the
// light scheme's key (html/body/centre colours) to compare with.
type DarkHints struct {
	Media      int          `json:"media"`
	Toggles    []DarkToggle `json:"toggles"`
	Unreadable int          `json:"unreadable"`
	LightKey   string       `json:"lightKey"`
	Error      string       `json:"error,omitempty"` // the dark pass failed (set by the observer)
}

// DarkToggle is a class (Attr = "class") or attribute set on html or body
// (On) that switches the page to its dark theme.
type DarkToggle struct {
	On    string `json:"on"`
	Attr  string `json:"attr"`
	Value string `json:"value"`
}

// DarkSignals is the colour evidence of the page in its dark scheme. How
// is "media" (prefers-color-scheme: dark alone) or "toggle" (Toggle set,
// with the dark media emulated when the page has such rules).
type DarkSignals struct {
	How      string       `json:"how"`
	Toggle   *DarkToggle  `json:"toggle,omitempty"`
	RootVars []RootVar    `json:"rootVars"`
	Colors   []ColorObs   `json:"colors"`
	TextBg   []TextBg     `json:"textBg,omitempty"`
	Body     ElementStyle `json:"body"`
	HTML     ElementStyle `json:"html"`
}

// ThemeColor is one theme-color meta: its colour and media query.
type ThemeColor struct {
	C     string `json:"c"`
	Media string `json:"media"`
}

type IconLink struct {
	Rel   string `json:"rel"`
	Href  string `json:"href"`
	Sizes string `json:"sizes"`
	Type  string `json:"type"`
	Color string `json:"color"`
}

type JSONLDOrg struct {
	Type   string   `json:"type"`
	Name   string   `json:"name"`
	Logo   string   `json:"logo"`
	SameAs []string `json:"sameAs,omitempty"`
}

type OutLink struct {
	Href  string `json:"href"`
	Where string `json:"where"`
	Rel   string `json:"rel"`
}

type TextBg struct {
	C     string `json:"c"`
	Chars int    `json:"chars"`
}

type RootVar struct {
	Name string `json:"name"`
	C    string `json:"c"`
}

// colorObs is the summed evidence for one computed colour in one role.
type ColorObs struct {
	C    string  `json:"c"`
	Role string  `json:"role"`
	W    float64 `json:"w"`
	N    int     `json:"n"`
	Top  float64 `json:"top"`
}

type FontObs struct {
	Family  string         `json:"family"` // computed font-family stack
	Role    string         `json:"role"`   // text, ui, heading
	Chars   int            `json:"chars"`
	Weights map[string]int `json:"weights"`
}

type FontFace struct {
	Family string `json:"family"`
	Src    string `json:"src"`
	API    bool   `json:"api"` // from document.fonts rather than a readable rule
}

type ElementStyle struct {
	BG     string `json:"bg"`
	Color  string `json:"color"`
	Font   string `json:"font"`
	Weight string `json:"weight"`
}

// LogoCand is one <img>, inline <svg> or CSS background logo candidate.
type LogoCand struct {
	Kind        string   `json:"kind"` // img, svg, bg
	X           float64  `json:"x"`
	Y           float64  `json:"y"`
	W           float64  `json:"w"`
	H           float64  `json:"h"`
	Visible     bool     `json:"visible"`
	Ident       string   `json:"ident"` // id/class/aria of the element and two ancestors
	LinkLabel   string   `json:"linkLabel"`
	InHomeLink  bool     `json:"inHomeLink"`
	InHeader    bool     `json:"inHeader"`
	InFooter    bool     `json:"inFooter"`
	InButton    bool     `json:"inButton"`
	InOverlay   bool     `json:"inOverlay"`
	Siblings    int      `json:"siblings"`
	Src         string   `json:"src"`
	DarkSrc     string   `json:"darkSrc"`
	LightSrc    string   `json:"lightSrc"`
	Alt         string   `json:"alt"`
	Title       string   `json:"title"`
	NW          float64  `json:"nw"`
	NH          float64  `json:"nh"`
	HasText     bool     `json:"hasText"`
	ExternalUse bool     `json:"externalUse"`
	Markup      string   `json:"markup"`
	Fills       []string `json:"fills"`
}
