package redirects

import (
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	ok := map[string]Source{
		"/old":               {Path: "/old"},
		"/a/b.html":          {Path: "/a/b.html"},
		"/docs/*":            {Path: "/docs/*", Prefix: "/docs/"},
		"/docs*":             {Path: "/docs*", Prefix: "/docs"},
		"/caf%c3%a9":         {Path: "/caf%C3%A9"},
		"/%41b":              {Path: "/Ab"}, // an escaped unreserved character is the character
		"/a+b~c":             {Path: "/a+b~c"},
		"/x/" + long(505):    {Path: "/x/" + long(505)},
		"/v1.2/guide-3/_a/*": {Path: "/v1.2/guide-3/_a/*", Prefix: "/v1.2/guide-3/_a/"},
	}
	for in, want := range ok {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "/", "/*", "old", "/old/", "/a//b", "/a*b", "/**", "/docs//*", "/%2", "/%zz",
		"/a b", "/ä", "/a?b", "/a#b", "/" + long(512), "javascript:alert(1)", "//evil.example.com"} {
		if got, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", in, got)
		}
	}
}

func long(n int) string { return strings.Repeat("a", n) }

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{"/café": "/caf%C3%A9", "/a b/c": "/a%20b/c", "/100%": "/100%25", "/A-z": "/A-z"} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPrefixes(t *testing.T) {
	got := Prefixes("/a/%C3%A9")
	want := []string{"/a", "/a/", "/a/%C3", "/a/%C3%A9", "/a/%C3%A9/"}
	if !slices.Equal(got, want) {
		t.Fatalf("Prefixes = %q, want %q", got, want)
	}
	if n := len(Prefixes("/" + long(2000))); n >= MaxSource {
		t.Fatalf("%d prefixes for a long path", n)
	}
}

func TestBest(t *testing.T) {
	sources := func(paths ...string) []Source {
		var out []Source
		for _, p := range paths {
			s, err := Parse(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return out
	}
	cands := sources("/docs*", "/docs/*", "/docs/guide/*", "/docs/guide/install")
	for path, want := range map[string]struct {
		source, suffix string
	}{
		"/docs/guide/install": {"/docs/guide/install", ""}, // exact wins
		"/docs/guide/setup":   {"/docs/guide/*", "setup"},  // longest prefix
		"/docs/guide":         {"/docs/guide/*", ""},       // "/x/*" matches "/x"
		"/docs/a/b":           {"/docs/*", "a/b"},
		"/docs-old/x":         {"/docs*", "-old/x"},
	} {
		i, suffix, ok := Best(cands, path)
		if !ok || cands[i].Path != want.source || suffix != want.suffix {
			t.Errorf("Best(%q) = %v %q %v, want %+v", path, i, suffix, ok, want)
		}
	}
	if _, _, ok := Best(cands, "/doc"); ok {
		t.Error("/doc matched")
	}
}

func TestAppend(t *testing.T) {
	for _, c := range []struct{ dest, suffix, want string }{
		{"https://example.com/new/?a=1#top", "x/caf%C3%A9", "https://example.com/new/x/caf%C3%A9?a=1#top"},
		{"/sites/acme/v2/", "a/b", "/sites/acme/v2/a/b"},
		{"/sites/acme/", "", "/sites/acme/"},
	} {
		if got := Append(c.dest, c.suffix); got != c.want {
			t.Errorf("Append(%q, %q) = %q, want %q", c.dest, c.suffix, got, c.want)
		}
	}
}

// FuzzParse: any text either fails or gives a canonical source that parses to itself, whose
// prefix (for a wildcard) is among the prefixes of the paths it matches.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"/old", "/docs/*", "/docs*", "/caf%c3%a9", "/%2", "/a//b", "/*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(src.Path)
		if err != nil || again != src || len(src.Path) > MaxSource {
			t.Fatalf("Parse(%q) = %+v; its canonical form parses to %+v, %v", s, src, again, err)
		}
		if src.Wildcard() {
			path := src.Prefix + "x"
			if !slices.Contains(Prefixes(path), src.Prefix) {
				t.Fatalf("prefix %q is not among the prefixes of %q", src.Prefix, path)
			}
			if _, _, ok := Best([]Source{src}, path); !ok {
				t.Fatalf("%q does not match %q", src.Path, path)
			}
		}
	})
}
