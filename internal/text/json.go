package text

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/graph/apperr"
)

// CheckJSON checks every string of a JSON document, keys included, and returns an INVALID error
// naming the first one that cannot be stored as text by its path ("files[2].path",
// "variables.input.title"), or the whole "request body" when the body is not UTF-8 but not JSON
// either. encoding/json would decode such strings quietly (invalid bytes become U+FFFD, "\u0000"
// a NUL), so the check reads the raw bytes of each string as well as its value. A body that is not
// JSON is left to its decoder, which says where it breaks. Bodies with nothing suspicious — valid
// UTF-8 without a "\u0000" escape — pass without being walked.
func CheckJSON(body []byte) error {
	if utf8.Valid(body) && !bytes.Contains(body, []byte(`\u0000`)) && bytes.IndexByte(body, 0) < 0 {
		return nil
	}
	if err := walkJSON(body); err != errNotJSON {
		return err
	}
	return Check("request body", string(body))
}

// errNotJSON ends a walk over a body that does not parse.
var errNotJSON = apperr.Invalidf("request body: not JSON")

// walkJSON checks the strings of body in order, tracking where each one is.
func walkJSON(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	var at jsonPath
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			if len(at) == 0 && err == io.EOF {
				return nil
			}
			return errNotJSON
		}
		raw := string(body[start:dec.InputOffset()])
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				at = append(at, pathStep{object: tok == '{'})
				continue
			}
			at = at[:len(at)-1]
		case string:
			if at.expectsKey() {
				if p := stringProblem(raw, tok); p != "" {
					return apperr.Invalidf("%s: a field name %s", at.name(), p)
				}
				at[len(at)-1].key, at[len(at)-1].hasKey = tok, true
				continue
			}
			if p := stringProblem(raw, tok); p != "" {
				return apperr.Invalidf("%s: %s", at.name(), p)
			}
		}
		at.next()
	}
}

// stringProblem says why a JSON string cannot be stored as text: its value holds a NUL (an
// escaped "\u0000"), or its raw text, from the opening quote on, is not UTF-8 (which its decoded
// value hides behind U+FFFD). raw may begin with the separators before the string.
func stringProblem(raw, value string) string {
	if p := Problem(value); p != "" {
		return p
	}
	return Problem(raw[strings.IndexByte(raw, '"')+1:])
}

// jsonPath is where the walk is: one step per object or array it is inside.
type jsonPath []pathStep

type pathStep struct {
	object bool
	key    string // the current member's name (objects)
	index  int    // the current element (arrays)
	hasKey bool   // the current member's name has been read (objects)
}

// expectsKey reports whether the next string is a member's name.
func (p jsonPath) expectsKey() bool {
	return len(p) > 0 && p[len(p)-1].object && !p[len(p)-1].hasKey
}

// next moves past a value: an object waits for its next member's name, an array for its next element.
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
			b.WriteString("." + Clean(s.key))
		case s.object:
			b.WriteString(Clean(s.key))
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
