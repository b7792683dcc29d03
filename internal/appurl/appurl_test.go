package appurl

import (
	"reflect"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/apperr"
)

func TestParse(t *testing.T) {
	const base = "https://docs.example.com/bindery"
	for raw, want := range map[string]Target{
		base + "/o/O1/c/C1":                            {Organization: "O1", Collection: "C1"},
		base + "/o/O1/s/S1":                            {Organization: "O1", Space: "S1"},
		base + "/o/O1/s/S1/":                           {Organization: "O1", Space: "S1"},
		"https://DOCS.example.com/bindery/o/O1/s/S1/a": {Organization: "O1", Space: "S1", PagePath: "a"},
		base + "/o/O1/s/S1/guides/caf%C3%A9?x=1#h":     {Organization: "O1", Space: "S1", PagePath: "guides/café"},
		base + "/o/O1/s/S1/~/changes/12":               {Organization: "O1", Space: "S1", ChangeRequest: "12"},
		base + "/o/O1/s/S1/~/changes/12/guides/intro":  {Organization: "O1", Space: "S1", ChangeRequest: "12", PagePath: "guides/intro"},
	} {
		got, err := Parse("url", base, raw)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", raw, got, err, want)
		}
	}
	for raw, kind := range map[string]apperr.Kind{
		"":                                    apperr.Invalid,
		"/o/O1/s/S1":                          apperr.Invalid,
		"https://evil.example.com/o/O1/s/S1":  apperr.Invalid,
		"https://docs.example.com/o/O1/s/S1":  apperr.NotFound, // not under the base path
		base + "/o/O1":                        apperr.NotFound,
		base + "/o/O1/sites/X":                apperr.NotFound,
		base + "/o/O1/c/C1/more":              apperr.NotFound,
		base + "/o/O1/s/S1/~/changes/0":       apperr.NotFound,
		base + "/o/O1/s/S1/~/changes/x/intro": apperr.NotFound,
		base + "/o/O1/s/S1/~/files":           apperr.NotFound,
		"https://docs.example.com:%zz/":       apperr.Invalid,
	} {
		_, err := Parse("url", base, raw)
		if e := apperr.As(err); e == nil || e.Kind != kind {
			t.Errorf("Parse(%q): %v, want kind %v", raw, err, kind)
		}
	}
}

func TestParseSite(t *testing.T) {
	const base = "https://docs.example.com/bindery"
	for raw, want := range map[string]Site{
		base + "/sites/acme":                         {Name: "acme", BasePath: "/bindery/sites/acme/", Origin: "https://docs.example.com"},
		base + "/sites/acme/v2/guides/caf%C3%A9?x=1": {Name: "acme", BasePath: "/bindery/sites/acme/", Path: "v2/guides/café", Origin: "https://docs.example.com"},
		"http://Help.Acme.test/guides/":              {Hostname: "help.acme.test", BasePath: "/", Path: "guides", Origin: "http://Help.Acme.test"},
	} {
		got, err := ParseSite("url", base, raw)
		got.Query = nil
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseSite(%q) = %+v, %v; want %+v", raw, got, err, want)
		}
	}
	if s, _ := ParseSite("url", base, base+"/sites/acme/x?shareKey=k"); s.Query.Get("shareKey") != "k" {
		t.Errorf("the query: %v", s.Query)
	}
	for raw, kind := range map[string]apperr.Kind{
		"":                                   apperr.Invalid,
		"/sites/acme":                        apperr.Invalid,
		"ftp://help.acme.test/":              apperr.Invalid,
		"https://docs.example.com:%zz/":      apperr.Invalid,
		base + "/o/O1/s/S1":                  apperr.NotFound,
		base + "/sites/":                     apperr.NotFound,
		"https://127.0.0.1/sites/acme":       apperr.NotFound,
		"https://localhost/x":                apperr.NotFound,
		"https://docs.example.com:8443/x":    apperr.NotFound,
		"https://docs.example.com/sites/foo": apperr.NotFound, // not under the base path
	} {
		_, err := ParseSite("url", base, raw)
		if e := apperr.As(err); e == nil || e.Kind != kind {
			t.Errorf("ParseSite(%q): %v, want kind %v", raw, err, kind)
		}
	}
}

// FuzzParseSite reads any text without panicking, and a URL it accepts names a site one way.
func FuzzParseSite(f *testing.F) {
	for _, seed := range []string{"https://docs.example.com/bindery/sites/acme/a/b?shareKey=k", "http://help.acme.test/", "https://[::1]/x", "https://docs.example.com/bindery/sites//x", "%zz"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		s, err := ParseSite("url", "https://docs.example.com/bindery", raw)
		if err != nil {
			return
		}
		if (s.Name == "") == (s.Hostname == "") || !strings.HasSuffix(s.BasePath, "/") || strings.Trim(s.Path, "/") != s.Path {
			t.Fatalf("ParseSite(%q) = %+v", raw, s)
		}
	})
}
