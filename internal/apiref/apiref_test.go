package apiref

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// petstore is an OpenAPI 3 document with a path parameter of the path item, a request body and
// responses by $ref, a recursive schema and a schema in another file.
const petstore = `{
  "openapi": "3.1.0",
  "info": {"title": "Petstore", "version": "1"},
  "servers": [{"url": "https://pets.example.com/v1"}],
  "webhooks": {"newPet": {"post": {"summary": "A pet was added", "requestBody": {"$ref": "#/components/requestBodies/Pet"},
    "responses": {"200": {"description": "Received"}}}}},
  "paths": {
    "/pets/{petId}": {
      "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "integer", "format": "int64"}}],
      "put": {
        "summary": "Update a pet",
        "description": "Changes a **pet**.",
        "parameters": [
          {"$ref": "#/components/parameters/Trace"},
          {"name": "dry", "in": "query", "schema": {"type": ["boolean", "null"]}}
        ],
        "requestBody": {"$ref": "#/components/requestBodies/Pet"},
        "responses": {
          "default": {"description": "An error", "content": {"application/json": {"schema": {"$ref": "errors.json#/Error"}}}},
          "200": {"description": "The pet", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"},
            "example": {"id": 1, "name": "Rex"}}}}
        }
      }
    }
  },
  "components": {
    "parameters": {"Trace": {"name": "X-Trace", "in": "header", "required": true, "schema": {"type": "string"}}},
    "requestBodies": {"Pet": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}},
    "schemas": {
      "Pet": {"type": "object", "required": ["name"], "properties": {
        "id": {"type": "integer", "readOnly": true},
        "name": {"type": "string", "example": "Rex"},
        "kind": {"type": "string", "enum": ["dog", "cat"]},
        "parent": {"$ref": "#/components/schemas/Pet"},
        "tags": {"type": "array", "items": {"$ref": "#/components/schemas/Tag"}}
      }},
      "Tag": {"oneOf": [{"type": "string"}, {"$ref": "#/components/schemas/Pet"}]}
    }
  }
}`

const errorsFile = `{"Error": {"type": "object", "properties": {"message": {"type": "string"}}}}`

