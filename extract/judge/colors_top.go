package judge

// topmost finds the first chromatic colour down the page: among the
// candidates that are not neutral and have rendered evidence outside
// overlays, the one seen highest (smallest top). A site's own colour tends
// to come first — in its header, title or banner — while a theme's link
// or button colour starts in the content below. When k candidates share
// that top (one banner painting several colours), each gets 1/k.
func topmost(all []*colorEv) map[*colorEv]float64 {
	var first []*colorEv
	for _, e := range all {
		if !e.seen || e.neutral() {
			continue
		}
		switch {
		case len(first) == 0 || e.top < first[0].top:
			first = []*colorEv{e}
		case e.top == first[0].top:
			first = append(first, e)
		}
	}
	out := make(map[*colorEv]float64, len(first))
	for _, e := range first {
		out[e] = 1 / float64(len(first))
	}
	return out
}
