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
