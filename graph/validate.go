package graph

import (
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/apperr"
)

// checkText validates a text input: valid UTF-8 without NUL characters, min..max characters
// (Unicode code points, as JSON Schema counts them). Returns INVALID naming the field and bound.
func checkText(field, s string, min, max int) error {
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

// trimmedText is s without surrounding spaces, checked by checkText. Returns INVALID naming the
// field and bound.
func trimmedText(field, s string, min, max int) (string, error) {
	s = strings.TrimSpace(s)
	return s, checkText(field, s, min, max)
}

// setTrimmed checks an optional text input and, when it is given, sets it trimmed. Returns
// INVALID naming the field and bound.
func setTrimmed[T any](field string, v *string, min, max int, set func(string) T) error {
	if v == nil {
		return nil
	}
	s, err := trimmedText(field, *v, min, max)
	if err == nil {
		set(s)
	}
	return err
}

// checkURL validates an absolute http(s) URL of at most max characters.
func checkURL(field, s string, max int) error {
	if err := checkText(field, s, 1, max); err != nil {
		return err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apperr.Invalidf("%s: must be an absolute http or https URL", field)
	}
	return nil
}

var domainPattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)

// normalizeDomains lower-cases email domains, checks each, and drops duplicates.
func normalizeDomains(field string, domains []string) ([]string, error) {
	if len(domains) > 100 {
		return nil, apperr.Invalidf("%s: at most 100 domains (got %d)", field, len(domains))
	}
	out := make([]string, 0, len(domains))
	seen := map[string]bool{}
	for i, d := range domains {
		d = strings.ToLower(strings.TrimSpace(d))
		if len(d) > 253 || !domainPattern.MatchString(d) {
			return nil, apperr.Invalidf("%s[%d]: %q is not a domain name like example.com", field, i, truncate(d, 80))
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out, nil
}

func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
