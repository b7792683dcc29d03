package sites

import (
	"net/url"
	"strconv"
	"strings"
)

// Unsigned claims: a reader may say things of themselves that adaptive content reads under
// visitor.claims.unsigned (GitBook's URL parameters `visitor.<claim>=<value>`). They are
// unsigned, so they only choose what to show among what the site shows anyone.

// MaxUnsignedClaims bounds the claims a reader may set, and claimValueMax each value.
const (
	MaxUnsignedClaims = 32
	claimValueMax     = 256
)

// SetQueryClaims sets in unsigned the claims of a URL's `visitor.<claim>` parameters (a value
// longer than 256 bytes is ignored) and reports whether it set any.
func SetQueryClaims(unsigned map[string]any, query url.Values) bool {
	set := false
	for key, values := range query {
		name, ok := strings.CutPrefix(key, "visitor.")
		if !ok || name == "" || len(values) == 0 || len(values[0]) > claimValueMax {
			continue
		}
		unsigned[name] = claimValue(values[0])
		set = true
	}
	return set
}

// claimValue reads a parameter as a boolean or a number when it is one, else as text.
func claimValue(s string) any {
	if b, err := strconv.ParseBool(s); err == nil && (s == "true" || s == "false") {
		return b
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return s
}
