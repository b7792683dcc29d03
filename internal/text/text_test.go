package text_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/text"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name, in, want string // want: the message, "" when the text passes
	}{
		{"OKEmpty", "", ""},
		{"OKUnicode", "héllo 世界 🙂", ""},
		{"OKReplacementCharacter", "\uFFFD", ""},
		{"ErrNUL", "nul\x00title", "title: must not contain NUL characters (one at byte 3)"},
		{"ErrInvalidByte", "ab\xffc", "title: must be valid UTF-8 (an invalid byte at 2)"},
		{"ErrTruncatedRune", "é"[:1], "title: must be valid UTF-8 (an invalid byte at 0)"},
		{"ErrSurrogateEncoded", "\xed\xa0\x80", "title: must be valid UTF-8 (an invalid byte at 0)"},
		{"ErrFirstOfBoth", "\xff\x00", "title: must be valid UTF-8 (an invalid byte at 0)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := text.Check("title", tt.in)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid || e.Message != tt.want {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func TestClean(t *testing.T) {
	for in, want := range map[string]string{"plain": "plain", "a\x00b": "ab", "a\xffb": "a\uFFFDb", "\x00\xfe\x00": "\uFFFD"} {
		if got := text.Clean(in); got != want || text.Problem(got) != "" {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckJSON(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"OKEmpty", ``, ""},
		{"OKObject", `{"title":"héllo","n":1,"list":["a",{"b":null}]}`, ""},
		{"OKEscapedBackslash", `{"title":"\\u0000 is how JSON writes NUL"}`, ""},
		{"OKSurrogatePair", `{"title":"\ud83d\ude00"}`, ""},
		{"OKNotJSON", `{"title":`, ""}, // left to the decoder, which says where it breaks
		{"ErrEscapedNUL", `{"title":"nul\u0000title"}`, "title: must not contain NUL characters (one at byte 3)"},
		{"ErrNestedNUL", `{"variables":{"input":{"title":"\u0000"}}}`, "variables.input.title: must not contain NUL"},
		{"ErrArrayElement", `{"files":[{"path":"a.md"},{"path":"b\u0000.md"}]}`, "files[1].path: must not contain NUL"},
		{"ErrArrayOfStrings", `{"emailDomains":["a.com","b.com",  "\u0000"]}`, "emailDomains[2]: must not contain NUL"},
		{"ErrAfterNestedArray", `{"a":[[1,2],[3]],"b":"x\u0000"}`, "b: must not contain NUL"},
		{"ErrInvalidUTF8", "{\"title\":\"ab\xff\"}", "title: must be valid UTF-8 (an invalid byte at 2)"},
		{"ErrInvalidKey", "{\"ti\xfftle\":\"x\"}", "request body: a field name must be valid UTF-8"},
		{"ErrNULKey", `{"a":{"b\u0000":1}}`, "a: a field name must not contain NUL"},
		{"ErrTopLevelString", `"\u0000"`, "request body: must not contain NUL"},
		{"ErrRawNUL", "{\"title\":\"a\x00\"}", "title: must not contain NUL characters (one at byte 1)"},
		{"ErrEscapedNULAfterEscapes", `{"a":"\\\"\\","b":"x\\\u0000"}`, "b: must not contain NUL characters (one at byte 2)"},
		{"OKEscapedBackslashBeforeU", `{"a":"\\u0000\\\\u0000"}`, ""},
		{"ErrUnclosedString", "{\"title\":\"ab\xff", "title: must be valid UTF-8 (an invalid byte at 2)"},
		{"OKTooDeepForTheDecoder", strings.Repeat("[", 20000) + `"\u0000"`, ""}, // the decoder refuses it
		{"ErrNotJSONNotUTF8", "title=\xff", "request body: must be valid UTF-8 (an invalid byte at 6)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := text.CheckJSON([]byte(tt.body))
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid || !strings.HasPrefix(e.Message, tt.want) {
				t.Fatalf("got %v, want %q", err, tt.want)
			}
		})
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"", "a", "a\x00", "\xff", "é", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := text.Check("f", s)
		if (err == nil) != (utf8.ValidString(s) && !strings.ContainsRune(s, 0)) {
			t.Fatalf("Check(%q) = %v", s, err)
		}
		if c := text.Clean(s); text.Problem(c) != "" || (err == nil && c != s) {
			t.Fatalf("Clean(%q) = %q", s, c)
		}
	})
}

// FuzzCheckJSON holds that the check passes exactly the JSON documents that decode to text only:
// valid UTF-8 throughout, no NUL in any key or value.
func FuzzCheckJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":"b"}`, `{"a":["\u0000"]}`, "{\"a\":\"\xff\"}", `[{"a":{"b":[1,"c"]}}]`, `"\\u0000"`, `{"a":`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		err := text.CheckJSON(body)
		if e := apperr.As(err); err != nil && (e == nil || e.Kind != apperr.Invalid) {
			t.Fatalf("not an INVALID error: %v", err)
		}
		var v any
		if json.Unmarshal(body, &v) != nil {
			return
		}
		if text := utf8.Valid(body) && !hasNUL(v); text != (err == nil) {
			t.Fatalf("%q: text %v, check %v", body, text, err)
		}
	})
}

func hasNUL(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.ContainsRune(v, 0)
	case []any:
		for _, e := range v {
			if hasNUL(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range v {
			if strings.ContainsRune(k, 0) || hasNUL(e) {
				return true
			}
		}
	}
	return false
}
