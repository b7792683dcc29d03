package sitecustom

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// rich sets a field of every kind: groups, themed colors and URLs, fonts, content references,
// lists of links, localized texts.
const rich = `{
  "title": "Acme Docs",
  "localizedTitle": {"fr": "Docs d'Acme"},
  "styling": {
    "theme": "bold", "primaryColor": {"light": "#112233", "dark": "#abc"},
    "tint": {"color": {"light": "#000000", "dark": "#FFFFFF"}},
    "corners": "circular", "font": "Lato", "headingFont": {"id": "brand", "custom": true, "fontFamily": "Brand",
      "fontFaces": [{"weight": 700, "sources": [{"url": "https://cdn.example.com/brand.woff2", "format": "woff2"}]}]},
    "codeTheme": {"default": {"light": "github-light", "dark": "github-dark"}},
    "sidebar": {"list": "pill"}, "search": "subtle"
  },
  "favicon": {"emoji": "📘"},
  "header": {"logo": {"light": "https://example.com/l.png", "dark": "https://example.com/d.png"},
    "primaryLink": {"kind": "url", "url": "https://example.com"},
    "links": [{"title": "Blog", "to": {"kind": "url", "url": "https://example.com/blog"}, "links": [],
      "condition": "visitor.claims.beta"},
      {"title": "Guides", "to": null, "links": [{"title": "Start", "to": {"kind": "page", "page": "p1", "space": "s1"}}]}]},
  "footer": {"groups": [{"title": "Company", "links": [{"title": "About", "to": {"kind": "url", "url": "https://example.com/about"}}]}],
    "copyright": "© Acme"},
  "announcement": {"enabled": true, "message": "New docs!", "style": "info"},
  "ai": {"mode": "search", "suggestions": ["How do I start?"], "instructions": "Be brief."},
  "socialAccounts": [{"platform": "github", "handle": "acme", "display": {"footer": true, "header": false}}],
  "privacyPolicy": {"url": "https://example.com/privacy"}
}`

