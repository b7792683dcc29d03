package generated

import (
	"bytes"
	"math"
	"testing"

	"github.com/99designs/gqlgen/graphql"
)

// FuzzDirectStringAsGqlgen: a string field written from its address is written byte for byte as
// gqlgen's MarshalString writes it, whatever the string holds (quotes, control characters,
// invalid UTF-8).
func FuzzDirectStringAsGqlgen(f *testing.F) {
	for _, s := range []string{"", "plain", `a "quoted" \ one`, "tab\tnew\nline\r\x00\x1f\x7f", "é \u2028 <&>", "\xff\xfe bad"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want bytes.Buffer
		(*directString)(&s).MarshalGQL(&got)
		graphql.MarshalString(s).MarshalGQL(&want)
		if got.String() != want.String() {
			t.Errorf("%q: wrote %s, gqlgen writes %s", s, got.String(), want.String())
		}
	})
}

// TestDirectIntAndBoolAsGqlgen: the same for Int and Boolean fields, and none allocates for
// its value.
func TestDirectIntAndBoolAsGqlgen(t *testing.T) {
	for _, i := range []int{0, 7, -7, math.MaxInt, math.MinInt} {
		var got, want bytes.Buffer
		(*directInt)(&i).MarshalGQL(&got)
		graphql.MarshalInt(i).MarshalGQL(&want)
		if got.String() != want.String() {
			t.Errorf("%d: wrote %s, gqlgen writes %s", i, got.String(), want.String())
		}
	}
	for _, b := range []bool{false, true} {
		var got, want bytes.Buffer
		(*directBool)(&b).MarshalGQL(&got)
		graphql.MarshalBoolean(b).MarshalGQL(&want)
		if got.String() != want.String() {
			t.Errorf("%v: wrote %s, gqlgen writes %s", b, got.String(), want.String())
		}
	}
	obj := struct {
		Title  string
		Number int
	}{"a title", 42}
	var buf bytes.Buffer
	buf.Grow(64)
	var m graphql.Marshaler
	if n := testing.AllocsPerRun(100, func() {
		m = (*directString)(&obj.Title)
		m.MarshalGQL(&buf)
		m = (*directInt)(&obj.Number)
		m.MarshalGQL(&buf)
		buf.Reset()
	}); n != 0 {
		t.Errorf("%v allocations to answer and write two fields", n)
	}
}
