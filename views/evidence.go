package views

import (
	"fmt"

	"github.com/brandpack/brandpack/app"
)

// EvidenceRow is one colour role on the pack page: its colour, where it was
// seen, how sure the extractor is and its contrast on the background.
type EvidenceRow struct {
	Role, Hex, Source, Property, Confidence string
	Sources                                 []string
	Contrast                                *app.Contrast
}

// EvidenceRows lists the roles that carry evidence or contrast (none for
// packs extracted before those fields existed).
func EvidenceRows(c app.Colors) []EvidenceRow {
	ev := c.Evidence
	if ev == nil {
		ev = &app.ColorEvidenceSet{}
	}
	ct := c.Contrast
	if ct == nil {
		ct = &app.ContrastSet{}
	}
	var rows []EvidenceRow
	for _, r := range []struct {
		role, hex string
		ev        *app.ColorEvidence
		ct        *app.Contrast
	}{
		{"primary", c.Primary, ev.Primary, ct.Primary},
		{"secondary", c.Secondary, ev.Secondary, ct.Secondary},
		{"accent", c.Accent, ev.Accent, ct.Accent},
		{"text", c.Text, ev.Text, ct.Text},
		{"background", c.Background, ev.Background, nil},
	} {
		if r.ev == nil && r.ct == nil {
			continue
		}
		row := EvidenceRow{Role: r.role, Hex: r.hex, Contrast: r.ct}
		if r.ev != nil {
			row.Source, row.Property, row.Sources = r.ev.Source, r.ev.Property, r.ev.Sources
			row.Confidence = fmt.Sprintf("%.0f%%", r.ev.Confidence*100)
		}
		rows = append(rows, row)
	}
	return rows
}
