package apidoc

import (
	"encoding"
	"encoding/json"
	"maps"
	"path"
	"reflect"
	"strings"
	"time"
)

// Schema is a JSON Schema (2020-12, as OpenAPI 3.1 has it), as JSON would hold it.
type Schema = map[string]any

// Schemer is a type that says what JSON it accepts or writes, where reflection cannot see it
// (a type with its own UnmarshalJSON, such as a field that may be absent but not null).
type Schemer interface {
	JSONSchema() Schema
}

var (
	schemerType     = reflect.TypeFor[Schemer]()
	timeType        = reflect.TypeFor[time.Time]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textType        = reflect.TypeFor[encoding.TextMarshaler]()
)

// SchemaOf is the JSON Schema of what encoding/json writes for a value of t: a struct's fields
// by their json names, required unless omitempty; a pointer without omitempty may be null. A
// field's `doc` tag is its description.
func SchemaOf(t reflect.Type) Schema {
	return reflector{seen: map[reflect.Type]bool{}}.schema(t)
}

// RequestSchemaOf is the JSON Schema of a request body decoded into a value of t: every field
// may be absent (a handler says which it requires: required lists them), a pointer may be null.
func RequestSchemaOf(t reflect.Type, required ...string) Schema {
	s := reflector{seen: map[reflect.Type]bool{}, request: true}.schema(t)
	if len(required) > 0 {
		list := make([]any, len(required))
		for i, name := range required {
			list[i] = name
		}
		s["required"] = list
	}
	return s
}

// SchemaFor is SchemaOf the type parameter.
func SchemaFor[T any]() Schema { return SchemaOf(reflect.TypeFor[T]()) }

type reflector struct {
	seen    map[reflect.Type]bool
	request bool        // no field is required, a pointer may be null even when omitempty
	named   *components // where named structs go, referred to by $ref; nil: inline
}

// components are the schemas of the named struct types of answers, shared by the operations.
type components struct {
	schemas map[string]Schema
	names   map[reflect.Type]string
}

func newComponents() *components {
	return &components{schemas: map[string]Schema{}, names: map[reflect.Type]string{}}
}

// responseSchema is the schema of an answer of type t, its named structs in c.
func (c *components) responseSchema(t reflect.Type) Schema {
	return reflector{seen: map[reflect.Type]bool{}, named: c}.schema(t)
}

// ref is the $ref of the component of t, reflected the first time.
func (c *components) ref(r reflector, t reflect.Type) Schema {
	name, ok := c.names[t]
	if !ok {
		name = c.nameOf(t)
		c.names[t] = name
		c.schemas[name] = r.object(t)
	}
	return Schema{"$ref": "#/components/schemas/" + name}
}

// nameOf is the component name of t: its Go name, or package.Name when another type has it.
func (c *components) nameOf(t reflect.Type) string {
	name := t.Name()
	for _, taken := range c.names {
		if taken == name {
			return path.Base(t.PkgPath()) + "." + name
		}
	}
	return name
}

// componentType reports whether t is described once in the components: a named struct that is
// not generic (a generic instance's name holds its type arguments' package paths).
func componentType(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.Name() != "" && !strings.Contains(t.Name(), "[")
}

func (r reflector) schema(t reflect.Type) Schema {
	if s, ok := known(t); ok {
		return s
	}
	switch t.Kind() {
	case reflect.Pointer:
		return Nullable(r.schema(t.Elem()))
	case reflect.String:
		return Schema{"type": "string"}
	case reflect.Bool:
		return Schema{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Schema{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return Schema{"type": "number"}
	case reflect.Slice, reflect.Array:
		return r.nullableInRequest(t, Schema{"type": "array", "items": r.schema(t.Elem())})
	case reflect.Map:
		return r.nullableInRequest(t, Schema{"type": "object", "additionalProperties": r.schema(t.Elem())})
	case reflect.Struct:
		if r.named != nil && componentType(t) {
			return r.named.ref(r, t)
		}
		return r.object(t)
	}
	return Schema{} // interfaces: any JSON value
}

// nullableInRequest is s, or null too for a slice or map decoded from a request: encoding/json
// decodes null into one as none, which handlers take as the field left out.
func (r reflector) nullableInRequest(t reflect.Type, s Schema) Schema {
	if r.request && t.Kind() != reflect.Array {
		s["type"] = []any{s["type"], "null"} // items or additionalProperties stay where readers look
	}
	return s
}

// known answers the types whose JSON reflection cannot read from their fields.
func known(t reflect.Type) (Schema, bool) {
	switch {
	case t.Kind() == reflect.Pointer: // described by its element, or null
		return nil, false
	case t.Implements(schemerType):
		return reflect.Zero(t).Interface().(Schemer).JSONSchema(), true
	case reflect.PointerTo(t).Implements(schemerType):
		return reflect.New(t).Interface().(Schemer).JSONSchema(), true
	case t == timeType:
		return Schema{"type": "string", "format": "date-time"}, true
	case t == rawMessageType:
		return Schema{}, true
	case t.Kind() == reflect.Struct && (reflect.PointerTo(t).Implements(unmarshalerType) || t.Implements(textType)):
		return Schema{}, true // its own encoding, which it does not describe
	}
	return nil, false
}

// object is the schema of a struct: its fields, those of embedded structs inlined as
// encoding/json does. A type met again inside itself is an object without more detail.
func (r reflector) object(t reflect.Type) Schema {
	if r.seen[t] {
		return Schema{"type": "object"}
	}
	r.seen[t] = true
	defer delete(r.seen, t)
	props := Schema{}
	var required []any
	r.fields(t, props, &required)
	s := Schema{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func (r reflector) fields(t reflect.Type, props Schema, required *[]any) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" && opts == "":
			continue
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			r.fields(f.Type, props, required)
			continue
		case !f.IsExported():
			continue
		case name == "":
			name = f.Name
		}
		omit := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		s := r.schema(f.Type)
		if f.Type.Kind() == reflect.Pointer && omit && !r.request {
			s = r.schema(f.Type.Elem()) // absent rather than null
		}
		if doc := f.Tag.Get("doc"); doc != "" {
			s = maps.Clone(s) // a Schemer may answer a shared map
			s["description"] = doc
		}
		props[name] = s
		if !omit && !r.request {
			*required = append(*required, name)
		}
	}
}

// Nullable is s or null: a type list where s is a plain type (with its format), else anyOf.
func Nullable(s Schema) Schema {
	typ, ok := s["type"].(string)
	_, formatted := s["format"]
	if !ok || len(s) > 2 || (len(s) == 2 && !formatted) {
		return Schema{"anyOf": []any{s, Schema{"type": "null"}}}
	}
	n := Schema{"type": []any{typ, "null"}}
	if formatted {
		n["format"] = s["format"]
	}
	return n
}
