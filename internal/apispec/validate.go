package apispec

import (
	"bytes"
	"fmt"
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

// QueryParamsUndeclared returns the names of path's query parameters that the operation
// method+path does not declare (on the operation or its path item), sorted; nil when it declares
// them all, or when the spec has no such operation.
func (s *Spec) QueryParamsUndeclared(method, path string) []string {
	p, rawQuery, ok := strings.Cut(path, "?")
	if !ok || rawQuery == "" {
		return nil
	}
	op, tokens, err := s.operation(method, p)
	if err != nil {
		return nil
	}
	declared := map[string]bool{}
	item, _ := lookup(s.doc, tokens[:len(tokens)-1]...)
	for _, params := range []any{item["parameters"], op["parameters"]} {
		list, _ := params.([]any)
		for _, v := range list {
			param, _ := v.(map[string]any)
			if param, _, err = s.deref(param, nil); err == nil && param["in"] == "query" {
				declared[fmt.Sprint(param["name"])] = true
			}
		}
	}
	values, err := url.ParseQuery(rawQuery)
	if err != nil {
		return []string{rawQuery}
	}
	var undeclared []string
	for name := range values {
		if !declared[name] {
			undeclared = append(undeclared, name)
		}
	}
	sort.Strings(undeclared)
	return undeclared
}

// ValidateRequest fails the test when body, sent to the operation method+path, is not valid
// against the operation's JSON request body; an operation without one checks nothing.
func (s *Spec) ValidateRequest(tb testing.TB, method, path string, body []byte) {
	tb.Helper()
	what := fmt.Sprintf("request of %s %s", strings.ToUpper(method), path)
	op, tokens, err := s.operation(method, path)
	if err != nil {
		tb.Errorf("apispec: %s: %v", what, err)
		return
	}
	requestBody, ok := op["requestBody"].(map[string]any)
	if !ok {
		return
	}
	requestBody, tokens, err = s.deref(requestBody, slices.Concat(tokens, []string{"requestBody"}))
	if err != nil {
		tb.Errorf("apispec: %s: %v", what, err)
		return
	}
	if content, _ := requestBody["content"].(map[string]any); content["application/json"] != nil {
		s.validate(tb, what, slices.Concat(tokens, []string{"content", "application/json", "schema"}), body)
	}
}
