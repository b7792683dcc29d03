package model

import (
	"strconv"
	"strings"
	"testing"
)

// TestAppendEnumAsStrconv: an enum value is written as upper-casing, replacing '-' and quoting
// it as strings would write it, for ent's values and for any other text.
func TestAppendEnumAsStrconv(t *testing.T) {
	for _, s := range []string{"open", "share-link", "in-collection", "v2-beta_1", "", "été", "a\"b", "tab\there", "\x00"} {
		want := strconv.Quote(strings.ToUpper(strings.ReplaceAll(s, "-", "_")))
		if got := string(appendEnum([]byte("x"), s)); got != "x"+want {
			t.Errorf("%q: %s, want x%s", s, got, want)
		}
	}
}

// TestMarshalEnumKept: the marshaller of an enum value writes it as appendEnum does, and is made
// once: writing the value again allocates nothing.
func TestMarshalEnumKept(t *testing.T) {
	for _, s := range []string{"open", "share-link", "été"} {
		var b strings.Builder
		marshalEnum(s).MarshalGQL(&b)
		if want := string(appendEnum(nil, s)); b.String() != want {
			t.Errorf("%q: wrote %s, want %s", s, b.String(), want)
		}
		if n := testing.AllocsPerRun(100, func() { _ = marshalEnum(s) }); n != 0 {
			t.Errorf("%q: %v allocations per marshaller, want 0", s, n)
		}
	}
}
