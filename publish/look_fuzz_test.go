package publish

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/sitecustom"
)

// colorsOnly is what a page's <style> may hold: custom properties of hex colors.
var colorsOnly = regexp.MustCompile(`^(?::root\{(?:--[a-z]+-(?:light|dark):#[0-9a-fA-F]{3,6};)+\})?$`)

// FuzzLook: whatever the stored settings hold, a look is read without panicking, its <style>
// declares hex colors only, and its CSP keeps its nine directives, its image sources being
// plain origins.
func FuzzLook(f *testing.F) {
	f.Add(`{"styling":{"primaryColor":{"light":"#fff","dark":"#000"},"tint":{"color":{"light":"#abc","dark":"red;}"}}}}`)
	f.Add(`{"header":{"logo":{"light":"https://a.example/x.png","dark":"http://b.example:8080/y"},"links":[{"title":"x","to":{"kind":"url","url":"javascript:1"}}]}}`)
	f.Add(`{"favicon":{"emoji":"\"><script>"},"themes":{"default":"dark"},"footer":{"logo":{"light":"https://x;script-src *","dark":"https://y"}}}`)
	f.Add(`{"favicon":{"icon":{"light":"https://[::1]/a","dark":"https://user@h/b"}},"announcement":{"enabled":true,"message":"m","link":7}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var settings map[string]any
		if json.Unmarshal([]byte(raw), &settings) != nil {
			return
		}
		l := newLook(sitecustom.Effective(settings), &ent.Site{Title: "Docs"}, &ent.SiteSpace{ID: "ss"})
		if !colorsOnly.MatchString(string(l.CSS)) {
			t.Fatalf("style %q", l.CSS)
		}
		if csp := l.contentSecurityPolicy(); strings.Count(csp, ";") != 8 {
			t.Fatalf("CSP %q", csp)
		}
		for _, origin := range l.imageOrigins {
			if !regexp.MustCompile(`^https?://[a-z0-9.-]+(:[0-9]+)?$`).MatchString(origin) {
				t.Fatalf("image origin %q", origin)
			}
		}
	})
}

// TestResolvedLeavesTheKeptLook: a page sets the URLs of its announcement's, header's and footer's
// links on its own copy of the look; the look kept for every view of the site space, which
// concurrent views share, is not changed (decision 543).
func TestResolvedLeavesTheKeptLook(t *testing.T) {
	to := func(url string) map[string]any { return map[string]any{"kind": "url", "url": url} }
	kept := newLook(sitecustom.Effective(map[string]any{
		"header": map[string]any{"links": []any{map[string]any{"title": "Docs", "to": to("https://example.com/h"),
			"links": []any{map[string]any{"title": "Sub", "to": to("https://example.com/s")}}}}},
		"announcement": map[string]any{"enabled": true, "message": "News", "style": "info",
			"link": map[string]any{"title": "More", "to": to("https://example.com/a")}},
		"footer": map[string]any{"groups": []any{map[string]any{"title": "G", "links": []any{map[string]any{"title": "L", "to": to("https://example.com/f")}}}}},
	}), &ent.Site{Title: "Docs"}, &ent.SiteSpace{ID: "ss"})
	urls := func(l *look) []string {
		return []string{l.Header[0].URL, l.Header[0].Links[0].URL, l.Announcement.Link.URL, l.Footer.Groups[0].Links[0].URL}
	}
	page := kept.resolved(siteLinks{})
	if got := urls(page); !slices.Equal(got, []string{"https://example.com/h", "https://example.com/s", "https://example.com/a", "https://example.com/f"}) {
		t.Fatalf("the page's links: %q", got)
	}
	if got := urls(kept); !slices.Equal(got, []string{"", "", "", ""}) {
		t.Fatalf("the kept look was changed: %q", got)
	}
}
