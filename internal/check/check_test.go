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
	text := func(s string) *string { return &s }
	tests := map[string]struct {
		in   Nullable[string]
		want Nullable[string]
	}{
		"Absent":    {Nullable[string]{}, Nullable[string]{}},
		"Null":      {Nullable[string]{Set: true}, Nullable[string]{Set: true}},
		"Blank":     {Nullable[string]{Set: true, Value: text(" \t ")}, Nullable[string]{Set: true}},
		"Empty":     {Nullable[string]{Set: true, Value: text("")}, Nullable[string]{Set: true}},
		"Trimmed":   {Nullable[string]{Set: true, Value: text("  Owner ")}, Nullable[string]{Set: true, Value: text("Owner")}},
		"AsItComes": {Nullable[string]{Set: true, Value: text("Owner")}, Nullable[string]{Set: true, Value: text("Owner")}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := TrimmedOrNull(tc.in)
			if got.Set != tc.want.Set || (got.Value == nil) != (tc.want.Value == nil) ||
				got.Value != nil && *got.Value != *tc.want.Value {
				t.Fatalf("TrimmedOrNull = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestTextFunc(t *testing.T) {
	valid := TextFunc("icon", 1, 3)
	if err := valid("ab"); err != nil {
		t.Fatal(err)
	}
	if e := apperr.As(valid("abcd")); e == nil || e.Message != "icon: must be at most 3 characters (got 4)" {
		t.Fatalf("TextFunc = %v, want the check of Text", e)
	}
}

func TestDistinct(t *testing.T) {
	got := Distinct([]string{"b", "a", "b", "c", "a"})
	if strings.Join(got, ",") != "b,a,c" {
		t.Fatalf("Distinct = %q, want [b a c]", got)
	}
	if got := Distinct(nil); got == nil || len(got) != 0 {
		t.Fatalf("Distinct(nil) = %#v, want an empty list", got)
	}
}
