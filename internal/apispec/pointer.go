package apispec

import (
	"net/url"
	"strings"
)

// escapeToken escapes one JSON-pointer reference token (RFC 6901).
func escapeToken(tok string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
}

// fragment renders tokens as a percent-encoded JSON-pointer URL fragment,
// e.g. ["paths", "/orgs/{id}"] -> "/paths/~1orgs~1%7Bid%7D".
func fragment(tokens []string) string {
	var sb strings.Builder
	for _, tok := range tokens {
		sb.WriteByte('/')
		sb.WriteString(url.PathEscape(escapeToken(tok)))
	}
	return sb.String()
}

// parseRef turns a local "$ref" like "#/components/responses/X" into tokens.
func parseRef(ref string) ([]string, bool) {
	frag, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return nil, false
	}
	tokens := strings.Split(frag, "/")
	r := strings.NewReplacer("~1", "/", "~0", "~")
	for i, tok := range tokens {
		tokens[i] = r.Replace(tok)
	}
	return tokens, true
}

// lookup walks doc along tokens and returns the object found there.
func lookup(doc any, tokens ...string) (map[string]any, bool) {
	cur := doc
	for _, tok := range tokens {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[tok]; !ok {
			return nil, false
		}
	}
	obj, ok := cur.(map[string]any)
	return obj, ok
}
