package apiref

import (
	"bytes"
	"errors"
	"slices"
	"sort"
	"strings"
)

// Operation is what a reference page shows of one operation.
type Operation struct {
	Method      string // upper case
	Path        string // of an operation of the document's paths
	Webhook     string // of a webhook, by name, instead
	Summary     string
	Description string // Markdown, as the document has it
	Deprecated  bool
	Server      string // the first server's URL, for the curl sample ("" for none)
	Parameters  []Parameter
	RequestBody *Body
	Responses   []Response
}

// Parameter is a parameter of an operation.
type Parameter struct {
	Name, In    string // in: path, query, header or cookie
	Description string
	Required    bool
	Deprecated  bool
	Schema      *Schema
}

// Body is a request body: its description and its content by media type.
type Body struct {
	Description string
	Required    bool
	Content     []Media
}

// Response is a response of an operation by status ("200", "4XX", "default").
type Response struct {
	Status      string
	Description string
	Content     []Media
}

// Media is a body's content for one media type: its schema and an example (JSON text, the
// document's own or one made from the schema).
type Media struct {
	Type    string
	Schema  *Schema
	Example string
}

// Schema is a schema with its $refs resolved, as deep as the bounds let it be.
type Schema struct {
	Name        string // the component it is, when reached by $ref
	Type        string // "object", "string", "integer", "array", "string | null"…
	Format      string
	Description string
	Enum        []string // as JSON texts
	Default     string   // as JSON text
	Example     string   // as JSON text
	Deprecated  bool
	ReadOnly    bool
	WriteOnly   bool
	Properties  []Property
	Items       *Schema
	Variants    []*Schema // of OneOf, AnyOf or AllOf
	Combinator  string    // "oneOf", "anyOf" or "allOf" when Variants
	// Cut says why the schema is not expanded: "cycle" (it is one of the schemas it is in),
	// "depth" or "size" (past the bounds), "missing" (its $ref leads nowhere).
	Cut string
}

// Property is a property of an object schema.
type Property struct {
	Name     string
	Required bool
	Schema   *Schema
}

// Methods are the operation methods of a path item (OpenAPI 3's fixed fields), in the order a
// reference lists them.
var Methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// The errors of Spec.Operation; a reader sees them as notices.
var (
	ErrNoPath    = errors.New("the specification has no such path")
	ErrNoWebhook = errors.New("the specification has no such webhook")
	ErrNoMethod  = errors.New("the path has no operation of this method")
)

// The bounds of what one operation expands: past them a schema is cut, a text clipped.
const (
	maxDepth   = 12       // schemas in schemas
	maxSchemas = 1500     // schemas of one operation
	maxText    = 64 << 10 // bytes of a description, example or default
	// maxTotalText is the bytes of text one operation or block of schemas takes, descriptions and
	// examples together.
	maxTotalText = 1 << 20
	maxEnum      = 50   // values of an enum shown
	maxVariant   = 20   // variants of a oneOf/anyOf/allOf, properties are bounded by maxSchemas
	maxPath      = 2048 // bytes of a path or webhook name looked up
	maxNamed     = 50   // schemas of an openapi-schemas block
)

// Operation reads the operation of method at path. Returns ErrNoPath or ErrNoMethod when the
// document has none, errNotJSON when its files cannot be read.
func (s *Spec) Operation(path, method string) (*Operation, error) {
	op, err := s.pathItem("/paths/", path, method, ErrNoPath)
	if op != nil {
		op.Path = path
	}
	return op, err
}

// Webhook reads the operation of method of a webhook (OpenAPI 3.1's webhooks, by name). Returns
// ErrNoWebhook or ErrNoMethod when the document has none.
func (s *Spec) Webhook(name, method string) (*Operation, error) {
	op, err := s.pathItem("/webhooks/", name, method, ErrNoWebhook)
	if op != nil {
		op.Webhook = name
	}
	return op, err
}

// pathItem reads the operation of method of the path item under parent with this key; missing is
// the error of a key the document lacks.
func (s *Spec) pathItem(parent, key, method string, missing error) (*Operation, error) {
	method = strings.ToLower(method)
	if len(key) > maxPath {
		return nil, missing
	}
	if !slices.Contains(Methods, method) {
		return nil, ErrNoMethod
	}
	item, ok := s.at(s.entry, parent+escapePointer(key))
	if !ok {
		return nil, missing
	}
	item, _, _ = s.deref(item)
	members, ok := fields(item.raw)
	if !ok {
		return nil, errNotJSON
	}
	raw, ok := members[method]
	if !ok {
		return nil, ErrNoMethod
	}
	r := &reader{s: s}
	return r.operation(location{item.file, raw}, members, method), nil
}