func decode(t testing.TB, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestParse(t *testing.T) {
	t.Run("OKKeepsWhatIsGiven", func(t *testing.T) {
		in := decode(t, rich)
		got, err := Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		want := decode(t, rich)
		want["styling"].(map[string]any)["headingFont"].(map[string]any)["fontFaces"].([]any)[0].(map[string]any)["weight"] = 700
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got  %v\nwant %v", got, want)
		}
	})
	t.Run("OKDropsUnknownFields", func(t *testing.T) {
		got, err := Parse(decode(t, `{"mystery": 1, "styling": {"glow": true, "theme": "muted"}, "favicon": {"shape": "round"}}`))
		if err != nil {
			t.Fatal(err)
		}
		want := decode(t, `{"styling": {"theme": "muted"}, "favicon": {}}`)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
	t.Run("OKNullHeadingFontIsUnset", func(t *testing.T) {
		got, err := Parse(decode(t, `{"styling": {"headingFont": null}}`))
		if err != nil || len(got) != 0 {
			t.Fatalf("got %v, %v", got, err)
		}
	})
}

func TestParseRefuses(t *testing.T) {
	cases := []struct{ name, body, path, says string }{
		{"ColorName", `{"styling": {"primaryColor": {"light": "red", "dark": "#000"}}}`, "styling.primaryColor.light", "color"},
		{"ColorMissing", `{"styling": {"dangerColor": {"light": "#000"}}}`, "styling.dangerColor.dark", "required"},
		{"ThemeUnknown", `{"styling": {"theme": "dark"}}`, "styling.theme", "clean, muted"},
		{"StylingNotObject", `{"styling": "bold"}`, "styling", "object"},
		{"ColorNull", `{"styling": {"primaryColor": null}}`, "styling.primaryColor", "null"},
		{"TitleShort", `{"title": "A"}`, "title", "at least 2"},
		{"TitleLong", `{"title": "` + strings.Repeat("é", 129) + `"}`, "title", "at most 128"},
		{"TitleNUL", `{"title": "Ac\u0000me"}`, "title", "NUL"},
		{"TitleNumber", `{"title": 42}`, "title", "a number"},
		{"LocaleUnknown", `{"localizedTitle": {"xx": "Hi"}}`, "localizedTitle.xx", "language"},
		{"FaviconScript", `{"favicon": {"icon": {"light": "javascript:alert(1)", "dark": "https://x.io/a.png"}}}`, "favicon.icon.light", "http"},
		{"FaviconBoth", `{"favicon": {"icon": {}, "emoji": "x"}}`, "favicon", "not both"},
		{"FaviconRelative", `{"favicon": {"icon": {"light": "/a.png", "dark": "/b.png"}}}`, "favicon.icon.dark", "absolute"},
		{"RefKindUnknown", `{"header": {"links": [{"title": "X", "links": [], "to": {"kind": "ftp"}}]}}`, "header.links[0].to", "kind"},
		{"RefURLRelative", `{"header": {"links": [{"title": "X", "to": null, "links": [{"title": "Y", "to": {"kind": "url", "url": "docs"}}]}]}}`,
			"header.links[0].links[0].to.url", "absolute"},
		{"RefTargetMissing", `{"header": {"primaryLink": {"kind": "page"}}}`, "header.primaryLink.page", "required"},
		{"HeaderItemNoTo", `{"header": {"links": [{"title": "X", "links": []}]}}`, "header.links[0].to", "required"},
		{"HeaderLinksNotArray", `{"header": {"links": {}}}`, "header.links", "array"},
		{"TooManyLinks", `{"footer": {"groups": [` + strings.Repeat(`{"title": "G", "links": []},`, 50) + `{"title": "G", "links": []}]}}`, "footer.groups", "0 to 50"},
		{"FontUnknown", `{"styling": {"font": "Comic"}}`, "styling.font", "Inter"},
		{"FontWeightFraction", `{"styling": {"font": {"id": "f", "custom": true, "fontFamily": "F", "fontFaces": [{"weight": 1.5, "sources": [{"url": "https://x.io/f.woff"}]}]}}}`,
			"styling.font.fontFaces[0].weight", "whole number"},
		{"FontNoFaces", `{"styling": {"monospaceFont": {"id": "f", "custom": true, "fontFamily": "F", "fontFaces": []}}}`, "styling.monospaceFont.fontFaces", "1 to 50"},
		{"FontNumber", `{"styling": {"font": 3}}`, "styling.font", "string or an object"},
		{"SuggestionsMany", `{"ai": {"suggestions": ["abc", "abc", "abc", "abc", "abc", "abc"]}}`, "ai.suggestions", "0 to 5"},
		{"SuggestionShort", `{"ai": {"suggestions": ["ab"]}}`, "ai.suggestions[0]", "at least 3"},
		{"SocialDisplay", `{"socialAccounts": [{"platform": "github", "handle": "a", "display": {"footer": true}}]}`, "socialAccounts[0].display.header", "required"},
		{"AnnouncementStyle", `{"announcement": {"enabled": true, "message": "Hello", "style": "loud"}}`, "announcement.style", "info"},
		{"BooleanString", `{"themes": {"toggeable": "yes"}}`, "themes.toggeable", "boolean"},
		{"PrivacyURL", `{"privacyPolicy": {"url": "mailto:a@b.c"}}`, "privacyPolicy.url", "http"},
		{"CopyrightLong", `{"footer": {"copyright": "` + strings.Repeat("c", 513) + `"}}`, "footer.copyright", "at most 512"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(decode(t, c.body))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want an *Error, got %v", err)
			}
			if e.Path != c.path || !strings.Contains(e.Message, c.says) {
				t.Fatalf("got %q, want path %s saying %q", err, c.path, c.says)
			}
		})
	}
}

