package apidoc

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestBuild(t *testing.T) {
	own := map[string]Operation{"GET /mine": {ID: "getMine", Tag: "mine", Summary: "Mine", Status: 200, Response: SchemaFor[int]()}}
	t.Run("OK", func(t *testing.T) {
		out, err := Build([]Route{{"GET", "/mine"}, {"GET", "/orgs/{organizationId}/members"}}, own, Info{Version: "1", ServerURL: "http://h/v1"})
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Paths map[string]map[string]struct {
				OperationID string         `json:"operationId"`
				Responses   map[string]any `json:"responses"`
				Security    []any          `json:"security"`
			}
		}
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatal(err)
		}
		members := doc.Paths["/orgs/{organizationId}/members"]["get"]
		if members.OperationID != "listMembersInOrganizationById" || members.Responses["default"] == nil || members.Security != nil {
			t.Errorf("the reference's operation as served: %+v", members)
		}
		if doc.Paths["/mine"]["get"].OperationID != "getMine" {
			t.Errorf("own operation: %+v", doc.Paths["/mine"])
		}
	})
	t.Run("ErrUndescribedRoute", func(t *testing.T) {
		_, err := Build([]Route{{"GET", "/nothing/{id}"}}, nil, Info{})
		if err == nil || !strings.Contains(err.Error(), "GET /nothing/{id} has no description") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("ErrStaleEntry", func(t *testing.T) {
		_, err := Build(nil, own, Info{})
		if err == nil || !strings.Contains(err.Error(), "GET /mine is described but the router has no such route") {
			t.Errorf("err = %v", err)
		}
	})
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
		}}
	if !reflect.DeepEqual(got, want) {
		a, _ := json.Marshal(got)
		t.Errorf("SchemaFor[wire] = %s", a)
	}
	req := RequestSchemaFor[wire]("id")
	if !reflect.DeepEqual(req["required"], []any{"id"}) || !reflect.DeepEqual(req["properties"].(Schema)["optional"], Schema{"type": []any{"string", "null"}}) {
		a, _ := json.Marshal(req)
		t.Errorf("RequestSchemaFor[wire] = %s", a)
	}
}

func TestPageEscapes(t *testing.T) {
	own := map[string]Operation{"GET /x": {ID: "x", Tag: "<b>t</b>", Summary: "<script>alert(1)</script>", Status: 204}}
	doc, err := Build([]Route{{"GET", "/x"}}, own, Info{Version: "1"})
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