// Schemas reads the named schemas of the document's components (Swagger 2's definitions), at
// most maxNamed; one the document lacks is cut as missing.
func (s *Spec) Schemas(names []string) []*Schema {
	r := &reader{s: s}
	var out []*Schema
	for _, name := range names[:min(len(names), maxNamed)] {
		schema := &Schema{Name: name, Cut: "missing"}
		for _, parent := range []string{"/components/schemas/", "/definitions/"} {
			if loc, ok := s.at(s.entry, parent+escapePointer(name)); ok {
				if schema = r.schema(loc, 0); schema.Name == "" {
					schema.Name = name
				}
				break
			}
		}
		out = append(out, schema)
	}
	return out
}

// escapePointer escapes a key for a JSON pointer.
func escapePointer(key string) string {
	return strings.ReplaceAll(strings.ReplaceAll(key, "~", "~0"), "/", "~1")
}

// reader reads one operation, counting the schemas it expands and the bytes of text it takes.
type reader struct {
	s         *Spec
	schemas   int
	textBytes int
	open      []string            // the $refs of the schemas being read, outermost first
	split     map[rawKey][]member // the schemas split, by their bytes: one referenced often is split once
}

// rawKey names a value by its bytes in the spec's files.
type rawKey struct {
	start *byte
	n     int
}

// prose is a text of the document (a summary, a description), clipped, within the operation's
// budget of text.
func (r *reader) prose(raw []byte) string {
	if r.textBytes >= maxTotalText {
		return ""
	}
	return r.budget(clip(text(clipJSON(raw))))
}

// clipJSON cuts a JSON string longer than maxText bytes to about that length, so that a huge text
// costs no more than its kept part to read.
func clipJSON(raw []byte) []byte {
	if len(raw) <= maxText+2 || raw[0] != '"' {
		return raw
	}
	cut := maxText
	if i := bytes.LastIndexByte(raw[cut-6:cut], '\\'); i >= 0 { // not inside an escape
		cut -= 6 - i
	}
	return append(raw[:cut:cut], '"')
}

// budget takes s from what is left of maxTotalText, the operation's text: past it, texts are
// cut, then empty. A schema referenced a thousand times costs its text a thousand times.
func (r *reader) budget(s string) string {
	left := maxTotalText - r.textBytes
	if len(s) > left {
		s = strings.ToValidUTF8(s[:max(left, 0)], "")
	}
	r.textBytes += len(s)
	return s
}

func (r *reader) operation(loc location, item map[string][]byte, method string) *Operation {
	m, _ := fields(loc.raw)
	op := &Operation{Method: strings.ToUpper(method), Summary: r.prose(m["summary"]),
		Description: r.prose(m["description"]), Deprecated: flag(m["deprecated"]), Server: r.server(m)}
	op.Parameters = r.parameters(location{loc.file, item["parameters"]}, location{loc.file, m["parameters"]})
	if body := r.swaggerBody(loc.file, item["parameters"], m); body != nil {
		op.RequestBody = body
	} else if raw, ok := m["requestBody"]; ok {
		op.RequestBody = r.body(location{loc.file, raw})
	}
	op.Responses = r.responses(location{loc.file, m["responses"]}, produces(m, r.root()))
	return op
}

// root is the entry document's members.
func (r *reader) root() map[string][]byte {
	loc, _ := r.s.at(r.s.entry, "")
	m, _ := r.s.split(r.s.entry, "", loc.raw)
	return m
}

// server is the first server of the operation or the document (OpenAPI 3), or the host and base
// path (Swagger 2).
func (r *reader) server(op map[string][]byte) string {
	root := r.root()
	for _, raw := range [][]byte{op["servers"], root["servers"]} {
		if items, _ := elements(raw); len(items) > 0 {
			m, _ := fields(items[0])
			return text(m["url"])
		}
	}
	if host := text(root["host"]); host != "" {
		scheme := "https"
		if schemes := texts(root["schemes"]); len(schemes) > 0 && !slices.Contains(schemes, "https") {
			scheme = schemes[0]
		}
		return scheme + "://" + host + text(root["basePath"])
	}
	return ""
}

// parameters are the path item's parameters with the operation's, which replace those of the
// same name and location; Swagger 2's body parameter is the request body instead.
func (r *reader) parameters(itemParams, opParams location) []Parameter {
	var out []Parameter
	for _, list := range []location{itemParams, opParams} {
		items, _ := elements(list.raw)
		for _, raw := range items {
			p, ok := r.parameter(location{list.file, raw})
			if !ok {
				continue
			}
			out = slices.DeleteFunc(out, func(q Parameter) bool { return q.Name == p.Name && q.In == p.In })
			out = append(out, p)
		}
	}
	return out
}

