package apiref

import (
	"bytes"
	"encoding/json"
	"strings"
)

// exampleOf is a body's example as indented JSON: the document's own, else one made from the
// schema; "" for neither.
func exampleOf(given []byte, s *Schema) string {
	var b bytes.Buffer
	if len(given) > 0 && json.Indent(&b, given, "", "  ") == nil {
		return clip(b.String())
	}
	if s == nil {
		return ""
	}
	w := &exampleWriter{}
	w.value(s, 0)
	return clip(w.b.String())
}

// exampleWriter writes an example value of a schema: its example, default or first enum value,
// else a value of its type, objects with every property.
type exampleWriter struct{ b strings.Builder }

func (w *exampleWriter) value(s *Schema, indent int) {
	switch {
	case s == nil || s.Cut != "":
		w.b.WriteString("{}")
	case s.Example != "":
		w.b.WriteString(s.Example)
	case s.Default != "":
		w.b.WriteString(s.Default)
	case len(s.Enum) > 0:
		w.b.WriteString(s.Enum[0])
	case len(s.Variants) > 0 && s.Combinator != "allOf":
		w.value(s.Variants[0], indent)
	case len(s.Properties) > 0 || s.Combinator == "allOf":
		w.object(allProperties(s), indent)
	case s.Items != nil || s.Type == "array":
		w.b.WriteString("[\n" + pad(indent+1))
		w.value(s.Items, indent+1)
		w.b.WriteString("\n" + pad(indent) + "]")
	default:
		w.b.WriteString(scalarExample(s))
	}
}

func (w *exampleWriter) object(props []Property, indent int) {
	if len(props) == 0 {
		w.b.WriteString("{}")
		return
	}
	w.b.WriteString("{")
	for i, p := range props {
		if i > 0 {
			w.b.WriteString(",")
		}
		name, _ := json.Marshal(p.Name)
		w.b.WriteString("\n" + pad(indent+1) + string(name) + ": ")
		w.value(p.Schema, indent+1)
	}
	w.b.WriteString("\n" + pad(indent) + "}")
}

// allProperties are an object's properties with those of the variants it is all of.
func allProperties(s *Schema) []Property {
	props := s.Properties
	if s.Combinator == "allOf" {
		for _, v := range s.Variants {
			if v != nil {
				props = append(props, allProperties(v)...)
			}
		}
	}
	return props
}

func scalarExample(s *Schema) string {
	t, _, _ := strings.Cut(s.Type, " ")
	switch t {
	case "integer", "number":
		return "0"
	case "boolean":
		return "true"
	case "null":
		return "null"
	case "object":
		return "{}"
	case "string":
		if s.Format == "date-time" {
			return `"2024-01-01T00:00:00Z"`
		}
		return `"string"`
	}
	return "null"
}

func pad(indent int) string { return strings.Repeat("  ", indent) }

// Curl is a curl command making the request: the server's URL and the path (its parameters as
// written, {name}), the required query parameters and headers, and the first request body's
// example. Every value is single-quoted for a POSIX shell.
func (op *Operation) Curl() string {
	url := strings.TrimSuffix(op.Server, "/") + op.Path
	var query, headers []string
	for _, p := range op.Parameters {
		if !p.Required {
			continue
		}
		switch p.In {
		case "query":
			query = append(query, p.Name+"={"+p.Name+"}")
		case "header":
			headers = append(headers, p.Name+": {"+p.Name+"}")
		}
	}
	if len(query) > 0 {
		url += "?" + strings.Join(query, "&")
	}
	lines := []string{"curl -X " + op.Method + " " + shellQuote(url)}
	for _, h := range headers {
		lines = append(lines, "  -H "+shellQuote(h))
	}
	if op.RequestBody != nil && len(op.RequestBody.Content) > 0 {
		c := op.RequestBody.Content[0]
		lines = append(lines, "  -H "+shellQuote("Content-Type: "+c.Type))
		if c.Example != "" {
			lines = append(lines, "  --data "+shellQuote(c.Example))
		}
	}
	return strings.Join(lines, " \\\n")
}

// shellQuote quotes s for a POSIX shell: in single quotes, each single quote closed, escaped and
// reopened.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
