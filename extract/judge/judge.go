// Package judge turns Signals (what the observer, package extract, saw on a
// page: computed styles, copy, logo candidates, the manifest, the facts of
// the logo files it tried) into a pack: brand name, colours, fonts, logo
// choice and voice. It is pure Go: no browser, no network, no files; the
// same Signals always give the same pack. Signals and LogoFile are declared
// here so the arrows run one way: extract → judge → colour, app.
package judge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/brandpack/brandpack/app"
)

// Judge turns recorded Signals into a pack without a browser or network
// (`brandpack judge FILE`, the golden tests): the logo choice replays the
// observer's recorded LogoFiles. The pack's logos name the files the
// observer stored; it has no monochrome or PNG copies (those are drawn from
// the bytes) and no metadata.
func Judge(sig *Signals) (app.Pack, error) { return JudgeWith(sig, nil, nil) }

// JudgeWith judges with model m (nil: the embedded one) and hands every
// decision's candidates to rec when it is not nil (training, diagnosis).
func JudgeWith(sig *Signals, m *Model, rec Recorder) (app.Pack, error) {
	j := &jctx{m: m, rec: rec}
	if sig == nil || sig.Version != SignalsVersion {
		return app.Pack{}, fmt.Errorf("judge: not a version %d Signals file (re-record it)", SignalsVersion)
	}
	domain := strings.TrimPrefix(hostOf(sig.URL, ""), "www.")
	if domain == "" {
		return app.Pack{}, errors.New("judge: Signals without a page URL")
	}
	plan := planLogos(domain, sig.URL, sig, sig.Manifest, func(o LogoOption, src string) *LogoFile {
		return RecordedLogo(sig, LogoKey(o, src))
	}, j)
	return judgePlanned(domain, sig, plan, j), nil
}

// JudgePlanned judges name, colours, fonts, voice and the design system
// once the logos are chosen (their names and colours are evidence).
func JudgePlanned(domain string, sig *Signals, plan logoPlan) app.Pack {
	return judgePlanned(domain, sig, plan, nil)
}

func judgePlanned(domain string, sig *Signals, plan logoPlan, j *jctx) app.Pack {
	colors := app.Colors{ColorRoles: chooseColorsWith(sig, sig.Manifest, plan.fills, j)}
	colors.Contrast = app.PackContrast(colors.ColorRoles)
	colors.Dark = chooseDark(sig, colors.ColorRoles, j)
	icons, images := chooseMedia(sig)
	brand := chooseBrandWith(sig, hostOf(sig.URL, domain), brandSources(sig, sig.Manifest, plan.names), j)
	p := app.Pack{
		Brand:       brand,
		Domain:      domain,
		Colors:      colors,
		Fonts:       chooseFontsWith(sig, j),
		Logos:       packLogos(plan),
		Voice:       analyzeVoice(CopyText(sig)),
		Description: chooseDescription(sig),
		Tagline:     chooseTagline(sig, brand),
		Locale:      chooseLocale(sig),
		Links:       chooseLinks(sig),
		Icons:       icons,
		Images:      images,
	}
	judgeDesign(sig, &p) // design.go
	return p
}

// CopyText is the copy the voice is judged from.
func CopyText(sig *Signals) string {
	return strings.Join([]string{sig.Meta.Description, sig.Text}, "\n")
}

// RecordedLogo finds a tried candidate in sig.LogoFiles (nil: never tried).
func RecordedLogo(sig *Signals, key string) *LogoFile {
	for i := range sig.LogoFiles {
		if sig.LogoFiles[i].Key == key {
			f := sig.LogoFiles[i]
			return &f
		}
	}
	return nil
}
