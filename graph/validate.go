package graph

import (
	"github.com/binderyhq/bindery/internal/check"
)

// checkText validates a text input (check.Text).
func checkText(field, s string, min, max int) error { return check.Text(field, s, min, max) }

// trimmedText is s without surrounding spaces, checked (check.Trimmed).
func trimmedText(field, s string, min, max int) (string, error) {
	return check.Trimmed(field, s, min, max)
}

// setTrimmed checks an optional text input and sets it trimmed (check.SetTrimmed).
func setTrimmed[T any](field string, v *string, min, max int, set func(string) T) error {
	return check.SetTrimmed(field, v, min, max, set)
}

// checkURL validates an absolute http(s) URL of at most max characters (check.URL).
func checkURL(field, s string, max int) error { return check.URL(field, s, max) }

func truncate(s string, n int) string { return check.Truncate(s, n) }
