package graph

import (
	"regexp"
	"strings"

	"github.com/binderyhq/bindery/internal/apperr"
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

func truncate(s string, n int) string { return check.Truncate(s, n) }
