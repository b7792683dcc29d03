// Package apidoc builds the OpenAPI 3.1 document of the /v1 REST surface from its route table:
// every route is described by an Operation the server declares (its operationId, tag, summary,
// success status and the Go types of its request and answer bodies), whose schemas are reflected
// from those wire types. A route without an Operation, or an Operation naming no route, is an
// error, so a route cannot be added without its description.
package apidoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Route is one endpoint of the router: its method and chi pattern below /v1 ("/orgs/{organizationId}").
type Route struct {
	Method  string
	Pattern string
}

// Key is how the route is named in a table of Operations: "GET /orgs/{organizationId}".
func (r Route) Key() string { return r.Method + " " + r.Pattern }

// Operation describes an endpoint.
type Operation struct {
	Route    string // the Route.Key of the route described: "GET /spaces/{spaceId}"
	ID       string // operationId, unique in the document
	Tag      string
	Summary  string
	Query    []Param      // query parameters; path parameters come from the pattern
	Request  reflect.Type // the JSON body decoded; nil: none
	Required []string     // the fields of Request the handler requires
	Status   int          // of a success
	Response reflect.Type // the JSON answer of a success; nil: an empty body, or Content
	Also     reflect.Type // another shape of the success answer (chosen by a query parameter)
	Content  string       // the media type of a success answer that is not JSON ("text/html")
	Bodiless []int        // other success statuses, without a body (204 of Prefer: return=minimal)
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

// Build returns the document, as JSON, of routes, each described by the Operation of its
// Route.Key. Returns an error naming every route no Operation describes, every Operation that
// names no route, and every route described twice.
func Build(routes []Route, operations []Operation, info Info) ([]byte, error) {
	ops, errs := byRoute(operations)
	paths := map[string]map[string]any{}
	used := map[string]bool{}
	tags := map[string]bool{}
	schemas := newComponents()
	for _, r := range routes {
		op, ok := ops[r.Key()]
		if !ok {
			errs = append(errs, fmt.Errorf("%s has no description: declare it in rest/apidoc.go", r.Key()))
			continue
		}
		rendered := op.render(r.Pattern, schemas)
		if info.Public[r.Key()] {
			rendered["security"] = []any{}
		}
		path := openAPIPath(r.Pattern)
		if paths[path] == nil {
			paths[path] = map[string]any{}
		}
		paths[path][strings.ToLower(r.Method)] = rendered
		used[r.Key()] = true
		tags[op.Tag] = true
	}
	for _, key := range slices.Sorted(maps.Keys(ops)) {
		if !used[key] {
			errs = append(errs, fmt.Errorf("%s is described but the router has no such route", key))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return json.Marshal(document(paths, schemas.schemas, tags, info))
}

func byRoute(operations []Operation) (map[string]Operation, []error) {
	ops := map[string]Operation{}
	var errs []error
	for _, op := range operations {
		if _, dup := ops[op.Route]; dup {
			errs = append(errs, fmt.Errorf("%s is described twice", op.Route))
		}
		ops[op.Route] = op
	}
	return ops, errs
}

// document assembles the whole document.
func document(paths map[string]map[string]any, schemas map[string]Schema, tags map[string]bool, info Info) map[string]any {
	var tagList []any
	for _, t := range slices.Sorted(maps.Keys(tags)) {
		tagList = append(tagList, map[string]any{"name": t})
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":   "Bindery REST API",
			"version": info.Version,
			"description": "The /v1 REST API of this Bindery server, wire-compatible with the reference client " +
				"@gitbook/api where it has the same operation (the same operationId). Every failure answers " +
				`{"error":{"code":<status>,"message":"…"}}, its message naming what was wrong.`,
		},
		"servers":  []any{map[string]any{"url": info.ServerURL}},
		"security": []any{map[string]any{"token": []any{}}, map[string]any{"session": []any{}}},
		"tags":     tagList,
		"paths":    paths,
		"components": map[string]any{
			"schemas":         schemas,
			"responses":       map[string]any{failureName: failure},
			"securitySchemes": securitySchemes,
		},
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
		if len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}' {
			names = append(names, seg[1:len(seg)-1])
		}
	}
	return names
}

// render is o as an OpenAPI operation of the route with pattern, the named structs of its
// answers in schemas.
func (o Operation) render(pattern string, schemas *components) map[string]any {
	var params []any
	for _, name := range pathParams(openAPIPath(pattern)) {
		params = append(params, map[string]any{"name": name, "in": "path", "required": true, "schema": Schema{"type": "string"}})
	}
	for _, q := range o.Query {
		params = append(params, map[string]any{"name": q.Name, "in": "query", "description": q.Description, "schema": q.Schema})
	}
	responses := map[string]any{strconv.Itoa(o.Status): o.success(schemas), "default": failureRef}
	for _, status := range o.Bodiless {
		responses[strconv.Itoa(status)] = map[string]any{"description": http.StatusText(status)}
	}
	op := map[string]any{"operationId": o.ID, "tags": []any{o.Tag}, "summary": o.Summary, "responses": responses}
	if params != nil {
		op["parameters"] = params
	}
	if o.Request != nil {
		op["requestBody"] = map[string]any{"required": true, "content": map[string]any{
			"application/json": map[string]any{"schema": RequestSchemaOf(o.Request, o.Required...)}}}
	}
	return op
}

// success is the response object of a success.
func (o Operation) success(schemas *components) map[string]any {
	resp := map[string]any{"description": http.StatusText(o.Status)}
	switch {
	case o.Response != nil && o.Also != nil:
		resp["content"] = jsonContent(Schema{"anyOf": []any{schemas.responseSchema(o.Response), schemas.responseSchema(o.Also)}})
	case o.Response != nil:
		resp["content"] = jsonContent(schemas.responseSchema(o.Response))
	case o.Content != "":
		resp["content"] = map[string]any{o.Content: map[string]any{}}
	}
	return resp
}

func jsonContent(s Schema) map[string]any {
	return map[string]any{"application/json": map[string]any{"schema": s}}
}
