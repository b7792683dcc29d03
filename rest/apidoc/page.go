package apidoc

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"html/template"
	"maps"
	"slices"
	"strings"
)

//go:embed page.html
var pageHTML string

var pageTemplate = template.Must(template.New("page").Parse(pageHTML))

// methodOrder is the order of an endpoint's operations on the page.
var methodOrder = []string{"get", "post", "put", "patch", "delete"}

// maxDepth is how deep inline schemas are drawn on the page; below, a component is a link.
const maxDepth = 3

// Page renders the document as one HTML page without scripts: operations by tag, each with its
// parameters, body and answers, then the schemas they name.
func Page(docJSON []byte) ([]byte, error) {
	var d doc
	if err := json.Unmarshal(docJSON, &d); err != nil {
		return nil, err
	}
	view := pageView{Title: d.Info.Title, Version: d.Info.Version, Description: d.Info.Description}
	if len(d.Servers) > 0 {
		view.Server = d.Servers[0].URL
	}
	view.Tags = d.tagViews()
	for _, name := range slices.Sorted(maps.Keys(d.Components.Schemas)) {
		s := d.Components.Schemas[name]
		view.Schemas = append(view.Schemas, schemaView{Name: name, Description: text(s["description"]), Body: d.schemaHTML(s, 0)})
	}
	var buf bytes.Buffer
	err := pageTemplate.Execute(&buf, view)
	return buf.Bytes(), err
}

// doc is the part of an OpenAPI document the page shows.
type doc struct {
	Info struct {
		Title, Version, Description string
	}
	Servers    []struct{ URL string }
	Tags       []struct{ Name, Description string }
	Paths      map[string]map[string]map[string]any
	Components struct {
		Schemas    map[string]Schema
		Parameters map[string]map[string]any
		Responses  map[string]map[string]any
	}
}

type pageView struct {
	Title, Version, Description, Server string
	Tags                                []tagView
	Schemas                             []schemaView
}

type tagView struct {
	Name, Description string
	Ops               []opView
}

type opView struct {
	ID, Method, Path, Summary, Description string
	Params                                 []paramView
	Request                                template.HTML
	Responses                              []responseView
}

type paramView struct {
	Name, In, Description string
	Required              bool
	Type                  template.HTML
}

type responseView struct {
	Status, Description string
	Body                template.HTML
}

type schemaView struct {
	Name, Description string
	Body              template.HTML
}

