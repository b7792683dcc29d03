package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/binderyhq/bindery/internal/apperr"
)

// Query bounds: the length of spec/03, and how many distinct words one query may hold (each word
// is a posting list the database reads, so the bound bounds the work of one query).
const (
	MaxQueryLength = 512
	MaxQueryWords  = 32
	// minPrefix is the shortest last word that also matches the words it begins: shorter ones
	// would match too much to rank usefully.
	minPrefix = 3
)

// Terms are the words of a search query, folded as the index folds text. All must match; the
// last also matches the words it begins when Prefix is set (the query may be typed still). Terms
// are never query syntax: whatever the user typed becomes plain words.
type Terms struct {
	Words  []string
	Prefix bool
}

// ParseQuery reads a user's query: its words (runs of letters and digits, as the index cuts text),
// folded and without repeats; the last word is a prefix when it is at least minPrefix characters
// long and the query ends right after it. Returns INVALID naming `query` when the query is empty,
// longer than MaxQueryLength characters, holds no word, or more than MaxQueryWords distinct words.
func ParseQuery(q string) (Terms, error) {
	switch n := utf8.RuneCountInString(q); {
	case strings.TrimSpace(q) == "":
		return Terms{}, apperr.Invalidf("query: is required and must not be blank")
	case n > MaxQueryLength:
		return Terms{}, apperr.Invalidf("query: must be at most %d characters (got %d)", MaxQueryLength, n)
	}
	var t Terms
	seen := map[string]bool{}
	for _, w := range Tokens(q) {
		if !seen[w] {
			seen[w] = true
			t.Words = append(t.Words, w)
		}
	}
	switch {
	case len(t.Words) == 0:
		return Terms{}, apperr.Invalidf("query: has no words to search for (letters or digits)")
	case len(t.Words) > MaxQueryWords:
		return Terms{}, apperr.Invalidf("query: must have at most %d different words (got %d)", MaxQueryWords, len(t.Words))
	}
	last, _ := utf8.DecodeLastRuneInString(q)
	t.Prefix = isWordRune(last) && utf8.RuneCountInString(t.Words[len(t.Words)-1]) >= minPrefix
	return t, nil
}

// Tokens cuts text into folded words as SQLite's unicode61 tokenizer does: a word is a run of
// letters, digits and private-use characters; everything else separates words.
func Tokens(text string) []string {
	return strings.FieldsFunc(Fold(text), func(r rune) bool { return !isWordRune(r) })
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.Is(unicode.Co, r)
}

// Fold lower-cases text and removes the diacritics of Latin letters ("Café" → "cafe"), as the
// unicode61 tokenizer with remove_diacritics does; PostgreSQL's simple configuration only
// lower-cases, so Bindery folds the text it hands PostgreSQL itself and both databases match alike.
func Fold(text string) string {
	if isASCII(text) { // most text: nothing to decompose
		return strings.ToLower(text)
	}
	var b strings.Builder
	b.Grow(len(text))
	var base rune
	for _, r := range norm.NFD.String(text) {
		if unicode.Is(unicode.Mn, r) && unicode.Is(unicode.Latin, base) {
			continue // a combining mark on a Latin letter
		}
		base = r
		b.WriteRune(unicode.ToLower(r))
	}
	return norm.NFC.String(b.String())
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// matches reports whether the folded word w matches term i of t.
func (t Terms) matches(w string, i int) bool {
	if t.Prefix && i == len(t.Words)-1 {
		return strings.HasPrefix(w, t.Words[i])
	}
	return w == t.Words[i]
}

// matchesAny reports whether the folded word w matches some term of t.
func (t Terms) matchesAny(w string) bool {
	for i := range t.Words {
		if t.matches(w, i) {
			return true
		}
	}
	return false
}

// AllIn reports whether every term of t matches a word of text: a page whose title (and
// description) holds the whole query matched "on its own fields".
func (t Terms) AllIn(text string) bool {
	words := Tokens(text)
	for i := range t.Words {
		found := false
		for _, w := range words {
			if t.matches(w, i) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// FTS5 is t as an SQLite FTS5 query: every word a quoted string (so no character of it is query
// syntax), all required, the last one a prefix query when t.Prefix.
func (t Terms) FTS5() string {
	parts := make([]string, len(t.Words))
	for i, w := range t.Words {
		parts[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
	}
	if t.Prefix {
		parts[len(parts)-1] += "*"
	}
	return strings.Join(parts, " ")
}

// TSQuery is t as a PostgreSQL tsquery for to_tsquery: every word a quoted lexeme, all joined
// with &, the last one a prefix (:*) when t.Prefix.
func (t Terms) TSQuery() string {
	escape := strings.NewReplacer(`\`, `\\`, `'`, `''`)
	parts := make([]string, len(t.Words))
	for i, w := range t.Words {
		parts[i] = "'" + escape.Replace(w) + "'"
	}
	if t.Prefix {
		parts[len(parts)-1] += ":*"
	}
	return strings.Join(parts, " & ")
}
