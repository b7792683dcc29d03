package adaptive

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// decode returns the JSON text s as a decoded object, failing the test if it is not one.
func decode(tb testing.TB, s string) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		tb.Fatalf("decode %s: %v", s, err)
	}
	return m
}

// withClaims returns a schema whose properties are props (JSON text of an object's members).
func withClaims(props string) string {
	return `{"type":"object","properties":{` + props + `},"additionalProperties":false}`
}

// withUnsigned returns a schema whose unsigned object has the properties props.
func withUnsigned(props string) string {
	return withClaims(`"unsigned":{"type":"object","description":"Unsigned claims of the site visitor.",` +
		`"properties":{` + props + `},"additionalProperties":false}`)
}

const (
	boolClaim = `{"type":"boolean","description":"d"}`
	enumClaim = `{"type":"string","enum":["free","pro","team"],"description":"d"}`
)

// mustSchema parses the JSON text of a schema, failing the test if it is refused.
func mustSchema(tb testing.TB, s string) *Schema {
	tb.Helper()
	schema, err := ParseSchemaJSON([]byte(s))
	if err != nil {
		tb.Fatalf("ParseSchemaJSON(%s): %v", s, err)
	}
	return schema
}

func TestParseSchema(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, s := range []string{
			defaultJSON,
			withClaims(``),
			withClaims(`"isBetaUser":` + boolClaim),
			`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{},"additionalProperties":false}`,
			withClaims(`"plan":` + enumClaim + `,"name":{"type":"string","description":""},"seats":{"type":"number","description":"d"}`),
			withClaims(`"plan":{"type":"string","enum":[""],"description":"d"}`),
			withClaims(`"roles":{"type":"array","description":"d","items":{"type":"string","enum":["a"],"description":"d"}}`),
			withClaims(`"org":{"type":"object","description":"d","properties":{"partner":` + boolClaim + `},"additionalProperties":false}`),
			withUnsigned(`"fromNewsletter":` + boolClaim + `,"unsigned":` + boolClaim),
			withUnsigned(`"a":{"type":"object","description":"d","additionalProperties":false,"properties":{` +
				`"b":{"type":"object","description":"d","additionalProperties":false,"properties":{"c":` + boolClaim + `}}}}`),
			withClaims(`"` + strings.Repeat("a", 64) + `":` + boolClaim),
			withClaims(manyClaims(100)),
		} {
			mustSchema(t, s)
		}
	})
	for _, tc := range []struct {
		name, schema, path, message string
	}{
		{"ErrNotObject", `null`, "jsonSchema", "must be an object"},
		{"ErrUnknownKey", `{"type":"object","properties":{},"additionalProperties":false,"required":[]}`,
			"jsonSchema.required", "not allowed in the schema (it has $schema, type, properties, additionalProperties)"},
		{"ErrMissingType", `{"properties":{},"additionalProperties":false}`, "jsonSchema.type", `must be "object"`},
		{"ErrMissingProperties", `{"type":"object","additionalProperties":false}`, "jsonSchema.properties", "missing"},
		{"ErrMissingAdditional", `{"type":"object","properties":{}}`, "jsonSchema.additionalProperties", "missing"},
		{"ErrSchemaURL", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{},"additionalProperties":false}`,
			"jsonSchema.$schema", `must be "http://json-schema.org/draft-07/schema#"`},
		{"ErrRootType", `{"type":"array","properties":{},"additionalProperties":false}`, "jsonSchema.type", `must be "object"`},
		{"ErrAdditionalTrue", `{"type":"object","properties":{},"additionalProperties":true}`,
			"jsonSchema.additionalProperties", "must be false"},
		{"ErrPropertiesArray", `{"type":"object","properties":[],"additionalProperties":false}`,
			"jsonSchema.properties", "must be an object"},
		{"ErrClaimNotObject", withClaims(`"a":true`), "jsonSchema.properties.a", "must be an object"},
		{"ErrClaimType", withClaims(`"plan":{"type":"integer","description":"d"}`),
			"jsonSchema.properties.plan.type", `must be "boolean", "string", "number", "array" or "object"`},
		{"ErrClaimTypeMissing", withClaims(`"plan":{"description":"d"}`),
			"jsonSchema.properties.plan.type", `must be "boolean", "string", "number", "array" or "object"`},
		{"ErrClaimDescriptionMissing", withClaims(`"a":{"type":"boolean"}`), "jsonSchema.properties.a.description", "missing"},
		{"ErrClaimDescriptionType", withClaims(`"a":{"type":"boolean","description":1}`),
			"jsonSchema.properties.a.description", "must be a string"},
		{"ErrClaimDescriptionLong", withClaims(`"a":{"type":"boolean","description":"` + strings.Repeat("é", 513) + `"}`),
			"jsonSchema.properties.a.description", "at most 512 characters"},
		{"ErrClaimUnknownKey", withClaims(`"a":{"type":"boolean","description":"d","default":true}`),
			"jsonSchema.properties.a.default", `not allowed in a "boolean" claim (it has type, description)`},
		{"ErrEnumOnBoolean", withClaims(`"a":{"type":"boolean","description":"d","enum":[true]}`),
			"jsonSchema.properties.a.enum", `not allowed in a "boolean" claim`},
		{"ErrEnumNotArray", withClaims(`"plan":{"type":"string","description":"d","enum":"pro"}`),
			"jsonSchema.properties.plan.enum", "must be an array of strings"},
		{"ErrEnumValue", withClaims(`"plan":{"type":"string","description":"d","enum":["pro",2]}`),
			"jsonSchema.properties.plan.enum[1]", "must be a string"},
		{"ErrEnumValueLong", withClaims(`"plan":{"type":"string","description":"d","enum":["` + strings.Repeat("x", 257) + `"]}`),
			"jsonSchema.properties.plan.enum[0]", "at most 256 characters"},
		{"ErrEnumTooMany", withClaims(`"plan":{"type":"string","description":"d","enum":[` + strings.Repeat(`"x",`, 100) + `"y"]}`),
			"jsonSchema.properties.plan.enum", "must have 1..100 values"},
		{"ErrEnumRepeats", withClaims(`"plan":{"type":"string","description":"d","enum":["a","b","a"]}`),
			"jsonSchema.properties.plan.enum[2]", `repeats "a"`},
		{"ErrEnumEmpty", withClaims(`"plan":{"type":"string","description":"d","enum":[]}`),
			"jsonSchema.properties.plan.enum", "must have 1..100 values"},
		{"ErrArrayItemsMissing", withClaims(`"roles":{"type":"array","description":"d"}`),
			"jsonSchema.properties.roles.items", "missing"},
		{"ErrArrayItemsNotObject", withClaims(`"roles":{"type":"array","description":"d","items":[]}`),
			"jsonSchema.properties.roles.items", "must be an object"},
		{"ErrArrayOfArrays", withClaims(`"roles":{"type":"array","description":"d","items":{"type":"array","description":"d","items":` + boolClaim + `}}`),
			"jsonSchema.properties.roles.items.type", `must be "boolean", "string" or "number"`},
		{"ErrObjectAdditional", withClaims(`"org":{"type":"object","description":"d","properties":{}}`),
			"jsonSchema.properties.org.additionalProperties", "missing"},
		{"ErrObjectClaim", withClaims(`"org":{"type":"object","description":"d","properties":{"x":{"type":"null","description":"d"}},"additionalProperties":false}`),
			"jsonSchema.properties.org.properties.x.type", `must be "boolean"`},
		{"ErrName", withClaims(`"is-beta":` + boolClaim), `jsonSchema.properties["is-beta"]`, "a claim name is a letter or _"},
		{"ErrNameDigit", withClaims(`"1a":` + boolClaim), `jsonSchema.properties["1a"]`, "a claim name is a letter or _"},
		{"ErrNameLong", withClaims(`"` + strings.Repeat("a", 65) + `":` + boolClaim),
			"jsonSchema.properties." + strings.Repeat("a", 65), "a claim name is"},
		{"ErrUnsignedNotObject", withClaims(`"unsigned":` + boolClaim), "jsonSchema.properties.unsigned.type", `must be "object"`},
		{"ErrUnsignedDescription", withClaims(`"unsigned":{"type":"object","description":"x","properties":{},"additionalProperties":false}`),
			"jsonSchema.properties.unsigned.description", `must be "Unsigned claims of the site visitor."`},
		{"ErrUnsignedKey", withClaims(`"unsigned":{"type":"object","description":"Unsigned claims of the site visitor.","properties":{},"additionalProperties":false,"title":"t"}`),
			"jsonSchema.properties.unsigned.title", "not allowed in unsigned"},
		{"ErrUnsignedMissing", withClaims(`"unsigned":{"type":"object","properties":{},"additionalProperties":false}`),
			"jsonSchema.properties.unsigned.description", "missing"},
		{"ErrUnsignedClaim", withUnsigned(`"x":{"type":"boolean"}`), "jsonSchema.properties.unsigned.properties.x.description", "missing"},
		{"ErrTooDeep", withUnsigned(`"a":{"type":"object","description":"d","additionalProperties":false,"properties":{` +
			`"b":{"type":"object","description":"d","additionalProperties":false,"properties":{` +
			`"c":{"type":"object","description":"d","additionalProperties":false,"properties":{"d":` + boolClaim + `}}}}}}`),
			"jsonSchema.properties.unsigned.properties.a.properties.b.properties.c.properties.d", "claims nest at most 4 names deep"},
		{"ErrTooManyInObject", withClaims(manyClaims(101)), "jsonSchema.properties", "at most 100 claims in one object"},
		{"ErrTooManyInSchema", withClaims(manyObjects(6, 90)), "jsonSchema.properties.o5.properties.c49", "at most 500 claims in a schema"},
		{"ErrFirstProblemSorted", withClaims(`"b":{"type":"x"},"a":{"type":"y"}`), "jsonSchema.properties.a.type", "must be"},
		{"ErrTooLarge", withClaims(manyObjectsLong(5, 100)), "jsonSchema", "at most 262144 bytes of JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSchemaJSON([]byte(tc.schema))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want an *Error", err)
			}
			if e.Path != tc.path || !strings.HasPrefix(e.Message, tc.message) || e.Column != 0 {
				t.Errorf("error %q (path %q), want path %q and a message starting %q", err, e.Path, tc.path, tc.message)
			}
		})
	}
}

// manyClaims returns n boolean claims c0, c1, … as members of an object.
func manyClaims(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf(`"c%d":%s`, i, boolClaim)
	}
	return strings.Join(parts, ",")
}

// manyObjects returns n object claims o0, o1, … of per boolean claims each.
func manyObjects(n, per int) string {
	return objects(n, per, "d")
}

// manyObjectsLong is manyObjects with descriptions of 512 characters.
func manyObjectsLong(n, per int) string {
	return objects(n, per, strings.Repeat("d", 512))
}

// objects returns n object claims of per claims each, all described by description.
func objects(n, per int, description string) string {
	parts := make([]string, n)
	claim := fmt.Sprintf(`{"type":"boolean","description":%q}`, description)
	for i := range parts {
		claims := make([]string, per)
		for j := range claims {
			claims[j] = fmt.Sprintf(`"c%d":%s`, j, claim)
		}
		parts[i] = fmt.Sprintf(`"o%d":{"type":"object","description":"d","additionalProperties":false,"properties":{%s}}`,
			i, strings.Join(claims, ","))
	}
	return strings.Join(parts, ",")
}

func TestCompileDraft07(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		if err := compileDraft07(decode(t, defaultJSON)); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrNotDraft07", func(t *testing.T) {
		err := compileDraft07(decode(t, `{"properties":{"a":{"type":"word"}}}`))
		var e *Error
		if !errors.As(err, &e) || e.Path != "jsonSchema.properties.a.type" || !strings.HasPrefix(e.Message, "not valid JSON Schema draft-07: ") {
			t.Errorf("error %v, want one at jsonSchema.properties.a.type", err)
		}
	})
	t.Run("ErrRemoteReference", func(t *testing.T) {
		err := compileDraft07(decode(t, `{"$ref":"file:///etc/passwd"}`))
		var e *Error
		if !errors.As(err, &e) || e.Path != "jsonSchema" || !strings.HasPrefix(e.Message, "not a JSON Schema draft-07 document: ") {
			t.Errorf("error %v, want one at jsonSchema", err)
		}
	})
}

func TestDefaultSchema(t *testing.T) {
	got, err := json.Marshal(DefaultSchema())
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, string(got), defaultJSON)
	if DefaultSchema().root.props["unsigned"].kind != kindObject {
		t.Error("the default schema has no unsigned object")
	}
}

func TestSchemaMarshalJSON(t *testing.T) {
	given := `{"$schema":"http://json-schema.org/draft-07/schema#",` + withUnsigned(`"b":` + boolClaim)[1:]
	raw := decode(t, given)
	s, err := ParseSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	raw["type"] = "changed after parsing"
	got, err := json.Marshal(map[string]any{"jsonSchema": s})
	if err != nil {
		t.Fatal(err)
	}
	assertSameJSON(t, string(got), `{"jsonSchema":`+given+`}`)
}

// assertSameJSON fails the test unless got and want are the same JSON value.
func assertSameJSON(tb testing.TB, got, want string) {
	tb.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		tb.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		tb.Errorf("got %s, want %s", got, want)
	}
}
