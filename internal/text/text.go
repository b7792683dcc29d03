// Package text is the one check of the text that enters Bindery — JSON fields of REST and GraphQL,
// GraphQL literals, uploaded Markdown and file names, crawled pages, every string written through
// ent: it must be valid UTF-8 without NUL characters. PostgreSQL's text columns refuse both (a 500
// when they reach it), while SQLite stores them as given; refusing them before either database
// sees them keeps the two alike.
package text

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/apperr"
)

// Problem says why s cannot be stored as text, or is "" when it can.
func Problem(s string) string {
	nul := strings.IndexByte(s, 0)
	bad := invalidAt(s)
	switch {
	case nul >= 0 && (bad < 0 || nul < bad):
		return fmt.Sprintf("must not contain NUL characters (one at byte %d)", nul)
	case bad >= 0:
		return fmt.Sprintf("must be valid UTF-8 (an invalid byte at %d)", bad)
	}
	return ""
}

// Check returns an INVALID error naming field when s cannot be stored as text, else nil.
func Check(field, s string) error {
	if p := Problem(s); p != "" {
		return apperr.Invalidf("%s: %s", field, p)
	}
	return nil
}

// Clean returns s as text that can be stored: invalid bytes become U+FFFD, as browsers show them,
// and NUL characters are dropped. For text nobody typed (crawled pages), where refusing the whole
// import over one stray byte would help nobody.
func Clean(s string) string {
	if Problem(s) == "" {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
}

// invalidAt is the offset of the first byte of s that is not valid UTF-8, or -1.
func invalidAt(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1 // unreachable: s is not valid
}