func filesystem(t testing.TB, files map[string]string) []byte {
	t.Helper()
	raw := map[string]json.RawMessage{}
	for name, f := range files {
		raw[name] = json.RawMessage(f)
	}
	b, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustSpec(t testing.TB, files map[string]string, entry string) *Spec {
	t.Helper()
	s, ok := NewSpec(filesystem(t, files), entry)
	if !ok {
		t.Fatal("NewSpec refused the filesystem")
	}
	return s
}

// TestOperation reads an operation whole: parameters of the path item and of the operation, by
// $ref; the request body and responses by $ref, one in another file; a recursive schema cut
// where it recurs; examples given and made; the curl sample.
func TestOperation(t *testing.T) {
	s := mustSpec(t, map[string]string{"openapi.json": petstore, "errors.json": errorsFile}, "openapi.json")
	op, err := s.Operation("/pets/{petId}", "PUT")
	if err != nil {
		t.Fatal(err)
	}
	if op.Method != "PUT" || op.Summary != "Update a pet" || op.Server != "https://pets.example.com/v1" {
		t.Errorf("operation = %+v", op)
	}
	var params []string
	for _, p := range op.Parameters {
		params = append(params, p.In+":"+p.Name+":"+p.Schema.Type)
	}
	if got := strings.Join(params, ","); got != "path:petId:integer,header:X-Trace:string,query:dry:boolean | null" {
		t.Errorf("parameters = %s", got)
	}
	pet := op.RequestBody.Content[0].Schema
	if !op.RequestBody.Required || pet.Name != "Pet" || len(pet.Properties) != 5 || !pet.Properties[1].Required {
		t.Fatalf("request body schema = %+v", pet)
	}
	if parent := pet.Properties[3].Schema; parent.Name != "Pet" || parent.Cut != "cycle" {
		t.Errorf("the recursive property is %+v, want Pet cut as a cycle", parent)
	}
	tag := pet.Properties[4].Schema.Items
	if tag.Name != "Tag" || tag.Combinator != "oneOf" || tag.Variants[1].Cut != "cycle" {
		t.Errorf("tags' items = %+v", tag)
	}
	if len(op.Responses) != 2 || op.Responses[0].Status != "200" || op.Responses[1].Status != "default" {
		t.Fatalf("responses = %+v", op.Responses)
	}
	if e := op.Responses[1].Content[0].Schema; e.Name != "Error" || e.Properties[0].Name != "message" {
		t.Errorf("the error response's schema (errors.json) = %+v", e)
	}
	if ex := op.Responses[0].Content[0].Example; ex != "{\n  \"id\": 1,\n  \"name\": \"Rex\"\n}" {
		t.Errorf("the given example = %q", ex)
	}
	if ex := op.RequestBody.Content[0].Example; !strings.Contains(ex, `"name": "Rex"`) || !strings.Contains(ex, `"kind": "dog"`) {
		t.Errorf("the example made from the schema = %s", ex)
	}
	want := "curl -X PUT 'https://pets.example.com/v1/pets/{petId}' \\\n  -H 'X-Trace: {X-Trace}' \\\n  -H 'Content-Type: application/json' \\\n  --data '{"
	if curl := op.Curl(); !strings.HasPrefix(curl, want) {
		t.Errorf("curl = %s", curl)
	}
}

// TestWebhookAndSchemas reads a webhook by name, and schemas by name (one the document lacks
// named as missing).
func TestWebhookAndSchemas(t *testing.T) {
	s := mustSpec(t, map[string]string{"openapi.json": petstore, "errors.json": errorsFile}, "openapi.json")
	hook, err := s.Webhook("newPet", "post")
	if err != nil || hook.Webhook != "newPet" || hook.Summary != "A pet was added" || hook.RequestBody.Content[0].Schema.Name != "Pet" {
		t.Fatalf("webhook = %+v, %v", hook, err)
	}
	if _, err := s.Webhook("gone", "post"); !errors.Is(err, ErrNoWebhook) {
		t.Errorf("a missing webhook: %v", err)
	}
	schemas := s.Schemas([]string{"Pet", "Nope"})
	if len(schemas) != 2 || schemas[0].Name != "Pet" || len(schemas[0].Properties) != 5 || schemas[1].Cut != "missing" {
		t.Errorf("schemas = %+v %+v", schemas[0], schemas[1])
	}
}

// TestSwagger2 reads a Swagger 2 operation: the body parameter is the request body, the host and
// base path the server, a parameter's type its own.
func TestSwagger2(t *testing.T) {
	doc := `{"swagger": "2.0", "host": "api.example.com", "basePath": "/v2", "schemes": ["https"],
	  "paths": {"/pets": {"post": {"parameters": [
	    {"name": "limit", "in": "query", "type": "integer"},
	    {"name": "pet", "in": "body", "required": true, "schema": {"$ref": "#/definitions/Pet"}}],
	    "responses": {"201": {"description": "Created", "schema": {"$ref": "#/definitions/Pet"}}}}}},
	  "definitions": {"Pet": {"type": "object", "properties": {"name": {"type": "string"}}}}}`
	op, err := mustSpec(t, map[string]string{"swagger.json": doc}, "swagger.json").Operation("/pets", "post")
	if err != nil {
		t.Fatal(err)
	}
	if op.Server != "https://api.example.com/v2" || len(op.Parameters) != 1 || op.Parameters[0].Schema.Type != "integer" {
		t.Errorf("operation = %+v", op)
	}
	if op.RequestBody == nil || op.RequestBody.Content[0].Schema.Name != "Pet" || op.Responses[0].Content[0].Schema.Name != "Pet" {
		t.Errorf("body and response = %+v %+v", op.RequestBody, op.Responses)
	}
}

// TestHostile: what a page or a document may hold costs bounded work and answers an error, never
// a panic.
func TestHostile(t *testing.T) {
	s := mustSpec(t, map[string]string{"openapi.json": petstore}, "openapi.json")
	for _, c := range []struct {
		name, path, method string
		want               error
	}{
		{"no path", "/nothing", "get", ErrNoPath},
		{"huge path", "/" + strings.Repeat("a", 1<<20), "get", ErrNoPath},
		{"pointer syntax in the path", "/pets/{petId}/../~1", "get", ErrNoPath},
		{"method not in the spec", "/pets/{petId}", "get", ErrNoMethod},
		{"not a method", "/pets/{petId}", "parameters", ErrNoMethod},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := s.Operation(c.path, c.method); !errors.Is(err, c.want) {
				t.Errorf("error %v, want %v", err, c.want)
			}
		})
	}
	t.Run("refs in a cycle of refs", func(t *testing.T) {
		doc := `{"openapi":"3.0.0","paths":{"/a":{"get":{"responses":{"200":{"$ref":"#/components/responses/A"}}}}},
		  "components":{"responses":{"A":{"$ref":"#/components/responses/B"},"B":{"$ref":"#/components/responses/A"}}}}`
		if _, err := mustSpec(t, map[string]string{"o.json": doc}, "o.json").Operation("/a", "get"); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("schemas growing exponentially", func(t *testing.T) {
		var defs []string
		for i := range 30 {
			defs = append(defs, `"S`+itoa(i)+`":{"type":"object","properties":{"a":{"$ref":"#/components/schemas/S`+itoa(i+1)+
				`"},"b":{"$ref":"#/components/schemas/S`+itoa(i+1)+`"}}}`)
		}
		doc := `{"openapi":"3.0.0","paths":{"/a":{"get":{"responses":{"200":{"description":"","content":{"application/json":
		  {"schema":{"$ref":"#/components/schemas/S0"}}}}}}}},"components":{"schemas":{` + strings.Join(defs, ",") + `}}}`
		op, err := mustSpec(t, map[string]string{"o.json": doc}, "o.json").Operation("/a", "get")
		if err != nil {
			t.Fatal(err)
		}
		if n := count(op.Responses[0].Content[0].Schema); n > maxSchemas+1 {
			t.Errorf("%d schemas expanded, more than %d", n, maxSchemas)
		}
	})
	t.Run("one long description referenced everywhere", func(t *testing.T) {
		long := strings.Repeat("word ", 13_000) // 65 KB, clipped to 64 KB
		var props []string
		for i := range 1000 {
			props = append(props, `"p`+itoa(i)+`":{"$ref":"#/components/schemas/Long"}`)
		}
		doc := `{"openapi":"3.0.0","paths":{"/a":{"get":{"responses":{"200":{"description":"","content":{"application/json":
		  {"schema":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}}}}}}},
		  "components":{"schemas":{"Long":{"type":"string","description":"` + long + `","example":"` + long + `"}}}}`
		op, err := mustSpec(t, map[string]string{"o.json": doc}, "o.json").Operation("/a", "get")
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, p := range op.Responses[0].Content[0].Schema.Properties {
			total += len(p.Schema.Description) + len(p.Schema.Example)
		}
		if total+len(op.Responses[0].Content[0].Example) > maxTotalText {
			t.Errorf("%d bytes of text, more than %d", total, maxTotalText)
		}
	})
	t.Run("not JSON", func(t *testing.T) {
		if _, ok := NewSpec([]byte(`{"o.json": {"paths": [}`), "o.json"); ok {
			t.Error("a filesystem that is not JSON is read")
		}
	})
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func count(s *Schema) int {
	if s == nil {
		return 0
	}
	n := 1 + count(s.Items)
	for _, p := range s.Properties {
		n += count(p.Schema)
	}
	for _, v := range s.Variants {
		n += count(v)
	}
	return n
}

// FuzzScan splits any bytes as objects and arrays: no panic, and every member's value is a slice
// of what was split.
func FuzzScan(f *testing.F) {
	f.Add(`{"a": [1, {"b": "c\"}"}], "d": null}`)
	f.Add(`[{"$ref": "#/x"}, "]", 2]`)
	f.Fuzz(func(t *testing.T, raw string) {
		if list, ok := members([]byte(raw)); ok {
			for _, m := range list {
				if !strings.Contains(raw, string(m.value)) {
					t.Fatalf("member %q is not part of %q", m.value, raw)
				}
			}
		}
		elements([]byte(raw))
	})
}
