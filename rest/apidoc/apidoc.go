// Package apidoc builds the OpenAPI 3.1 document of the /v1 REST surface from its route table.
// Every route is described: where the reference client (@gitbook/api) has the operation, by the
// reference's own operation (its operationId, parameters, bodies and schemas, kept in
// reference.json, which `go generate` extracts from the reference document for the routes the
// server has); elsewhere by an Operation the server declares, whose bodies are reflected from
// its Go wire types. A route described by neither is an error, so a route cannot be added
// without its description.
package apidoc

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

//go:generate go run ./gen

//go:embed reference.json
var referenceJSON []byte

// Route is one endpoint of the router: its method and chi pattern below /v1 ("/orgs/{organizationId}").
type Route struct {
	Method  string
	Pattern string
}

// Key is how the route is named in a table of Operations: "GET /orgs/{organizationId}".
func (r Route) Key() string { return r.Method + " " + r.Pattern }

// Operation describes an endpoint the reference does not have (or has as another resource).
type Operation struct {
	ID          string // operationId, unique in the document
	Tag         string
	Summary     string
	Description string
	Query       []Param // query parameters; path parameters come from the pattern
	Request     Schema  // the JSON body; nil: none
	Status      int     // of a success
	Response    Schema  // the JSON answer of a success; nil: an empty body, or Content
	Content     string  // the media type of a success answer that is not JSON ("text/html")
}

// Param is a query parameter.
type Param struct {
	Name        string
	Description string
	Schema      Schema
}

// Info is what the document says of the server.
type Info struct {
	Version   string
	ServerURL string          // where /v1 is served: the base URL + "/v1"
	Public    map[string]bool // the routes answered without a token, by Route.Key
}

// Build returns the document, as JSON, of routes: each described by own (by Route.Key) or, when
// own has no entry, by the reference's operation. Returns an error naming every route described
// by neither, and every entry of own that names no route.
func Build(routes []Route, own map[string]Operation, info Info) ([]byte, error) {
	ref, err := loadReference(referenceJSON)
	if err != nil {
		return nil, err
	}
	paths := map[string]map[string]any{}
	used := map[string]bool{}
	tags := map[string]bool{}
	var errs []error
	for _, r := range routes {
		path, op, err := describe(r, own, ref)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if info.Public[r.Key()] {
			op["security"] = []any{}
		}
		if paths[path] == nil {
			paths[path] = map[string]any{}
		}
		paths[path][strings.ToLower(r.Method)] = op
		used[r.Key()] = true
		for _, t := range op["tags"].([]any) {
			tags[t.(string)] = true
		}
	}
	for _, key := range slices.Sorted(maps.Keys(own)) {
		if !used[key] {
			errs = append(errs, fmt.Errorf("%s is described but the router has no such route", key))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return json.Marshal(document(paths, ref, tags, info))
}

// describe finds the description of r, and the path template it is listed under.
func describe(r Route, own map[string]Operation, ref *reference) (string, map[string]any, error) {
	if op, ok := own[r.Key()]; ok {
		return openAPIPath(r.Pattern), op.render(r.Pattern), nil
	}
	if tmpl, op, ok := ref.operation(r); ok {
		return tmpl, fromReference(op), nil
	}
	return "", nil, fmt.Errorf("%s has no description: declare it in rest/apidoc.go, "+
		"or run go generate ./rest/apidoc if the reference client has it", r.Key())
}

// document assembles the whole document.
func document(paths map[string]map[string]any, ref *reference, tags map[string]bool, info Info) map[string]any {
	components := maps.Clone(ref.Components)
	responses := maps.Clone(components["responses"])
	if responses == nil {
		responses = map[string]any{}
	}
	responses[failureName] = failure
	components["responses"] = responses
	components["securitySchemes"] = securitySchemes
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":   "Bindery REST API",
			"version": info.Version,
			"description": "The /v1 REST API of this Bindery server, wire-compatible with the reference client " +
				"@gitbook/api where it has the same operation. Every failure answers " +
				`{"error":{"code":<status>,"message":"…"}}, its message naming what was wrong.`,
		},
		"servers":    []any{map[string]any{"url": info.ServerURL}},
		"security":   []any{map[string]any{"token": []any{}}, map[string]any{"session": []any{}}},
		"tags":       ref.tagList(tags),
		"paths":      paths,
		"components": components,
	}
}