func (r *reader) parameter(loc location) (Parameter, bool) {
	loc, _, ok := r.s.deref(loc)
	m, isObject := fields(loc.raw)
	if !ok || !isObject || text(m["in"]) == "body" {
		return Parameter{}, false
	}
	p := Parameter{Name: text(m["name"]), In: text(m["in"]), Description: r.prose(m["description"]),
		Required: flag(m["required"]), Deprecated: flag(m["deprecated"])}
	if raw, ok := m["schema"]; ok {
		p.Schema = r.schema(location{loc.file, raw}, 0)
	} else { // Swagger 2: the type is the parameter's own
		p.Schema = r.schema(loc, 0)
		p.Schema.Description = ""
	}
	if p.Schema == nil {
		p.Schema = &Schema{}
	}
	return p, true
}

// swaggerBody is Swagger 2's body parameter as a request body, nil when there is none.
func (r *reader) swaggerBody(file string, itemParams []byte, op map[string][]byte) *Body {
	for _, list := range [][]byte{op["parameters"], itemParams} {
		items, _ := elements(list)
		for _, raw := range items {
			loc, _, _ := r.s.deref(location{file, raw})
			m, _ := fields(loc.raw)
			if text(m["in"]) != "body" {
				continue
			}
			schema := r.schema(location{loc.file, m["schema"]}, 0)
			var content []Media
			for _, t := range consumes(op, r.root()) {
				content = append(content, Media{Type: t, Schema: schema, Example: r.budget(exampleOf(nil, schema))})
			}
			return &Body{Description: r.prose(m["description"]), Required: flag(m["required"]), Content: content}
		}
	}
	return nil
}

// consumes and produces are Swagger 2's media types of an operation, application/json when it
// names none.
func consumes(op, root map[string][]byte) []string { return mediaTypes("consumes", op, root) }
func produces(op, root map[string][]byte) []string { return mediaTypes("produces", op, root) }

func mediaTypes(key string, op, root map[string][]byte) []string {
	for _, m := range []map[string][]byte{op, root} {
		if t := texts(m[key]); len(t) > 0 {
			return t
		}
	}
	return []string{"application/json"}
}

func (r *reader) body(loc location) *Body {
	loc, _, ok := r.s.deref(loc)
	m, isObject := fields(loc.raw)
	if !ok || !isObject {
		return nil
	}
	return &Body{Description: r.prose(m["description"]), Required: flag(m["required"]), Content: r.content(location{loc.file, m["content"]})}
}

// content is an OpenAPI 3 content map, by media type in the document's order of names sorted.
func (r *reader) content(loc location) []Media {
	m, _ := fields(loc.raw)
	var out []Media
	for _, t := range sortedKeys(m) {
		mt, _ := fields(m[t])
		media := Media{Type: t, Schema: r.schema(location{loc.file, mt["schema"]}, 0)}
		media.Example = r.budget(exampleOf(r.example(loc.file, mt), media.Schema))
		out = append(out, media)
	}
	return out
}

// example is a media type's example, or the value of the first of its examples, as JSON text;
// nil when it has none.
func (r *reader) example(file string, mt map[string][]byte) []byte {
	if raw, ok := mt["example"]; ok {
		return raw
	}
	examples, _ := fields(mt["examples"])
	for _, name := range sortedKeys(examples) {
		loc, _, ok := r.s.deref(location{file, examples[name]})
		ex, _ := fields(loc.raw)
		if value, has := ex["value"]; ok && has {
			return value
		}
	}
	return nil
}

// responses are an operation's responses by status, in status order, "default" last.
func (r *reader) responses(loc location, swaggerTypes []string) []Response {
	m, _ := fields(loc.raw)
	codes := sortedKeys(m)
	sort.SliceStable(codes, func(i, j int) bool { return codes[j] == "default" && codes[i] != "default" })
	var out []Response
	for _, code := range codes {
		if strings.HasPrefix(code, "x-") {
			continue
		}
		res, _, _ := r.s.deref(location{loc.file, m[code]})
		rm, _ := fields(res.raw)
		resp := Response{Status: code, Description: r.prose(rm["description"])}
		if raw, ok := rm["content"]; ok {
			resp.Content = r.content(location{res.file, raw})
		} else if raw, ok := rm["schema"]; ok { // Swagger 2
			schema := r.schema(location{res.file, raw}, 0)
			for _, t := range swaggerTypes {
				resp.Content = append(resp.Content, Media{Type: t, Schema: schema, Example: r.budget(exampleOf(rm["examples"], schema))})
			}
		}
		out = append(out, resp)
	}
	return out
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// text is a JSON string's value, "" for anything else.
func text(raw []byte) string {
	s, _ := unquote(raw)
	return s
}

// texts is a JSON array of strings' values.
func texts(raw []byte) []string {
	var out []string
	items, _ := elements(raw)
	for _, it := range items {
		if s := text(it); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func flag(raw []byte) bool { return string(raw) == "true" }

// clip cuts a text past maxText bytes (on a rune boundary).
func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	return strings.ToValidUTF8(s[:maxText], "") + "…"
}
