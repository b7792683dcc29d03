package search

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/apperr"
)

func TestParseQuery(t *testing.T) {
	tests := []struct {
		name  string
		query string
		want  Terms
		err   string // part of the INVALID message; "" for success
	}{
		{"OneWordIsAPrefix", "Kubernetes", Terms{Words: []string{"kubernetes"}, Prefix: true}, ""},
		{"TrailingSpaceEndsTheWord", "kubernetes ", Terms{Words: []string{"kubernetes"}}, ""},
		{"ShortLastWordIsExact", "install go", Terms{Words: []string{"install", "go"}}, ""},
		{"FoldsCaseAndDiacritics", "CAFÉ Über", Terms{Words: []string{"cafe", "uber"}, Prefix: true}, ""},
		{"RepeatsDropped", "api API Api", Terms{Words: []string{"api"}, Prefix: true}, ""},
		{"SyntaxBecomesWords", `"quoted" NEAR(a b) col:x ^start *star -not +plus AND OR NOT`,
			Terms{Words: []string{"quoted", "near", "a", "b", "col", "x", "start", "star", "not", "plus", "and", "or"}}, ""},
		{"SQLBecomesWords", `'; DROP TABLE spaces; --`, Terms{Words: []string{"drop", "table", "spaces"}}, ""},
		{"Digits", "v1.2.3", Terms{Words: []string{"v1", "2", "3"}}, ""},
		{"Empty", "", Terms{}, "query: is required"},
		{"Blank", " \t\n ", Terms{}, "query: is required"},
		{"NoWords", `"*^:()"`, Terms{}, "query: has no words"},
		{"TooLong", strings.Repeat("a", MaxQueryLength+1), Terms{}, "at most 512 characters"},
		{"TooManyWords", manyWords(MaxQueryWords + 1), Terms{}, "at most 32 different words"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseQuery(tt.query)
			if tt.err != "" {
				if !isInvalid(err) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseQuery(%q) error = %v, want INVALID with %q", tt.query, err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseQuery(%q) = %#v, %v; want %#v", tt.query, got, err, tt.want)
			}
		})
	}
}

func TestParseQueryLengthCountsCharacters(t *testing.T) {
	if _, err := ParseQuery(strings.Repeat("é", MaxQueryLength)); err != nil {
		t.Fatalf("512 two-byte characters: %v", err)
	}
}

func manyWords(n int) string {
	var words []string
	for i := range n {
		words = append(words, "w"+strconv.Itoa(i))
	}
	return strings.Join(words, " ")
}

func isInvalid(err error) bool {
	var e *apperr.Error
	return errors.As(err, &e) && e.Kind == apperr.Invalid
}

func TestQuerySyntax(t *testing.T) {
	terms := Terms{Words: []string{"it's", `say"hi`, "back\\slash"}, Prefix: true}
	if got, want := terms.FTS5(), `"it's" "say""hi" "back\slash"*`; got != want {
		t.Errorf("FTS5() = %s, want %s", got, want)
	}
	if got, want := terms.TSQuery(), `'it''s' & 'say"hi' & 'back\\slash':*`; got != want {
		t.Errorf("TSQuery() = %s, want %s", got, want)
	}
}

func TestAllIn(t *testing.T) {
	terms := Terms{Words: []string{"getting", "sta"}, Prefix: true}
	for text, want := range map[string]bool{
		"Getting Started":     true,
		"Started getting":     true,
		"Getting there":       false,
		"Getting-STARTED now": true,
	} {
		if got := terms.AllIn(text); got != want {
			t.Errorf("AllIn(%q) = %v, want %v", text, got, want)
		}
	}
}

// FuzzParseQuery: any input either is refused as INVALID or gives words that are plain letters
// and digits, so the query strings built from them hold no syntax but their own quoting.
func FuzzParseQuery(f *testing.F) {
	for _, seed := range []string{"", "a", "hello world", `"unterminated`, "NEAR(a b, 3)", "title:x", "^a*", "a OR b",
		"'); DROP TABLE search_sections; --", "é\u0301", "\x00", "\xff\xfe", strings.Repeat("ab ", 200)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, q string) {
		terms, err := ParseQuery(q)
		if err != nil {
			if !isInvalid(err) || !strings.HasPrefix(err.Error(), "query: ") {
				t.Fatalf("ParseQuery(%q): %v is not INVALID naming query", q, err)
			}
			return
		}
		if len(terms.Words) == 0 || len(terms.Words) > MaxQueryWords {
			t.Fatalf("ParseQuery(%q) gave %d words", q, len(terms.Words))
		}
		for _, w := range terms.Words {
			if w == "" || !utf8.ValidString(w) || strings.IndexFunc(w, func(r rune) bool { return !isWordRune(r) }) >= 0 {
				t.Fatalf("ParseQuery(%q) gave the word %q", q, w)
			}
		}
		if fts := terms.FTS5(); strings.Count(fts, `"`) != 2*len(terms.Words) {
			t.Fatalf("FTS5 of %q is %s", q, fts)
		}
	})
}
