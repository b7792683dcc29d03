package openapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/fetchtest"
	"github.com/binderyhq/bindery/internal/openapi"
)

// petstore is an OpenAPI 3.1 document whose schemas live in files next to it.
const petstore = `openapi: 3.1.0
info: {title: Petstore, version: "1.0"}
paths:
  /pets:
    get:
      responses:
        200:
          description: The pets
          content:
            application/json:
              schema: {$ref: "schemas/pets.yaml#/Pets"}
`

const petsSchemas = `Pets:
  type: array
  items: {$ref: "#/Pet"}
Pet:
  type: object
  properties:
    name: {type: string}
    owner: {$ref: "../../people.json#/Person"}
`

const people = `{"Person": {"type": "object", "properties": {"name": {"type": "string"}}}}`

// docServer serves files by path on 127.0.0.2 and returns its URL and a client allowed to fetch
// from it (and only it, of the private addresses).
func docServer(t testing.TB, files map[string]string, extra map[string]http.HandlerFunc) (string, *fetch.Client) {
	t.Helper()
	mux := http.NewServeMux()
	for p, body := range files {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) })
	}
	for p, h := range extra {
		mux.HandleFunc(p, h)
	}
	s := fetchtest.Serve(t, "127.0.0.2", mux)
	allow, err := fetch.ParseAllow("127.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	return s.URL, fetch.New(allow)
}

var quick = openapi.Limits{MaxBytes: 1 << 20, MaxFiles: 5, Timeout: 2 * time.Second}

func TestFromURL(t *testing.T) {
	base, client := docServer(t, map[string]string{
		"/api/openapi.yaml": petstore, "/api/schemas/pets.yaml": petsSchemas, "/people.json": people,
	}, nil)
	d, err := openapi.FromURL(context.Background(), client, base+"/api/openapi.yaml", quick)
	if err != nil {
		t.Fatal(err)
	}
	if d.Format != "yaml" || d.Version != "3.1.0" || string(d.Raw) != petstore || d.URL != base+"/api/openapi.yaml" {
		t.Fatalf("unexpected document %+v", d)
	}
	var keys []string
	for k := range d.Filesystem {
		keys = append(keys, k)
	}
	want := map[string]bool{"openapi.yaml": true, "schemas/pets.yaml": true, base + "/people.json": true}
	if len(keys) != len(want) {
		t.Fatalf("filesystem keys %v, want %v", keys, want)
	}
	for _, k := range keys {
		if !want[k] {
			t.Fatalf("filesystem keys %v, want %v", keys, want)
		}
	}
	var root map[string]any
	if err := json.Unmarshal(d.Filesystem["openapi.yaml"], &root); err != nil || root["openapi"] != "3.1.0" {
		t.Fatalf("root as JSON: %v %s", err, d.Filesystem["openapi.yaml"])
	}
	again, err := openapi.FromURL(context.Background(), client, base+"/api/openapi.yaml", quick)
	if err != nil || again.Digest != d.Digest {
		t.Fatalf("the same content gave another digest: %v", err)
	}
}

func TestFromText(t *testing.T) {
	t.Run("OKSwagger2", func(t *testing.T) {
		d, err := openapi.FromText(context.Background(), []byte(`{"swagger":"2.0","info":{"title":"T","version":"1"},"paths":{}}`), quick)
		if err != nil || d.Format != "json" || d.Filesystem["openapi.json"] == nil {
			t.Fatalf("%v %+v", err, d)
		}
	})
	t.Run("ErrExternalRef", func(t *testing.T) {
		wantCode(t, openapi.ParseError, "self-contained")(openapi.FromText(context.Background(), []byte(petstore), quick))
	})
}

// wantCode checks that processing failed with code and a message containing part.
func wantCode(t *testing.T, code openapi.Code, part string) func(*openapi.Document, error) {
	return func(_ *openapi.Document, err error) {
		t.Helper()
		var e *openapi.Error
		if !errors.As(err, &e) || e.Code != code || !strings.Contains(e.Message, part) {
			t.Fatalf("want %s containing %q, got %v", code, part, err)
		}
	}
}

