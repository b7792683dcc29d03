package apispec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// maxBody is how much of a failing body is quoted in test failures.
const maxBody = 2048

// ValidateSchema fails the test when body does not validate against
// components/schemas/<name>.
func (s *Spec) ValidateSchema(tb testing.TB, name string, body []byte) {
	tb.Helper()
	tokens := []string{"components", "schemas", name}
	if _, ok := lookup(s.doc, tokens...); !ok {
		tb.Errorf("apispec: no schema %q in components/schemas", name)
		return
	}
	s.validate(tb, "schema "+name, tokens, body)
}

// HasOperation reports whether the spec declares method on a template
// matching the concrete path (with or without the /v1 prefix), and, in the
// reference, its answer there is the one we give (not Superseded).
func (s *Spec) HasOperation(method, path string) bool {
	if tmpl, ok := s.Match(path); ok && s.superseded[tmpl] {
		return false
	}
	_, _, err := s.operation(method, path)
	return err == nil
}

// Superseded are the reference's path templates where spec/ defines another resource: the
// reference's translations are translation runs, spec/01's TranslationSettings are named sets of
// languages (decision 148). Their answers follow spec/01 and their tests check them.
var Superseded = map[string]bool{
	"/orgs/{organizationId}/translations":                 true,
	"/orgs/{organizationId}/translations/{translationId}": true,
}

// ValidateResponse fails the test when body is not a valid response of the
// operation method+path for status: the status (or "default") must be
// declared, a JSON response must match its schema, and a 204/205 response
// must have an empty body.
func (s *Spec) ValidateResponse(tb testing.TB, method, path string, status int, body []byte) {
	tb.Helper()
	what := fmt.Sprintf("%s %s -> %d", strings.ToUpper(method), path, status)
	op, tokens, err := s.operation(method, path)
	if err != nil {
		tb.Errorf("apispec: %s: %v", what, err)
		return
	}
	resp, tokens, err := s.response(op, tokens, status)
	if err != nil {
		tb.Errorf("apispec: %s: %v", what, err)
		return
	}
	s.validateContent(tb, what, resp, tokens, status, body)
}

// validateContent checks body against the response object found at tokens.
func (s *Spec) validateContent(tb testing.TB, what string, resp map[string]any, tokens []string, status int, body []byte) {
	tb.Helper()
	content, _ := resp["content"].(map[string]any)
	if len(content) == 0 {
		if (status == 204 || status == 205) && len(body) != 0 {
			tb.Errorf("apispec: %s: expected an empty body, got %d bytes: %s", what, len(body), truncate(body))
		}
		return
	}
	if _, ok := content["application/json"]; !ok {
		return // an answer that is not JSON (a page, a file): its body is not checked
	}
	s.validate(tb, what, slices.Concat(tokens, []string{"content", "application/json", "schema"}), body)
}

// operation finds the operation object for method on the template matching
// path, and the JSON-pointer tokens leading to it.
func (s *Spec) operation(method, path string) (map[string]any, []string, error) {
	tmpl, ok := s.Match(path)
	if !ok {
		return nil, nil, fmt.Errorf("no path template in the spec matches %q", specPath(path))
	}
	tokens := []string{"paths", tmpl, strings.ToLower(method)}
	op, ok := lookup(s.doc, tokens...)
	if !ok {
		item, _ := lookup(s.doc, "paths", tmpl)
		return nil, nil, fmt.Errorf("%s has no %s operation (declared: %s)", tmpl, strings.ToUpper(method), strings.Join(sortedKeys(item), ", "))
	}
	return op, tokens, nil
}

// response picks the response object for status ("404", then "4XX", then
// "default") from op, following $refs, and returns it with its tokens.
func (s *Spec) response(op map[string]any, tokens []string, status int) (map[string]any, []string, error) {
	responses, _ := op["responses"].(map[string]any)
	code := strconv.Itoa(status)
	for _, key := range []string{code, code[:1] + "XX", "default"} {
		if resp, ok := responses[key].(map[string]any); ok {
			return s.deref(resp, slices.Concat(tokens, []string{"responses", key}))
		}
	}
	return nil, nil, fmt.Errorf("status %d is not declared (declared: %s)", status, strings.Join(sortedKeys(responses), ", "))
}

// deref follows local "$ref"s starting at obj (found at tokens).
func (s *Spec) deref(obj map[string]any, tokens []string) (map[string]any, []string, error) {
	for range 32 {
		ref, ok := obj["$ref"].(string)
		if !ok {
			return obj, tokens, nil
		}
		if tokens, ok = parseRef(ref); !ok {
			return nil, nil, fmt.Errorf("unsupported $ref %q", ref)
		}
		if obj, ok = lookup(s.doc, tokens...); !ok {
			return nil, nil, fmt.Errorf("dangling $ref %q", ref)
		}
	}
	return nil, nil, fmt.Errorf("$ref chain too long at /%s", strings.Join(tokens, "/"))
}

// validate fails the test when body is not JSON valid against the schema at
// tokens; what names the check in messages.
func (s *Spec) validate(tb testing.TB, what string, tokens []string, body []byte) {
	tb.Helper()
	sch, err := s.schemaAt(tokens...)
	if err != nil {
		tb.Errorf("apispec: %s: compile schema: %v", what, err)
		return
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		tb.Errorf("apispec: %s: body is not JSON: %v\nbody: %s", what, err, truncate(body))
		return
	}
	if err := sch.Validate(v); err != nil {
		tb.Errorf("apispec: %s: body does not match the spec: %v\nbody: %s", what, err, truncate(body))
	}
}

