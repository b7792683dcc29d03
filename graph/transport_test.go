package graph

import (
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// TestWriteResponseAsEncodingJSON checks that the response writer, which copies the data as the
// executor wrote it, answers what encoding/json answered for every part of a response.
func TestWriteResponseAsEncodingJSON(t *testing.T) {
	yes := true
	responses := map[string]*graphql.Response{
		"data":             {Data: json.RawMessage(`{"space":{"id":"s1","title":"A <b> & \"c\""}}`)},
		"no data":          {Errors: gqlerror.List{{Message: "syntax error", Extensions: map[string]any{"code": "GRAPHQL_PARSE_FAILED"}}}},
		"data with errors": {Data: json.RawMessage(`{"space":null}`), Errors: gqlerror.List{{Message: "not found", Path: ast.Path{ast.PathName("space")}}}},
		"every field": {Data: json.RawMessage(`[1]`), Label: "l", Path: ast.Path{ast.PathIndex(2)}, HasNext: &yes,
			Extensions: map[string]any{"cost": 3}},
	}
	for name, resp := range responses {
		t.Run(name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			writeResponse(rec, resp)
			want, err := json.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			var got, expected any
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatalf("%s does not decode: %v", rec.Body, err)
			}
			json.Unmarshal(want, &expected)
			if !reflect.DeepEqual(got, expected) {
				t.Fatalf("wrote %s\nencoding/json %s", rec.Body, want)
			}
			if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
				t.Fatal("no nosniff")
			}
		})
	}
}