func TestBadDocuments(t *testing.T) {
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
	huge := func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("openapi: 3.0.0\n# " + strings.Repeat("x", 2<<20)))
	}
	base, client := docServer(t, map[string]string{
		"/invalid.yaml":  "openapi: [3.0\n  info: {",
		"/notopenapi":    "name: a YAML file\nitems: [1, 2]\n",
		"/invalid31":     "openapi: 3.1.0\ninfo: {title: T}\npaths: {}\n",
		"/loop.yaml":     "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: '#/components/schemas/B'}\n    B: {$ref: '#/components/schemas/A'}\n",
		"/fileloop.yaml": "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: 'b.yaml#/B'}\n",
		"/b.yaml":        "B: {$ref: 'c.yaml#/C'}\n",
		"/c.yaml":        "C: {$ref: 'b.yaml#/B'}\n",
		"/private.yaml":  "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: 'http://127.0.0.1:1/x.yaml#/A'}\n",
		"/metadata.yaml": "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: 'http://169.254.169.254/latest/meta-data#/A'}\n",
		"/fileref.yaml":  "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: 'file:///etc/passwd#/A'}\n",
		"/gone.yaml":     "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: 'missing.yaml#/A'}\n",
	}, map[string]http.HandlerFunc{"/slow": slow, "/huge": huge})
	cases := []struct {
		name, url string
		code      openapi.Code
		part      string
	}{
		{"ErrUnreachable", "http://127.0.0.2:1/openapi.yaml", openapi.FetchError, "could not be fetched"},
		{"ErrNotFound", base + "/nope", openapi.FetchError, "HTTP 404"},
		{"ErrSlow", base + "/slow", openapi.FetchTimeout, "took too long"},
		{"ErrHuge", base + "/huge", openapi.FetchError, "more than"},
		{"ErrPrivate", "http://127.0.0.1:1/openapi.yaml", openapi.FetchError, "not fetched"},
		{"ErrMetadata", "http://169.254.169.254/latest/meta-data", openapi.FetchError, "not fetched"},
		{"ErrInvalidYAML", base + "/invalid.yaml", openapi.ParseError, "neither JSON nor YAML"},
		{"ErrNotOpenAPI", base + "/notopenapi", openapi.ParseError, "not an OpenAPI document"},
		{"ErrInvalidOpenAPI", base + "/invalid31", openapi.ParseError, "not valid OpenAPI"},
		{"ErrRefLoop", base + "/loop.yaml", openapi.ParseError, ""},
		{"ErrFileRefLoop", base + "/fileloop.yaml", openapi.ParseError, ""},
		{"ErrRefToPrivate", base + "/private.yaml", openapi.FetchError, "not fetched"},
		{"ErrRefToMetadata", base + "/metadata.yaml", openapi.FetchError, "not fetched"},
		{"ErrRefToFile", base + "/fileref.yaml", openapi.FetchError, "not fetched"},
		{"ErrRefMissing", base + "/gone.yaml", openapi.FetchError, "HTTP 404"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			wantCode(t, c.code, c.part)(openapi.FromURL(context.Background(), client, c.url, quick))
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("took %s", d)
			}
		})
	}
}

// FuzzFromText processes arbitrary text: it must end in a document or an *Error, never a panic or
// another error.
func FuzzFromText(f *testing.F) {
	f.Add([]byte(petstore))
	f.Add([]byte(`{"swagger":"2.0","info":{"title":"T","version":"1"},"paths":{"/a":{"get":{"responses":{"200":{"description":"ok"}}}}}}`))
	f.Add([]byte("openapi: 3.1.0\ninfo: {title: T, version: '1'}\ncomponents: {schemas: {A: {$ref: '#/components/schemas/A'}}}\n"))
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Add([]byte("openapi: 3.0.0\n200: x\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		d, err := openapi.FromText(context.Background(), text, quick)
		var e *openapi.Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("an error without a code: %v", err)
		}
		if err == nil && (d.Filesystem["openapi."+d.Format] == nil || d.Digest == "") {
			t.Fatalf("a document without its file: %+v", d)
		}
	})
}
