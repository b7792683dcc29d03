package check

import (
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/apperr"
)

func TestText(t *testing.T) {
	ok := map[string]string{"OKBounds": "ab", "OKCountsCharacters": "éé"}
	for name, s := range ok {
		t.Run(name, func(t *testing.T) {
			if err := Text("title", s, 1, 2); err != nil {
				t.Fatal(err)
			}
		})
	}
	bad := map[string]struct{ s, says string }{
		"ErrEmpty":   {"", "title: must not be empty"},
		"ErrTooLong": {"abc", "title: must be at most 2 characters (got 3)"},
		"ErrNUL":     {"a\x00", "title: must be valid UTF-8"},
		"ErrInvalid": {"\xff", "title: must be valid UTF-8"},
	}
	for name, c := range bad {
		t.Run(name, func(t *testing.T) {
			err := Text("title", c.s, 1, 2)
			if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid || !strings.HasPrefix(e.Message, c.says) {
				t.Fatalf("Text(%q) = %v, want INVALID %q", c.s, err, c.says)
			}
		})
	}
}

func TestURL(t *testing.T) {
	for _, u := range []string{"https://example.com/a", "http://example.com"} {
		if err := URL("url", u, 100); err != nil {
			t.Errorf("URL(%q) = %v", u, err)
		}
	}
	for _, u := range []string{"", "/relative", "ftp://example.com", "https://", "https://example.com/" + strings.Repeat("a", 100)} {
		if e := apperr.As(URL("url", u, 100)); e == nil || e.Kind != apperr.Invalid {
			t.Errorf("URL(%q) = %v, want INVALID", u, e)
		}
	}
}

func TestTruncate(t *testing.T) {
	if got := Truncate("héllo", 2); got != "hé…" {
		t.Fatalf("Truncate = %q", got)
	}
	if got := Truncate("hé", 2); got != "hé" {
		t.Fatalf("Truncate = %q", got)
	}
}

func TestTrimmedOrNull(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name string
		in   Nullable[string]
		want Nullable[string]
	}{
		{"Absent", Nullable[string]{}, Nullable[string]{}},
		{"Null", Nullable[string]{Set: true}, Nullable[string]{Set: true}},
		{"Blank", Nullable[string]{Set: true, Value: str(" \t ")}, Nullable[string]{Set: true}},
		{"Trimmed", Nullable[string]{Set: true, Value: str("  a b ")}, Nullable[string]{Set: true, Value: str("a b")}},
	}
	for _, tc := range tests {
		got := TrimmedOrNull(tc.in)
		if got.Set != tc.want.Set || (got.Value == nil) != (tc.want.Value == nil) || got.Value != nil && *got.Value != *tc.want.Value {
			t.Errorf("%s: TrimmedOrNull = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
