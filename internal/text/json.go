package text

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/apperr"
)

// CheckJSON checks every string of a JSON document, keys included, and returns an INVALID error
// naming the first one that cannot be stored as text by its path ("files[2].path",
// "variables.input.title"), or the whole "request body" when what is wrong lies outside strings
// (a body that is not JSON, such as a form). encoding/json would decode such strings quietly
// (invalid bytes become U+FFFD, "\u0000" a NUL), so the check reads each string's raw bytes.
// Bodies with nothing suspicious — valid UTF-8 without a NUL byte or a "\u0000" escape — pass
// without being walked; the walk is one pass over the bytes (no decoding but of a string found
// bad), so a refusal costs about what reading the body once does.
func CheckJSON(body []byte) error {
	if utf8.Valid(body) && !bytes.Contains(body, []byte(`\u0000`)) && bytes.IndexByte(body, 0) < 0 {
		return nil
	}
	if err := walkJSON(body); err != nil {
		return err
	}
	return Check("request body", string(body))
}

// CheckField checks a field's JSON value as CheckJSON does, its message naming the field before
// the path inside the value.
func CheckField(name string, value []byte) error {
	if err := CheckJSON(value); err != nil {
		return apperr.Invalidf("%s: %s", name, apperr.As(err).Message)
	}
	return nil
}

// maxDepth is encoding/json's bound on nesting, which keeps a walk's path small.
const maxDepth = 10000

// walkJSON checks the strings of body in order, tracking where each one is. It follows only the
// structure (brackets, commas, strings); the body's decoder checks the grammar.
func walkJSON(body []byte) error {
	var at jsonPath
	for i := 0; i < len(body); i++ {
		switch c := body[i]; c {
		case '{', '[':
			if len(at) == maxDepth {
				return nil // the decoder refuses such a body whatever its strings hold
			}
			at = append(at, pathStep{object: c == '{'})
		case '}', ']':
			if len(at) > 0 {
				at = at[:len(at)-1]
			}
		case ',':
			at.next()
		case '"':
			end, nul := scanString(body, i)
			raw := body[i:end]
			if nul || !utf8.Valid(raw) || bytes.IndexByte(raw, 0) >= 0 {
				return stringError(at, raw)
			}
			if at.expectsKey() {
				at[len(at)-1].key, at[len(at)-1].hasKey = raw, true
			}
			i = end - 1
		}
	}
	return nil
}

// scanString returns the end (just past the closing quote, or len(body)) of the string whose
// opening quote is at body[start], and whether it holds a "\u0000" escape.
func scanString(body []byte, start int) (end int, nul bool) {
	for i := start + 1; i < len(body); {
		quote := bytes.IndexByte(body[i:], '"')
		if quote < 0 {
			break
		}
		escape := bytes.IndexByte(body[i:i+quote], '\\')
		if escape < 0 {
			return i + quote + 1, nul
		}
		i += escape + 1 // the escaped character, skipped below
		nul = nul || bytes.HasPrefix(body[i:], []byte("u0000"))
		i++
	}
	return len(body), nul
}

// stringError names the string raw (with its quotes) found at at, and says what is wrong with it.
func stringError(at jsonPath, raw []byte) error {
	var value string
	if json.Unmarshal(raw, &value) != nil { // a raw control character, or no closing quote
		value = strings.TrimSuffix(string(raw[1:]), `"`)
	}
	p := stringProblem(string(raw), value)
	if at.expectsKey() {
		return apperr.Invalidf("%s: a field name %s", at.name(), p)
	}
	return apperr.Invalidf("%s: %s", at.name(), p)
}

// stringProblem says why a JSON string cannot be stored as text: its value holds a NUL (an
// escaped "\u0000"), or its raw text after the opening quote is not UTF-8 (which its decoded
// value hides behind U+FFFD).
func stringProblem(raw, value string) string {
	if p := Problem(value); p != "" {
		return p
	}
	return Problem(raw[1:])
}

// jsonPath is where the walk is: one step per object or array it is inside.
type jsonPath []pathStep

type pathStep struct {
	object bool
	key    []byte // the current member's name as written, quoted (objects)
	index  int    // the current element (arrays)
	hasKey bool   // the current member's name has been read (objects)
}

// expectsKey reports whether the next string is a member's name.
func (p jsonPath) expectsKey() bool {
	return len(p) > 0 && p[len(p)-1].object && !p[len(p)-1].hasKey
}

// next moves past a comma: an object waits for its next member's name, an array for its next element.
func (p jsonPath) next() {
	if len(p) == 0 {
		return
	}
	top := &p[len(p)-1]
	if top.object {
		top.hasKey = false
		return
	}
	top.index++
}

// name spells the path of the current value: "files[2].path", or "request body" at the top.
func (p jsonPath) name() string {
	var b strings.Builder
	for _, s := range p {
		switch {
		case s.object && !s.hasKey: // between members: the object itself is meant
		case s.object && b.Len() > 0:
			b.WriteString("." + keyName(s.key))
		case s.object:
			b.WriteString(keyName(s.key))
		default:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		}
		if b.Len() > 200 {
			return b.String()[:200] + "…"
		}
	}
	if b.Len() == 0 {
		return "request body"
	}
	return b.String()
}

// keyName is a member's name as a path shows it: decoded, cleaned.
func keyName(raw []byte) string {
	var key string
	if json.Unmarshal(raw, &key) != nil {
		key = string(raw)
	}
	return Clean(key)
}
