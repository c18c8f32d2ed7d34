package judge

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/brandpack/brandpack/app"
)

// Identity: description, tagline, locale and social links, judged from
// the page's metadata, title, JSON-LD sameAs and outgoing header/footer
// links.

const maxDescription = 300

// chooseDescription is the meta description, else the Open Graph one,
// with whitespace collapsed, clipped at a word boundary.
func chooseDescription(sig *Signals) string {
	d := strings.Join(strings.Fields(sig.Meta.Description), " ")
	if d == "" {
		d = strings.Join(strings.Fields(sig.Meta.OGDescription), " ")
	}
	if r := []rune(d); len(r) > maxDescription {
		d = string(r[:maxDescription])
		if i := strings.LastIndexByte(d, ' '); i > maxDescription/2 {
			d = d[:i]
		}
		d += "…"
	}
	return d
}

// chooseTagline: when the title (or og:title) is the brand name and one
// other phrase joined by a separator ("Name — slogan", "Slogan | Name"),
// the phrase is the tagline. A page title that does not name the brand
// ("Pricing | Name" has one word) states none.
func chooseTagline(sig *Signals, brand string) string {
	key := strings.ToLower(strings.Join(strings.Fields(brand), ""))
	if key == "" {
		return ""
	}
	for _, t := range []string{sig.Meta.OGTitle, sig.Title} {
		parts := titleSeparators.Split(strings.TrimSpace(t), -1)
		if len(parts) != 2 {
			continue
		}
		for i, p := range parts {
			if strings.ToLower(strings.Join(strings.Fields(p), "")) != key {
				continue
			}
			other := strings.TrimSpace(parts[1-i])
			if n := len(strings.Fields(other)); n >= 2 && n <= 14 && len([]rune(other)) <= 100 {
				return other
			}
		}
	}
	return ""
}

var localeTag = regexp.MustCompile(`^([A-Za-z]{2,3})(?:[-_]([A-Za-z]{4}))?(?:[-_]([A-Za-z]{2}|[0-9]{3}))?$`)

// chooseLocale is og:locale or <html lang> as a BCP 47 tag (en_us → en-US).
func chooseLocale(sig *Signals) string {
	for _, raw := range []string{sig.Meta.OGLocale, sig.Lang} {
		m := localeTag.FindStringSubmatch(strings.TrimSpace(raw))
		if m == nil {
			continue
		}
		tag := strings.ToLower(m[1])
		if m[2] != "" {
			tag += "-" + strings.ToUpper(m[2][:1]) + strings.ToLower(m[2][1:])
		}
		if m[3] != "" {
			tag += "-" + strings.ToUpper(m[3])
		}
		return tag
	}
	return ""
}

// platforms maps a social host (without www., m.) to its platform.
var platforms = map[string]string{
	"x.com": "x", "twitter.com": "x", "facebook.com": "facebook", "fb.com": "facebook",
	"instagram.com": "instagram", "linkedin.com": "linkedin", "youtube.com": "youtube",
	"github.com": "github", "gitlab.com": "gitlab", "tiktok.com": "tiktok", "pinterest.com": "pinterest",
	"bsky.app": "bluesky", "threads.net": "threads", "threads.com": "threads", "discord.gg": "discord",
	"discord.com": "discord", "reddit.com": "reddit", "medium.com": "medium", "dribbble.com": "dribbble",
	"behance.net": "behance", "vimeo.com": "vimeo", "t.me": "telegram", "twitch.tv": "twitch",
	"mastodon.social": "mastodon", "fosstodon.org": "mastodon", "flickr.com": "flickr", "tumblr.com": "tumblr",
	"soundcloud.com": "soundcloud", "bandcamp.com": "bandcamp", "spotify.com": "spotify", "open.spotify.com": "spotify",
}

// sharePath: share/intent buttons are not profiles.
var sharePath = regexp.MustCompile(`(?i)^/(sharer|share|intent|sharing|dialog|plugins|hashtag|search)\b|/share(/|$)|sharearticle`)

// platformOf names the platform of a profile URL ("" when it is not one).
// A rel=me link to any host with an /@name path is a Mastodon-style
// profile (the fediverse has no fixed host).
func platformOf(raw string, relMe bool) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	path := strings.TrimRight(u.Path, "/")
	if path == "" || sharePath.MatchString(path) || u.Query().Get("u") != "" || u.Query().Get("url") != "" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	for _, pre := range []string{"www.", "m.", "mobile."} {
		host = strings.TrimPrefix(host, pre)
	}
	if p, ok := platforms[host]; ok {
		return p
	}
	if strings.HasSuffix(host, ".bandcamp.com") {
		return "bandcamp"
	}
	if relMe && strings.HasPrefix(path, "/@") {
		return "mastodon"
	}
	return ""
}

const maxLinks = 12

// chooseLinks: the brand's social profiles, one per platform, JSON-LD
// sameAs first (the site's own statement), then footer, header and rel=me
// links in page order.
func chooseLinks(sig *Signals) []app.Link {
	var out []app.Link
	seen := map[string]bool{}
	add := func(href string, relMe bool) {
		p := platformOf(href, relMe)
		if p == "" || seen[p] || len(out) == maxLinks {
			return
		}
		seen[p] = true
		out = append(out, app.Link{Platform: p, URL: href})
	}
	for _, o := range sig.JSONLD {
		for _, s := range o.SameAs {
			add(s, false)
		}
	}
	for _, where := range []string{"footer", "header", ""} {
		for _, l := range sig.OutLinks {
			if l.Where == where {
				add(l.Href, strings.Contains(" "+l.Rel+" ", " me "))
			}
		}
	}
	return out
}
