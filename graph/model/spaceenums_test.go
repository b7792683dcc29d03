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
