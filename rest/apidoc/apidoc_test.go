package apidoc

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

type answer struct {
	ID    string  `json:"id"`
	Child *answer `json:"child,omitempty"`
}

type body struct {
	Name *string `json:"name"`
}

func TestBuild(t *testing.T) {
	ops := []Operation{
		{Route: "GET /mine", ID: "getMine", Tag: "mine", Summary: "Mine", Status: 200, Response: reflect.TypeFor[List[answer]]()},
		{Route: "POST /mine", ID: "postMine", Tag: "mine", Summary: "Make", Status: 201, Request: reflect.TypeFor[body](),
			Required: []string{"name"}, Response: reflect.TypeFor[answer](), Bodiless: []int{204}},
	}
	t.Run("OK", func(t *testing.T) {
		out, err := Build([]Route{{"GET", "/mine"}, {"POST", "/mine"}}, ops, Info{Version: "1", ServerURL: "http://h/v1"})
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Paths      map[string]map[string]map[string]any
			Components struct{ Schemas map[string]any }
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(doc.Paths["/mine"]["post"])
		for _, want := range []string{`"operationId":"postMine"`, `"201":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/answer"}}}`,
			`"204":{"description":"No Content"}`, `"required":["name"]`, `"default":{"$ref":"#/components/responses/Failure"}`} {
			if !strings.Contains(string(got), want) {
				t.Errorf("POST /mine has no %s: %s", want, got)
			}
		}
		schema, _ := json.Marshal(doc.Components.Schemas["answer"])
		if !strings.Contains(string(schema), `"child":{"$ref":"#/components/schemas/answer"}`) {
			t.Errorf("a type within itself is its $ref: %s", schema)
		}
	})
	t.Run("ErrUndescribedRoute", func(t *testing.T) {
		_, err := Build([]Route{{"GET", "/nothing/{id}"}}, nil, Info{})
		if err == nil || !strings.Contains(err.Error(), "GET /nothing/{id} has no description") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("ErrStaleEntry", func(t *testing.T) {
		_, err := Build(nil, ops, Info{})
		if err == nil || !strings.Contains(err.Error(), "GET /mine is described but the router has no such route") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("ErrDescribedTwice", func(t *testing.T) {
		_, err := Build([]Route{{"GET", "/mine"}}, []Operation{ops[0], ops[0]}, Info{})
		if err == nil || !strings.Contains(err.Error(), "GET /mine is described twice") {
			t.Errorf("err = %v", err)
		}
	})
}

// List is a generic wire type: described in place, its name holding package paths.
type List[T any] struct {
	Items []T `json:"items"`
}

type inner struct {
	Name string `json:"name"`
}

type wire struct {
	inner
	ID       string            `json:"id"`
	Note     *string           `json:"note"`
	Optional *string           `json:"optional,omitempty"`
	At       time.Time         `json:"at"`
	Tags     []string          `json:"tags,omitempty"`
	Counts   map[string]int    `json:"counts"`
	Raw      json.RawMessage   `json:"raw"`
	Self     *wire             `json:"self,omitempty"`
	Hidden   string            `json:"-"`
	Custom   custom            `json:"custom"`
	Items    []map[string]bool `json:"items"`
	Doc      string            `json:"doc,omitempty" doc:"What it is."`
}

type custom struct{}

func (custom) JSONSchema() Schema { return Schema{"type": "string", "enum": []any{"a"}} }

func TestSchemaOf(t *testing.T) {
	got := SchemaFor[wire]()
	want := Schema{"type": "object",
		"required": []any{"name", "id", "note", "at", "counts", "raw", "custom", "items"},
		"properties": Schema{
			"name":     Schema{"type": "string"},
			"id":       Schema{"type": "string"},
			"note":     Schema{"type": []any{"string", "null"}},
			"optional": Schema{"type": "string"},
			"at":       Schema{"type": "string", "format": "date-time"},
			"tags":     Schema{"type": "array", "items": Schema{"type": "string"}},
			"counts":   Schema{"type": "object", "additionalProperties": Schema{"type": "integer"}},
			"raw":      Schema{},
			"self":     Schema{"type": "object"},
			"custom":   Schema{"type": "string", "enum": []any{"a"}},
			"items":    Schema{"type": "array", "items": Schema{"type": "object", "additionalProperties": Schema{"type": "boolean"}}},
			"doc":      Schema{"type": "string", "description": "What it is."},
		}}
	if !reflect.DeepEqual(got, want) {
		a, _ := json.Marshal(got)
		t.Errorf("SchemaFor[wire] = %s", a)
	}
	req := RequestSchemaOf(reflect.TypeFor[wire](), "id")
	if !reflect.DeepEqual(req["required"], []any{"id"}) || !reflect.DeepEqual(req["properties"].(Schema)["optional"], Schema{"type": []any{"string", "null"}}) {
		a, _ := json.Marshal(req)
		t.Errorf("RequestSchemaOf(wire) = %s", a)
	}
}

func TestPageEscapes(t *testing.T) {
	ops := []Operation{{Route: "GET /x", ID: "x", Tag: "<b>t</b>", Summary: "<script>alert(1)</script>", Status: 204}}
	doc, err := Build([]Route{{"GET", "/x"}}, ops, Info{Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	page, err := Page(doc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "<script>") || strings.Contains(string(page), "<b>t") {
		t.Errorf("the page does not escape the document's text")
	}
}
