package apiref

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// schema reads a schema: a $ref is resolved and named, unless it is one of the schemas being
// read (a cycle: the schema is cut, named); past maxDepth or maxSchemas the schema is cut. nil
// for no schema.
func (r *reader) schema(loc location, depth int) *Schema {
	if len(bytes.TrimSpace(loc.raw)) == 0 {
		return nil
	}
	if r.schemas >= maxSchemas {
		return &Schema{Cut: "size"}
	}
	r.schemas++
	list, ok := r.members(loc.raw)
	if !ok {
		return &Schema{} // a boolean schema: anything, or nothing
	}
	m := make(map[string][]byte, len(list))
	for _, f := range list {
		m[f.name] = f.value
	}
	if ref := text(m["$ref"]); ref != "" {
		return r.referenced(loc.file, ref, depth)
	}
	if depth >= maxDepth {
		return &Schema{Cut: "depth"}
	}
	s := &Schema{Type: typeOf(m), Format: text(m["format"]), Description: r.prose(m["description"]),
		Enum: r.enum(m["enum"]), Default: r.value(m["default"]), Example: r.value(firstExample(m)),
		Deprecated: flag(m["deprecated"]), ReadOnly: flag(m["readOnly"]), WriteOnly: flag(m["writeOnly"])}
	required := texts(m["required"])
	props, _ := members(m["properties"])
	for _, p := range props {
		s.Properties = append(s.Properties, Property{Name: p.name, Required: slices.Contains(required, p.name),
			Schema: r.schema(location{loc.file, p.value}, depth+1)})
	}
	if raw, ok := m["items"]; ok {
		s.Items = r.schema(location{loc.file, raw}, depth+1)
	}
	for _, c := range []string{"allOf", "oneOf", "anyOf"} {
		if items, ok := elements(m[c]); ok && len(items) > 0 {
			s.Combinator = c
			for _, v := range items[:min(len(items), maxVariant)] {
				s.Variants = append(s.Variants, r.schema(location{loc.file, v}, depth+1))
			}
			break
		}
	}
	return s
}

// members is members of a schema's bytes, split once per operation.
func (r *reader) members(raw []byte) ([]member, bool) {
	key := rawKey{&raw[0], len(raw)}
	if list, ok := r.split[key]; ok {
		return list, true
	}
	list, ok := members(raw)
	if ok {
		if r.split == nil {
			r.split = map[rawKey][]member{}
		}
		r.split[key] = list
	}
	return list, ok
}

// referenced reads the schema a $ref names.
func (r *reader) referenced(file, ref string, depth int) *Schema {
	key := file + " " + ref
	name := refName(ref)
	if slices.Contains(r.open, key) {
		return &Schema{Name: name, Cut: "cycle"}
	}
	target, ok := r.s.resolve(file, ref)
	if !ok || len(r.open) >= maxHops*4 {
		return &Schema{Name: name, Cut: "missing"}
	}
	r.open = append(r.open, key)
	defer func() { r.open = r.open[:len(r.open)-1] }()
	s := r.schema(target, depth)
	if s == nil {
		s = &Schema{}
	}
	if s.Name == "" {
		s.Name = name
	}
	return s
}

// typeOf is a schema's type: its type (OpenAPI 3.1's list of types joined by " | "), else what
// its members say it is.
func typeOf(m map[string][]byte) string {
	if t := text(m["type"]); t != "" {
		return t
	}
	if types := texts(m["type"]); len(types) > 0 {
		return strings.Join(types, " | ")
	}
	switch {
	case m["properties"] != nil:
		return "object"
	case m["items"] != nil:
		return "array"
	}
	return ""
}

func (r *reader) enum(raw []byte) []string {
	items, _ := elements(raw)
	var out []string
	for _, it := range items[:min(len(items), maxEnum)] {
		out = append(out, r.value(it))
	}
	return out
}

// firstExample is a schema's example, or the first of its examples (OpenAPI 3.1); nil for none.
func firstExample(m map[string][]byte) []byte {
	if raw, ok := m["example"]; ok {
		return raw
	}
	if items, _ := elements(m["examples"]); len(items) > 0 {
		return items[0]
	}
	return nil
}

// value is a JSON value of the document as compact JSON text, within the operation's budget of
// text: a string clipped, an object or array longer than maxText left out.
func (r *reader) value(raw []byte) string {
	if len(raw) == 0 || r.textBytes >= maxTotalText || len(raw) > maxText && raw[0] != '"' {
		return ""
	}
	return r.budget(jsonText(clipJSON(raw)))
}

// jsonText is a JSON value compacted, clipped; "" for none.
func jsonText(raw []byte) string {
	var b bytes.Buffer
	if len(raw) == 0 || json.Compact(&b, raw) != nil {
		return ""
	}
	return clip(b.String())
}
