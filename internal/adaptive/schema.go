package adaptive

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Bounds of a visitor schema (see the package documentation).
const (
	maxSchemaBytes     = 256 << 10
	maxClaims          = 500
	maxClaimsPerObject = 100
	maxDepth           = 4
	maxNameLen         = 64
	maxDescriptionLen  = 512
	maxEnumValues      = 100
	maxEnumValueLen    = 256
)

// draft07 is the only $schema a visitor schema may name.
const draft07 = "http://json-schema.org/draft-07/schema#"

// unsignedDescription is the description the reference requires of the unsigned object.
const unsignedDescription = "Unsigned claims of the site visitor."

// defaultJSON is the schema of a site before one is set: no signed claims, no unsigned claims.
const defaultJSON = `{"type":"object","properties":{"unsigned":{"type":"object",` +
	`"description":"Unsigned claims of the site visitor.","properties":{},"additionalProperties":false}},` +
	`"additionalProperties":false}`

// Schema is a site's validated visitor schema. It is immutable and safe for concurrent use.
type Schema struct {
	raw  []byte    // the schema as given, marshalled once
	key  schemaKey // the SHA-256 of raw: where it and conditions compiled against it are cached
	root *claim    // visitor.claims: an object claim
}

// ParseSchema validates raw (the jsonSchema value as decoded JSON) as a JSON Schema draft-07
// document and against the adaptive-content rules. It returns an *Error naming the JSON path of
// the first problem, e.g. `jsonSchema.properties.plan.type: must be "boolean", "string",
// "number", "array" or "object"`. A schema of the same JSON text parsed before is not parsed again.
func ParseSchema(raw map[string]any) (*Schema, error) {
	if raw == nil {
		return nil, schemaError("jsonSchema", "must be an object")
	}
	data, err := json.Marshal(raw)
	if err != nil {
		return nil, schemaError("jsonSchema", "not a JSON value: %v", err)
	}
	if len(data) > maxSchemaBytes {
		return nil, schemaError("jsonSchema", "at most %d bytes of JSON", maxSchemaBytes)
	}
	key := schemaKey(sha256.Sum256(data))
	if parsed, ok := schemas.Get(key); ok {
		return parsed.schema, parsed.err
	}
	s, err := parseSchema(raw, data, key)
	schemas.Add(key, parsedSchema{schema: s, err: err})
	return s, err
}

// parseSchema checks raw, whose JSON text is data, against the adaptive-content rules and as a
// draft-07 document.
func parseSchema(raw map[string]any, data []byte, key schemaKey) (*Schema, error) {
	root, err := new(schemaParser).root(raw)
	if err != nil {
		return nil, err
	}
	if err := compileDraft07(raw); err != nil {
		return nil, err
	}
	return &Schema{raw: data, key: key, root: root}, nil
}

// ParseSchemaJSON is ParseSchema on the JSON text of a schema (as stored).
func ParseSchemaJSON(data []byte) (*Schema, error) {
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, schemaError("jsonSchema", "not a JSON object: %v", err)
	}
	return ParseSchema(raw)
}

// DefaultSchema returns the schema a site has before one is set: an object with only an empty
// `unsigned` object, additional properties disallowed at both levels.
func DefaultSchema() *Schema {
	return defaultSchema()
}

var defaultSchema = sync.OnceValue(func() *Schema {
	s, err := ParseSchemaJSON([]byte(defaultJSON))
	if err != nil {
		panic("adaptive: default schema: " + err.Error())
	}
	return s
})

// MarshalJSON returns the schema as it was given (the same JSON value; object keys sorted).
func (s *Schema) MarshalJSON() ([]byte, error) {
	return bytes.Clone(s.raw), nil
}

// compileDraft07 compiles doc as a JSON Schema draft-07 document. Nothing is loaded from outside:
// a reference to another document fails.
func compileDraft07(doc any) error {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	c.UseLoader(jsonschema.SchemeURLLoader{})
	const url = "urn:bindery:adaptive-schema"
	err := c.AddResource(url, doc)
	if err == nil {
		_, err = c.Compile(url)
	}
	if err == nil {
		return nil
	}
	var invalid *jsonschema.SchemaValidationError
	var cause *jsonschema.ValidationError
	if !errors.As(err, &invalid) || !errors.As(invalid.Err, &cause) {
		return schemaError("jsonSchema", "not a JSON Schema draft-07 document: %v", err)
	}
	for len(cause.Causes) > 0 {
		cause = cause.Causes[0]
	}
	path := "jsonSchema"
	for _, key := range cause.InstanceLocation {
		path = keyPath(path, key)
	}
	return schemaError(path, "not valid JSON Schema draft-07: %s",
		cause.ErrorKind.LocalizedString(message.NewPrinter(language.English)))
}