// tagViews groups the operations by their first tag, in the document's order of tags.
func (d *doc) tagViews() []tagView {
	byTag := map[string][]opView{}
	for _, path := range slices.Sorted(maps.Keys(d.Paths)) {
		for _, method := range methodOrder {
			if op, ok := d.Paths[path][method]; ok {
				tag := firstTag(op)
				byTag[tag] = append(byTag[tag], d.opView(path, method, op))
			}
		}
	}
	var views []tagView
	for _, t := range d.Tags {
		if ops, ok := byTag[t.Name]; ok {
			views = append(views, tagView{Name: t.Name, Description: t.Description, Ops: ops})
			delete(byTag, t.Name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(byTag)) {
		views = append(views, tagView{Name: name, Ops: byTag[name]})
	}
	return views
}

func firstTag(op map[string]any) string {
	if tags, _ := op["tags"].([]any); len(tags) > 0 {
		return text(tags[0])
	}
	return "other"
}

func (d *doc) opView(path, method string, op map[string]any) opView {
	v := opView{ID: text(op["operationId"]), Method: strings.ToUpper(method), Path: path,
		Summary: text(op["summary"]), Description: text(op["description"])}
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		p := d.deref(p, "parameters")
		schema, _ := p["schema"].(map[string]any)
		required, _ := p["required"].(bool)
		v.Params = append(v.Params, paramView{Name: text(p["name"]), In: text(p["in"]), Required: required,
			Description: text(p["description"]), Type: d.schemaHTML(schema, maxDepth)})
	}
	if body, ok := op["requestBody"].(map[string]any); ok {
		v.Request = d.contentHTML(body)
	}
	responses, _ := op["responses"].(map[string]any)
	for _, status := range slices.Sorted(maps.Keys(responses)) {
		r := d.deref(responses[status], "responses")
		v.Responses = append(v.Responses, responseView{Status: status, Description: text(r["description"]), Body: d.contentHTML(r)})
	}
	return v
}

// deref is v, or the component its $ref names.
func (d *doc) deref(v any, kind string) map[string]any {
	m, _ := v.(map[string]any)
	ref, ok := m["$ref"].(string)
	if !ok {
		return m
	}
	name := strings.TrimPrefix(ref, "#/components/"+kind+"/")
	if kind == "parameters" {
		return d.Components.Parameters[name]
	}
	return d.Components.Responses[name]
}

// contentHTML draws the schema of each media type of a body or answer.
func (d *doc) contentHTML(obj map[string]any) template.HTML {
	content, _ := obj["content"].(map[string]any)
	var b strings.Builder
	for _, media := range slices.Sorted(maps.Keys(content)) {
		m, _ := content[media].(map[string]any)
		schema, _ := m["schema"].(map[string]any)
		fmt.Fprintf(&b, `<div class="media">%s</div>`, html.EscapeString(media))
		if schema != nil {
			b.WriteString(string(d.schemaHTML(schema, 0)))
		}
	}
	return template.HTML(b.String()) //nolint:gosec // built from escaped text
}

// schemaHTML draws a schema: a link for a component, a table of properties for an object, the
// variants of a composition; depth limits how deep inline objects are drawn.
func (d *doc) schemaHTML(s map[string]any, depth int) template.HTML {
	var b strings.Builder
	d.writeSchema(&b, s, depth)
	return template.HTML(b.String()) //nolint:gosec // built from escaped text
}

func (d *doc) writeSchema(b *strings.Builder, s map[string]any, depth int) {
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		fmt.Fprintf(b, `<a href="#schema-%s">%s</a>`, html.EscapeString(name), html.EscapeString(name))
		return
	}
	for _, key := range []string{"allOf", "oneOf", "anyOf"} {
		if variants, ok := s[key].([]any); ok {
			d.writeVariants(b, key, variants, depth)
			return
		}
	}
	b.WriteString(html.EscapeString(typeName(s)))
	if enum, ok := s["enum"].([]any); ok {
		fmt.Fprintf(b, ": <code>%s</code>", html.EscapeString(joinValues(enum)))
	}
	if items, ok := s["items"].(map[string]any); ok {
		b.WriteString(" of ")
		d.writeSchema(b, items, depth)
	}
	if props, ok := s["properties"].(map[string]any); ok && len(props) > 0 {
		d.writeProperties(b, s, props, depth)
	}
}

func (d *doc) writeVariants(b *strings.Builder, key string, variants []any, depth int) {
	fmt.Fprintf(b, `<span class="comp">%s</span><ul>`, map[string]string{"allOf": "all of", "oneOf": "one of", "anyOf": "any of"}[key])
	for _, v := range variants {
		m, _ := v.(map[string]any)
		b.WriteString("<li>")
		d.writeSchema(b, m, depth+1)
		b.WriteString("</li>")
	}
	b.WriteString("</ul>")
}

func (d *doc) writeProperties(b *strings.Builder, s, props map[string]any, depth int) {
	if depth >= maxDepth {
		b.WriteString(" {…}")
		return
	}
	required := map[string]bool{}
	list, _ := s["required"].([]any)
	for _, r := range list {
		required[text(r)] = true
	}
	b.WriteString(`<table class="props">`)
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p, _ := props[name].(map[string]any)
		mark := ""
		if required[name] {
			mark = ` <span class="req">required</span>`
		}
		fmt.Fprintf(b, "<tr><td><code>%s</code>%s</td><td>", html.EscapeString(name), mark)
		d.writeSchema(b, p, depth+1)
		fmt.Fprintf(b, "</td><td>%s</td></tr>", html.EscapeString(text(p["description"])))
	}
	b.WriteString("</table>")
}

// typeName is a schema's type ("string", "integer | null"), "any" when it has none.
func typeName(s map[string]any) string {
	var name string
	switch t := s["type"].(type) {
	case string:
		name = t
	case []any:
		name = joinValues(t)
	default:
		name = "any"
	}
	if f, ok := s["format"].(string); ok {
		name += " (" + f + ")"
	}
	return name
}

func joinValues(values []any) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, " | ")
}

// text is v if it is a string.
func text(v any) string {
	s, _ := v.(string)
	return s
}