func TestEffective(t *testing.T) {
	site, err := Parse(decode(t, `{"styling": {"theme": "bold", "primaryColor": {"light": "#111111", "dark": "#222222"}},
		"favicon": {"emoji": "📘"}, "header": {"links": []}}`))
	if err != nil {
		t.Fatal(err)
	}
	override, err := ParseOverride(decode(t, `{"styling": {"theme": "muted", "sidebar": {"list": "line"}},
		"favicon": {"icon": {"light": "https://x.io/l.png", "dark": "https://x.io/d.png"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("OKDefaults", func(t *testing.T) {
		got := Effective()
		styling := got["styling"].(map[string]any)
		if styling["theme"] != "clean" || got["favicon"] == nil || got["privacyPolicy"] == nil || got["title"] != nil {
			t.Fatalf("defaults %v", got)
		}
		if _, ok := styling["headingFont"]; ok {
			t.Fatal("headingFont has no default")
		}
	})
	t.Run("OKSiteOverDefaults", func(t *testing.T) {
		styling := Effective(site)["styling"].(map[string]any)
		if styling["theme"] != "bold" || styling["corners"] != "rounded" || styling["primaryColor"].(map[string]any)["dark"] != "#222222" {
			t.Fatalf("styling %v", styling)
		}
	})
	t.Run("OKOverrideOverSite", func(t *testing.T) {
		got := Effective(site, ApplyOverride(nil, override))
		styling := got["styling"].(map[string]any)
		if styling["theme"] != "muted" || styling["primaryColor"].(map[string]any)["light"] != "#111111" ||
			styling["sidebar"].(map[string]any)["list"] != "line" || styling["sidebar"].(map[string]any)["background"] != "default" {
			t.Fatalf("styling %v", styling)
		}
		if fav := got["favicon"].(map[string]any); fav["emoji"] != nil || fav["icon"] == nil {
			t.Fatalf("a leaf is replaced whole, got favicon %v", fav)
		}
	})
	t.Run("OKLayersUntouched", func(t *testing.T) {
		got := Effective(site)
		got["styling"].(map[string]any)["theme"] = "gradient"
		if Effective(site)["styling"].(map[string]any)["theme"] != "bold" || Effective()["styling"].(map[string]any)["theme"] != "clean" {
			t.Fatal("changing an answer changed a layer or the defaults")
		}
	})
}

func TestOverride(t *testing.T) {
	t.Run("OKOnlyOverridableFields", func(t *testing.T) {
		got, err := ParseOverride(decode(t, `{"styling": {"font": "Lato", "icons": "solid"}, "ai": {"mode": "assistant"}, "pagination": {"enabled": false}}`))
		if err != nil {
			t.Fatal(err)
		}
		want := decode(t, `{"styling": {"icons": "solid"}, "pagination": {"enabled": false}}`)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %v, want %v", got, want)
		}
	})
	t.Run("OKNullClears", func(t *testing.T) {
		first, _ := ParseOverride(decode(t, `{"title": "Beta", "styling": {"icons": "solid", "search": "subtle"}}`))
		current := ApplyOverride(nil, first)
		clear, err := ParseOverride(decode(t, `{"title": null, "styling": {"icons": null, "search": null}, "favicon": null}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := ApplyOverride(current, clear); len(got) != 0 {
			t.Fatalf("clearing every override left %v", got)
		}
		if current["title"] != "Beta" {
			t.Fatalf("ApplyOverride changed its input: %v", current)
		}
	})
	t.Run("ErrBadValue", func(t *testing.T) {
		_, err := ParseOverride(decode(t, `{"styling": {"sidebar": {"list": "zigzag"}}}`))
		if err == nil || !strings.HasPrefix(err.Error(), "styling.sidebar.list: ") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestPublic(t *testing.T) {
	s := Effective(map[string]any{"ai": map[string]any{"mode": "assistant", "instructions": "secret"}})
	p := Public(s)
	if _, ok := p["ai"].(map[string]any)["instructions"]; ok {
		t.Fatal("instructions are shown")
	}
	if s["ai"].(map[string]any)["instructions"] != "secret" {
		t.Fatal("Public changed its input")
	}
}

func TestConditions(t *testing.T) {
	s, err := Parse(decode(t, rich))
	if err != nil {
		t.Fatal(err)
	}
	got := Conditions(s)
	want := []Condition{{Path: "header.links[0].condition", Expr: "visitor.claims.beta"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
