package apiref

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// errNotJSON is a value the scanner cannot read: the stored files were checked when processed,
// so it means a file changed under us or a bug, and the operation is refused rather than guessed.
var errNotJSON = errors.New("the specification's JSON cannot be read")

// member is a member of a JSON object: its name and its value, a slice of the object's bytes.
type member struct {
	name  string
	value []byte
}

// fields splits a JSON object into its members' values by name, which stay slices of raw
// (nothing is copied: a 13 MB document's paths are found without decoding the rest); ok is false
// when raw is not an object.
func fields(raw []byte) (map[string][]byte, bool) {
	list, ok := members(raw)
	if !ok {
		return nil, false
	}
	out := make(map[string][]byte, len(list))
	for _, m := range list {
		out[m.name] = m.value
	}
	return out, true
}

// members are a JSON object's members in the document's order; ok is false when raw is not an
// object.
func members(raw []byte) ([]member, bool) {
	out := []member{}
	ok := each(raw, '{', '}', func(i int) (int, bool) {
		end, err := skipValue(raw, i)
		if err != nil || raw[i] != '"' {
			return 0, false
		}
		key, ok := unquote(raw[i:end])
		if !ok {
			return 0, false
		}
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			return 0, false
		}
		start := skipSpace(raw, i+1)
		if end, err = skipValue(raw, start); err != nil {
			return 0, false
		}
		out = append(out, member{key, raw[start:end]})
		return end, true
	})
	return out, ok
}

// elements splits a JSON array into its elements' values, slices of raw; ok is false when raw is
// not an array.
func elements(raw []byte) ([][]byte, bool) {
	var out [][]byte
	ok := each(raw, '[', ']', func(i int) (int, bool) {
		end, err := skipValue(raw, i)
		if err != nil {
			return 0, false
		}
		out = append(out, raw[i:end])
		return end, true
	})
	return out, ok
}

// each calls item at the start of every item of the object or array raw holds (open and close
// are its brackets), which returns the item's end; false when raw is not one.
func each(raw []byte, open, close byte, item func(i int) (end int, ok bool)) bool {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != open {
		return false
	}
	i = skipSpace(raw, i+1)
	if i < len(raw) && raw[i] == close {
		return true
	}
	for i < len(raw) {
		end, ok := item(i)
		if !ok {
			return false
		}
		i = skipSpace(raw, end)
		if i < len(raw) && raw[i] == close {
			return true
		}
		if i >= len(raw) || raw[i] != ',' {
			return false
		}
		i = skipSpace(raw, i+1)
	}
	return false
}

// unquote is the value of a JSON string; one without escapes (and valid UTF-8) is its bytes,
// without decoding.
func unquote(quoted []byte) (string, bool) {
	if len(quoted) < 2 || quoted[0] != '"' {
		return "", false
	}
	if inner := quoted[1 : len(quoted)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	return s, json.Unmarshal(quoted, &s) == nil
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value starting at i, matching brackets and skipping
// strings; it trusts the value to be JSON otherwise (json.Unmarshal of the parts read checks them).
func skipValue(raw []byte, i int) (int, error) {
	depth := 0
	for ; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '"':
			end, err := skipString(raw, i)
			if err != nil {
				return 0, err
			}
			i = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return 0, errNotJSON
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i, nil
			}
		}
		if depth == 0 && (raw[i] == '}' || raw[i] == ']' || raw[i] == '"') {
			return i + 1, nil
		}
	}
	if depth != 0 {
		return 0, errNotJSON
	}
	return i, nil
}

// skipString returns the end of the JSON string starting at i (after its closing quote).
func skipString(raw []byte, i int) (int, error) {
	for j := i + 1; j < len(raw); {
		q := bytes.IndexByte(raw[j:], '"')
		if q < 0 {
			break
		}
		j += q
		if escaped(raw, j) {
			j++
			continue
		}
		return j + 1, nil
	}
	return 0, errNotJSON
}

// escaped says whether the quote at j follows an odd number of backslashes.
func escaped(raw []byte, j int) bool {
	n := 0
	for k := j - 1; k >= 0 && raw[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}
