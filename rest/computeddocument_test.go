package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestComputedDocument: getComputedDocument computes the document of one operation of one of the
// organization's OpenAPI specs, the same on REST and GraphQL (the harness validates the REST
// answer against the reference's JSONDocument); the sources Bindery does not compute are 400
// naming them; another organization's space is 404.
func TestComputedDocument(t *testing.T) {
	f := newContentFixture(t)
	crWant(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/openapi", map[string]any{"slug": "petstore", "source": map[string]any{
		"text": `{"openapi":"3.0.3","info":{"title":"Pets","version":"1"},"paths":{"/pets":{"get":{"responses":{"200":{"description":"ok"}}}}}}`}}),
		http.StatusCreated)
	source := func(props map[string]any, spec string) map[string]any {
		return map[string]any{"type": "builtin:openapi", "props": props,
			"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": spec}}}}
	}
	operation := source(map[string]any{"doc": "operation", "page": "/pets", "method": "get"}, "petstore")
	path := f.spacePath("/content/computed/document")

	r := f.e.Do(f.reader, "POST", path, map[string]any{"source": operation, "seed": "page-1"})
	crWant(t, r, http.StatusOK)
	got := compact(t, r.Body)
	if !strings.Contains(got, `"type":"openapi-operation"`) || !strings.Contains(got, `"data":{"method":"get","path":"/pets","ref":{"kind":"openapi","spec":"petstore"}}`) {
		t.Errorf("document %s", got)
	}
	if again := compact(t, f.e.Do(f.reader, "POST", path, map[string]any{"source": operation, "seed": "page-1"}).Body); again != got {
		t.Errorf("the same seed computes another document: %s", again)
	}
	var d struct {
		Space struct{ ComputedDocument json.RawMessage }
	}
	gqlOK(t, f.e.GraphQL(f.reader, `query($s: ID!, $src: JSON!) { space(id: $s) { computedDocument(source: $src, seed: "page-1") } }`,
		map[string]any{"s": f.space, "src": operation}), &d)
	if gql := compact(t, d.Space.ComputedDocument); gql != got {
		t.Errorf("GraphQL %s\nREST %s", gql, got)
	}

	for name, c := range map[string]struct {
		body  map[string]any
		words []string
	}{
		"ErrModels":      {map[string]any{"source": source(map[string]any{"doc": "models"}, "petstore"), "seed": "s"}, []string{"source.props.doc", `"models"`}},
		"ErrTranslation": {map[string]any{"source": map[string]any{"type": "builtin:translation", "props": map[string]any{}}, "seed": "s"}, []string{"source.type", "builtin:translation"}},
		"ErrIntegration": {map[string]any{"source": map[string]any{"type": "integration:app:x", "props": map[string]any{}}, "seed": "s"}, []string{"source.type", "integration:app:x"}},
		"ErrMethod":      {map[string]any{"source": source(map[string]any{"doc": "operation", "page": "/pets", "method": "hook"}, "petstore"), "seed": "s"}, []string{"source.props.method", "hook"}},
		"ErrNoSpec":      {map[string]any{"source": source(map[string]any{"doc": "operation", "page": "/pets", "method": "get"}, "nope"), "seed": "s"}, []string{"source.dependencies.spec", "nope"}},
		"ErrNoSeed":      {map[string]any{"source": operation}, []string{"seed"}},
		"ErrNoSource":    {map[string]any{"seed": "s"}, []string{"source"}},
		"ErrSourceType":  {map[string]any{"source": []any{1}, "seed": "s"}, []string{"source"}},
	} {
		t.Run(name, func(t *testing.T) {
			crWantError(t, f.e.Do(f.reader, "POST", path, c.body), http.StatusBadRequest, c.words...)
		})
	}
	t.Run("ErrOutsider", func(t *testing.T) {
		crWantError(t, f.e.Do(f.outsider, "POST", path, map[string]any{"source": operation, "seed": "s"}), http.StatusNotFound)
	})
}