var securitySchemes = map[string]any{
	"token": map[string]any{"type": "http", "scheme": "bearer",
		"description": "An API token (bdy_…): printed on the first start, made by `bindery token create` or POST /user/tokens."},
	"session": map[string]any{"type": "apiKey", "in": "cookie", "name": "bindery_session",
		"description": "The browser session of a single sign-on; writes only from this server's origin or --cors-origins."},
}

// failureName is the response every operation answers on failure.
const failureName = "Failure"

var failure = map[string]any{
	"description": "A failure: its status, and a message naming what was wrong.",
	"content": map[string]any{"application/json": map[string]any{"schema": Schema{
		"type": "object", "required": []any{"error"},
		"properties": Schema{"error": Schema{
			"type": "object", "required": []any{"code", "message"},
			"properties": Schema{"code": Schema{"type": "integer"}, "message": Schema{"type": "string"}},
		}},
	}}},
}

var failureRef = map[string]any{"$ref": "#/components/responses/" + failureName}

// openAPIPath is a chi pattern as an OpenAPI path template: a trailing wildcard is {path}.
func openAPIPath(pattern string) string {
	if p, ok := strings.CutSuffix(pattern, "/*"); ok {
		return p + "/{path}"
	}
	return pattern
}

// pathParams are the names of the parameters of an OpenAPI path template.
func pathParams(tmpl string) []string {
	var names []string
	for _, seg := range strings.Split(tmpl, "/") {
		if isParam(seg) {
			names = append(names, seg[1:len(seg)-1])
		}
	}
	return names
}

func isParam(seg string) bool {
	return seg == "*" || len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}'
}

// render is o as an OpenAPI operation of the route with pattern.
func (o Operation) render(pattern string) map[string]any {
	var params []any
	for _, name := range pathParams(openAPIPath(pattern)) {
		params = append(params, map[string]any{"name": name, "in": "path", "required": true, "schema": Schema{"type": "string"}})
	}
	for _, q := range o.Query {
		params = append(params, map[string]any{"name": q.Name, "in": "query", "description": q.Description, "schema": q.Schema})
	}
	op := map[string]any{
		"operationId": o.ID, "tags": []any{o.Tag}, "summary": o.Summary,
		"responses": map[string]any{fmt.Sprint(o.Status): o.success(), "default": failureRef},
	}
	if o.Description != "" {
		op["description"] = o.Description
	}
	if params != nil {
		op["parameters"] = params
	}
	if o.Request != nil {
		op["requestBody"] = map[string]any{"required": true,
			"content": map[string]any{"application/json": map[string]any{"schema": o.Request}}}
	}
	return op
}

// success is the response object of a success.
func (o Operation) success() map[string]any {
	resp := map[string]any{"description": "OK"}
	switch {
	case o.Response != nil:
		resp["content"] = map[string]any{"application/json": map[string]any{"schema": o.Response}}
	case o.Content != "":
		resp["content"] = map[string]any{o.Content: map[string]any{}}
	}
	return resp
}

// fromReference is an operation of the reference as this server has it: what it is (id, summary,
// parameters, bodies, answers), and the failure body on every status it does not list, without
// the reference's security (this server's tokens are the document's) and extensions.
func fromReference(ref map[string]any) map[string]any {
	op := map[string]any{}
	for _, key := range []string{"operationId", "summary", "description", "tags", "parameters", "requestBody", "deprecated"} {
		if v, ok := ref[key]; ok {
			op[key] = v
		}
	}
	if _, ok := op["tags"]; !ok {
		op["tags"] = []any{}
	}
	responses, _ := ref["responses"].(map[string]any)
	responses = maps.Clone(responses)
	if responses == nil {
		responses = map[string]any{}
	}
	if _, ok := responses["default"]; !ok {
		responses["default"] = failureRef
	}
	op["responses"] = responses
	return op
}
