package htmlpage

import (
	neturl "net/url"
	"regexp"
	"strings"
)

// A provider of the allow list: the pages of it an embed may show in a frame, and the player URL
// for one. Embeds of anything else are links.
type provider struct {
	name   string
	origin string // where its players are served from, for the sites' frame-src
	player func(u *neturl.URL) string
}

// idPattern is what an id taken from a URL may hold before it goes into a player's URL.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func id(s string) string {
	if idPattern.MatchString(s) {
		return s
	}
	return ""
}

// providers are the embeds shown as players, by the hosts of the URLs they take.
var providers = map[string]provider{
	"youtube.com": {"YouTube", "https://www.youtube-nocookie.com", youtube}, "youtu.be": {"YouTube", "https://www.youtube-nocookie.com", youtube},
	"vimeo.com": {"Vimeo", "https://player.vimeo.com", vimeo}, "player.vimeo.com": {"Vimeo", "https://player.vimeo.com", vimeo},
	"loom.com":   {"Loom", "https://www.loom.com", loom},
	"codepen.io": {"CodePen", "https://codepen.io", codepen},
	"figma.com":  {"Figma", "https://www.figma.com", figma},
}

// FrameOrigins are the origins of the players embeds show, for the sites' Content-Security-Policy
// (frame-src).
func FrameOrigins() []string {
	seen := map[string]bool{}
	var out []string
	for _, host := range []string{"youtube.com", "vimeo.com", "loom.com", "codepen.io", "figma.com"} {
		if o := providers[host].origin; !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out
}

// youtube plays youtube.com/watch?v=ID, /embed/ID, /shorts/ID and youtu.be/ID from YouTube's
// domain that sets no cookie until the video plays.
func youtube(u *neturl.URL) string {
	v := u.Query().Get("v")
	if u.Hostname() == "youtu.be" {
		v = strings.TrimPrefix(u.Path, "/")
	} else if rest, ok := cutAny(u.Path, "/embed/", "/shorts/", "/live/"); ok {
		v = rest
	}
	if v = id(v); v == "" {
		return ""
	}
	return "https://www.youtube-nocookie.com/embed/" + v
}

// vimeo plays vimeo.com/ID (an unlisted video's hash after it) and player.vimeo.com/video/ID.
func vimeo(u *neturl.URL) string {
	parts := strings.Split(strings.Trim(strings.TrimPrefix(u.Path, "/video"), "/"), "/")
	if !digits.MatchString(parts[0]) {
		return ""
	}
	player := "https://player.vimeo.com/video/" + parts[0]
	if len(parts) > 1 && id(parts[1]) != "" {
		player += "?h=" + parts[1]
	} else if h := id(u.Query().Get("h")); h != "" {
		player += "?h=" + h
	}
	return player
}

var digits = regexp.MustCompile(`^[0-9]{1,20}$`)

// loom plays loom.com/share/ID and /embed/ID.
func loom(u *neturl.URL) string {
	if rest, ok := cutAny(u.Path, "/share/", "/embed/"); ok && id(rest) != "" {
		return "https://www.loom.com/embed/" + rest
	}
	return ""
}

// codepen shows codepen.io/USER/pen/ID (or /embed/ID) with its result.
func codepen(u *neturl.URL) string {
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) != 3 || parts[1] != "pen" && parts[1] != "embed" || id(parts[0]) == "" || id(parts[2]) == "" {
		return ""
	}
	return "https://codepen.io/" + parts[0] + "/embed/" + parts[2] + "?default-tab=result"
}

// figma shows a Figma file, design, prototype or board through Figma's embed page.
func figma(u *neturl.URL) string {
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	switch {
	case len(parts) < 2 || id(parts[1]) == "":
		return ""
	case parts[0] == "file", parts[0] == "design", parts[0] == "proto", parts[0] == "board":
		page := neturl.URL{Scheme: "https", Host: "www.figma.com", Path: u.Path, RawQuery: u.RawQuery}
		return "https://www.figma.com/embed?embed_host=bindery&url=" + neturl.QueryEscape(page.String())
	}
	return ""
}

// cutAny returns the rest of path after the first of the prefixes it starts with.
func cutAny(path string, prefixes ...string) (string, bool) {
	for _, p := range prefixes {
		if rest, ok := strings.CutPrefix(path, p); ok {
			return strings.TrimSuffix(rest, "/"), true
		}
	}
	return "", false
}

// player is the player of an embed's URL and its provider's name; "" for a URL no provider of
// the allow list plays.
func player(raw string) (src, name string) {
	u, err := neturl.Parse(raw)
	if err != nil || u.Scheme != "https" && u.Scheme != "http" || u.User != nil {
		return "", ""
	}
	host := strings.TrimPrefix(strings.TrimPrefix(strings.ToLower(u.Hostname()), "www."), "m.")
	p, ok := providers[host]
	if !ok {
		return "", ""
	}
	if src = p.player(u); src == "" {
		return "", ""
	}
	return src, p.name
}

// embed writes an embed: a player in a sandboxed frame for a provider of the allow list, with a
// link to the page below it; a link card for any other http(s) URL; the URL as text otherwise.
func (w *writer) embed(url string) {
	if !isAbsolute(url) || !safeImage(url) { // http(s) only
		w.b.WriteString(`<p class="embed">` + escape(url) + "</p>\n")
		return
	}
	link := `<a class="card" href="` + escape(url) + `" rel="nofollow noopener">` + escape(url) + "</a>"
	src, name := player(url)
	if src == "" {
		w.b.WriteString(`<p class="embed">` + link + "</p>\n")
		return
	}
	w.b.WriteString(`<figure class="embed"><iframe src="` + escape(src) + `" title="` + escape(name) + `" loading="lazy" ` +
		`sandbox="allow-scripts allow-same-origin allow-popups allow-presentation" allow="fullscreen; picture-in-picture; encrypted-media" ` +
		`referrerpolicy="strict-origin-when-cross-origin"></iframe><figcaption>` + link + "</figcaption></figure>\n")
}
