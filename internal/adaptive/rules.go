package adaptive

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// kind is the type of a claim.
type kind uint8

const (
	kindBool kind = iota + 1
	kindString
	kindNumber
	kindArray
	kindObject
)

// claim is one property of a visitor schema.
type claim struct {
	kind  kind
	enum  []string          // kindString: the allowed values; nil when any string is
	items *claim            // kindArray: the element, a boolean, string or number claim
	props map[string]*claim // kindObject: the claims it holds
}

// claimTypes maps the `type` of a claim to its kind; claimKeys lists the keys each type has.
var (
	claimTypes = map[string]kind{
		"boolean": kindBool, "string": kindString, "number": kindNumber, "array": kindArray, "object": kindObject,
	}
	claimKeys = map[kind][]string{
		kindBool:   {"type", "description"},
		kindString: {"type", "description", "enum"},
		kindNumber: {"type", "description"},
		kindArray:  {"type", "description", "items"},
		kindObject: {"type", "description", "properties", "additionalProperties"},
	}
	rootKeys     = []string{"$schema", "type", "properties", "additionalProperties"}
	unsignedKeys = []string{"type", "description", "properties", "additionalProperties"}
)

// claimName is what a claim may be called: a name usable as visitor.claims.<name>.
var claimName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// schemaParser checks a decoded visitor schema against the adaptive-content rules and builds its
// claims. It counts the claims seen so far for the bound on a whole schema.
type schemaParser struct {
	claims int
}

// root checks the whole schema and returns visitor.claims as an object claim.
func (p *schemaParser) root(raw map[string]any) (*claim, error) {
	const path = "jsonSchema"
	if err := checkConst(raw["type"], keyPath(path, "type"), "object"); err != nil {
		return nil, err
	}
	if err := checkKeys(raw, path, "the schema", rootKeys, "$schema"); err != nil {
		return nil, err
	}
	if v, ok := raw["$schema"]; ok {
		if err := checkConst(v, keyPath(path, "$schema"), draft07); err != nil {
			return nil, err
		}
	}
	return p.object(raw, path, 0, true)
}

// object checks the properties and additionalProperties of an object at depth (the number of
// names after visitor.claims); top says it is the schema itself, where `unsigned` is special.
func (p *schemaParser) object(obj map[string]any, path string, depth int, top bool) (*claim, error) {
	if obj["additionalProperties"] != false {
		return nil, schemaError(keyPath(path, "additionalProperties"), "must be false")
	}
	path = keyPath(path, "properties")
	props, ok := obj["properties"].(map[string]any)
	if !ok {
		return nil, schemaError(path, "must be an object")
	}
	if len(props) > maxClaimsPerObject {
		return nil, schemaError(path, "at most %d claims in one object", maxClaimsPerObject)
	}
	c := &claim{kind: kindObject, props: make(map[string]*claim, len(props))}
	for _, name := range sortedKeys(props) {
		sub, err := p.property(props[name], keyPath(path, name), name, depth+1, top)
		if err != nil {
			return nil, err
		}
		c.props[name] = sub
	}
	return c, nil
}

// property checks the claim called name at path.
func (p *schemaParser) property(v any, path, name string, depth int, top bool) (*claim, error) {
	if !claimName.MatchString(name) || len(name) > maxNameLen {
		return nil, schemaError(path, "a claim name is a letter or _ then letters, digits or _, at most %d in all", maxNameLen)
	}
	if depth > maxDepth {
		return nil, schemaError(path, "claims nest at most %d names deep (visitor.claims.a.b.c.d)", maxDepth)
	}
	if p.claims++; p.claims > maxClaims {
		return nil, schemaError(path, "at most %d claims in a schema", maxClaims)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, schemaError(path, "must be an object")
	}
	if top && name == "unsigned" {
		return p.unsigned(obj, path, depth)
	}
	return p.claim(obj, path, depth, claimTypes, `"boolean", "string", "number", "array" or "object"`)
}