// truncate shortens body to maxBody bytes for failure messages.
func truncate(body []byte) string {
	if len(body) <= maxBody {
		return string(body)
	}
	return fmt.Sprintf("%s… (%d bytes total)", body[:maxBody], len(body))
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ValidateQuery fails the test when path's query names a parameter the operation method+path
// does not declare (on the operation or its path item), and, for a request the server accepted,
// when a value does not match its parameter's schema (a boolean or a number read from its text).
// An operation the spec lacks checks nothing.
func (s *Spec) ValidateQuery(tb testing.TB, method, path string, accepted bool) {
	tb.Helper()
	p, rawQuery, ok := strings.Cut(path, "?")
	if !ok || rawQuery == "" {
		return
	}
	declared, err := s.queryParams(method, p)
	if err != nil {
		return
	}
	values, err := url.ParseQuery(rawQuery)
	if err != nil {
		tb.Errorf("apispec: %s %s: query: %v", method, path, err)
		return
	}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		param, ok := declared[name]
		if !ok {
			tb.Errorf("apispec: %s %s: query parameter %q is not declared", method, path, name)
			continue
		}
		if !accepted {
			continue
		}
		for _, v := range values[name] {
			s.validate(tb, fmt.Sprintf("%s %s: query parameter %q", method, path, name), param.tokens, param.json(v))
		}
	}
}

// queryParam is a declared query parameter: its schema, and the tokens leading to it.
type queryParam struct {
	schema map[string]any
	tokens []string
}

// queryParams maps the query parameters the operation method+path declares by name.
func (s *Spec) queryParams(method, path string) (map[string]queryParam, error) {
	op, tokens, err := s.operation(method, path)
	if err != nil {
		return nil, err
	}
	declared := map[string]queryParam{}
	itemTokens := tokens[:len(tokens)-1]
	item, _ := lookup(s.doc, itemTokens...)
	for _, at := range []struct {
		params any
		tokens []string
	}{{item["parameters"], itemTokens}, {op["parameters"], tokens}} {
		list, _ := at.params.([]any)
		for i, v := range list {
			param, _ := v.(map[string]any)
			param, paramTokens, err := s.deref(param, slices.Concat(at.tokens, []string{"parameters", strconv.Itoa(i)}))
			if err == nil && param["in"] == "query" {
				schema, _ := param["schema"].(map[string]any)
				declared[fmt.Sprint(param["name"])] = queryParam{schema, slices.Concat(paramTokens, []string{"schema"})}
			}
		}
	}
	return declared, nil
}

// json is a value of the parameter as the JSON its schema describes: a boolean or a number when
// the schema's type is one and the text reads as one, else a string.
func (p queryParam) json(v string) []byte {
	types := fmt.Sprint(p.schema["type"])
	if b, err := strconv.ParseBool(v); err == nil && strings.Contains(types, "boolean") {
		return []byte(strconv.FormatBool(b))
	}
	if _, err := strconv.ParseFloat(v, 64); err == nil && (strings.Contains(types, "integer") || strings.Contains(types, "number")) {
		return []byte(v)
	}
	quoted, _ := json.Marshal(v)
	return quoted
}

// ValidateRequest fails the test when body, sent to the operation method+path, is not valid
// against the operation's JSON request body; an operation without one checks nothing.
func (s *Spec) ValidateRequest(tb testing.TB, method, path string, body []byte) {
	tb.Helper()
	what := fmt.Sprintf("request of %s %s", strings.ToUpper(method), path)
	_, tokens, err := s.requestSchema(method, path)
	switch {
	case err != nil:
		tb.Errorf("apispec: %s: %v", what, err)
	case tokens != nil:
		s.validate(tb, what, tokens, body)
	}
}

// RequestFields returns the fields the JSON request body of the operation method+path requires
// (its allOf parts' included: the alternatives of a oneOf or anyOf are no field's requirement)
// and the fields it has; none when the spec has no such operation or it takes no JSON body.
func (s *Spec) RequestFields(method, path string) (required, properties []string) {
	schema, _, err := s.requestSchema(method, path)
	if err != nil || schema == nil {
		return nil, nil
	}
	parts := []map[string]any{schema}
	all, _ := schema["allOf"].([]any)
	for _, part := range all {
		if p, ok := part.(map[string]any); ok {
			if p, _, err = s.deref(p, nil); err == nil {
				parts = append(parts, p)
			}
		}
	}
	for _, part := range parts {
		names, _ := part["required"].([]any)
		for _, n := range names {
			required = append(required, fmt.Sprint(n))
		}
		props, _ := part["properties"].(map[string]any)
		properties = append(properties, sortedKeys(props)...)
	}
	return required, properties
}

// requestSchema returns the schema of the JSON request body of the operation method+path, its
// $refs followed, and the tokens leading to it; nil ones when it takes no JSON body.
func (s *Spec) requestSchema(method, path string) (map[string]any, []string, error) {
	op, tokens, err := s.operation(method, path)
	if err != nil {
		return nil, nil, err
	}
	requestBody, ok := op["requestBody"].(map[string]any)
	if !ok {
		return nil, nil, nil
	}
	if requestBody, tokens, err = s.deref(requestBody, slices.Concat(tokens, []string{"requestBody"})); err != nil {
		return nil, nil, err
	}
	content, _ := requestBody["content"].(map[string]any)
	media, _ := content["application/json"].(map[string]any)
	schema, ok := media["schema"].(map[string]any)
	if !ok {
		return nil, nil, nil
	}
	return s.deref(schema, slices.Concat(tokens, []string{"content", "application/json", "schema"}))
}
