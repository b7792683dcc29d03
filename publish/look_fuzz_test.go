package publish

import (
	"encoding/json"
	"regexp"
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
