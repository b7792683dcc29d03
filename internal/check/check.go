// Package check validates the values of inputs, on every surface alike: each failure is an
// INVALID error naming the field and what it must be.
package check

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/apperr"
)

// Text validates a text input: valid UTF-8 without NUL characters, min..max characters (Unicode
// code points, as JSON Schema counts them). Returns INVALID naming the field and bound.
func Text(field, s string, min, max int) error {
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return apperr.Invalidf("%s: must be valid UTF-8 text without NUL characters", field)
	}
	n := utf8.RuneCountInString(s)
	switch {
	case n < min && min == 1:
		return apperr.Invalidf("%s: must not be empty", field)
	case n < min:
		return apperr.Invalidf("%s: must be at least %d characters (got %d)", field, min, n)
	case n > max:
		return apperr.Invalidf("%s: must be at most %d characters (got %d)", field, max, n)
	}
	return nil
}

// TextFunc is Text of a field with bounds, as a function of the value (what SetOrClear takes).
func TextFunc(field string, min, max int) func(string) error {
	return func(s string) error { return Text(field, s, min, max) }
}

// Trimmed is s without surrounding spaces, checked by Text. Returns INVALID naming the field and
// bound.
func Trimmed(field, s string, min, max int) (string, error) {
	s = strings.TrimSpace(s)
	return s, Text(field, s, min, max)
}

// MaxUserRef bounds a user id given as a list filter.
const MaxUserRef = 64

// UserRef checks a user id given as a filter, trimmed; "" is no filter. Returns INVALID naming
// the field.
func UserRef(field, id string) (string, error) { return Trimmed(field, id, 0, MaxUserRef) }

// URL validates an absolute http(s) URL of at most max characters. Returns INVALID naming the
// field.
func URL(field, s string, max int) error {
	if err := Text(field, s, 1, max); err != nil {
		return err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apperr.Invalidf("%s: must be an absolute http or https URL", field)
	}
	return nil
}

// Truncate is s cut to n characters, "…" marking the cut: how an error message quotes a value.
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// Cut is the first max characters of s, without surrounding spaces: a value made from another
// (a title taken from another's) that must fit a bound.
func Cut(s string, max int) string {
	if runes := []rune(s); len(runes) > max {
		s = string(runes[:max])
	}
	return strings.TrimSpace(s)
}

// SetTrimmed checks an optional text input and, when it is given, sets it trimmed. Returns
// INVALID naming the field and bound.
func SetTrimmed[T any](field string, v *string, min, max int, set func(string) T) error {
	if v == nil {
		return nil
	}
	s, err := Trimmed(field, *v, min, max)
	if err == nil {
		set(s)
	}
	return err
}

// Nullable is an optional input field that may also be null: absent (Set false) leaves what it
// sets as it is, null (Value nil) clears it.
type Nullable[T any] struct {
	Set   bool
	Value *T
}

// TrimmedOrNull is in with its value trimmed of surrounding spaces, a blank value made null: an
// optional text that a blank removes.
func TrimmedOrNull(in Nullable[string]) Nullable[string] {
	if in.Value == nil {
		return in
	}
	s := strings.TrimSpace(*in.Value)
	if s == "" {
		return Nullable[string]{Set: true}
	}
	return Nullable[string]{Set: true, Value: &s}
}

// SetOrClear applies a Nullable to an update: absent does nothing, null clears, a value is
// checked (when valid is set) and stored.
func SetOrClear[T any, U any](in Nullable[T], valid func(T) error, set func(T) U, clear func() U) error {
	if !in.Set {
		return nil
	}
	if in.Value == nil {
		clear()
		return nil
	}
	if valid != nil {
		if err := valid(*in.Value); err != nil {
			return err
		}
	}
	set(*in.Value)
	return nil
}

// Distinct is ids without repeats, in the order each first appears: a list that names an id
// twice counts it once.
func Distinct(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