// unsigned checks the object of a visitor's unsigned claims.
func (p *schemaParser) unsigned(obj map[string]any, path string, depth int) (*claim, error) {
	if err := checkConst(obj["type"], keyPath(path, "type"), "object"); err != nil {
		return nil, err
	}
	if err := checkKeys(obj, path, "unsigned", unsignedKeys); err != nil {
		return nil, err
	}
	if err := checkConst(obj["description"], keyPath(path, "description"), unsignedDescription); err != nil {
		return nil, err
	}
	return p.object(obj, path, depth, false)
}

// claim checks a claim whose type is one of types (said as want in an error).
func (p *schemaParser) claim(obj map[string]any, path string, depth int, types map[string]kind, want string) (*claim, error) {
	t, _ := obj["type"].(string)
	k, ok := types[t]
	if !ok {
		return nil, schemaError(keyPath(path, "type"), "must be %s", want)
	}
	what := fmt.Sprintf("a %q claim", t)
	if err := checkKeys(obj, path, what, claimKeys[k], "enum"); err != nil {
		return nil, err
	}
	if err := checkString(obj["description"], keyPath(path, "description"), maxDescriptionLen); err != nil {
		return nil, err
	}
	switch k {
	case kindString:
		return stringClaim(obj, path)
	case kindArray:
		items, ok := obj["items"].(map[string]any)
		if !ok {
			return nil, schemaError(keyPath(path, "items"), "must be an object")
		}
		item, err := p.claim(items, keyPath(path, "items"), depth, primitiveTypes, `"boolean", "string" or "number"`)
		if err != nil {
			return nil, err
		}
		return &claim{kind: kindArray, items: item}, nil
	case kindObject:
		return p.object(obj, path, depth, false)
	}
	return &claim{kind: k}, nil
}

// primitiveTypes are the types an array's items may have.
var primitiveTypes = map[string]kind{"boolean": kindBool, "string": kindString, "number": kindNumber}

// stringClaim reads the enum of a string claim, if it has one.
func stringClaim(obj map[string]any, path string) (*claim, error) {
	c := &claim{kind: kindString}
	v, ok := obj["enum"]
	if !ok {
		return c, nil
	}
	path = keyPath(path, "enum")
	values, ok := v.([]any)
	if !ok {
		return nil, schemaError(path, "must be an array of strings")
	}
	if len(values) < 1 || len(values) > maxEnumValues {
		return nil, schemaError(path, "must have 1..%d values", maxEnumValues)
	}
	c.enum = make([]string, len(values))
	for i, v := range values {
		at := fmt.Sprintf("%s[%d]", path, i)
		if err := checkString(v, at, maxEnumValueLen); err != nil {
			return nil, err
		}
		if slices.Contains(c.enum[:i], v.(string)) {
			return nil, schemaError(at, "repeats %q", v)
		}
		c.enum[i] = v.(string)
	}
	return c, nil
}

// checkKeys reports the first key of obj (in sorted order) not in allowed, then the first key of
// allowed missing from obj unless optional lists it.
func checkKeys(obj map[string]any, path, what string, allowed []string, optional ...string) error {
	for _, key := range sortedKeys(obj) {
		if !slices.Contains(allowed, key) {
			return schemaError(keyPath(path, key), "not allowed in %s (it has %s)", what, strings.Join(allowed, ", "))
		}
	}
	for _, key := range allowed {
		if _, ok := obj[key]; !ok && !slices.Contains(optional, key) {
			return schemaError(keyPath(path, key), "missing")
		}
	}
	return nil
}

// checkConst reports v unless it is the string want.
func checkConst(v any, path, want string) error {
	if v != want {
		return schemaError(path, "must be %q", want)
	}
	return nil
}

// checkString reports v unless it is a string of at most max characters.
func checkString(v any, path string, max int) error {
	s, ok := v.(string)
	if !ok {
		return schemaError(path, "must be a string")
	}
	if utf8.RuneCountInString(s) > max {
		return schemaError(path, "at most %d characters", max)
	}
	return nil
}

// sortedKeys returns the keys of m in order, so that the first problem reported is always the same.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// pathKey matches the keys a JSON path shows after a dot; others are shown quoted in brackets.
var pathKey = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// keyPath returns the JSON path of key in the object at path.
func keyPath(path, key string) string {
	if pathKey.MatchString(key) {
		return path + "." + key
	}
	quoted, _ := json.Marshal(key)
	return path + "[" + string(quoted) + "]"
}
