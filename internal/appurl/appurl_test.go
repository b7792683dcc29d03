package appurl

import (
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
