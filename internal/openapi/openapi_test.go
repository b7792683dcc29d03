package openapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
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

// swagger is a Swagger 2.0 document whose definitions live in a file next to it.
const swagger = `swagger: "2.0"
info: {title: Zoo, version: "2"}
basePath: /v2
paths:
  /animals/pets: {get: {responses: {
    '200': {description: The pets, schema: {$ref: "#/definitions/Pets"}},
    default: {description: An error, schema: {$ref: "defs/errors.yaml#/Error"}}}}}
definitions:
  Pets:
    type: array
    items: {$ref: "defs/pet.yaml#/Pet"}
`

func TestSwaggerExternalRefs(t *testing.T) {
	base, client := docServer(t, map[string]string{
		"/api/swagger.yaml":     swagger,
		"/api/defs/pet.yaml":    "Pet:\n  type: object\n  properties:\n    name: {type: string}\n    owner: {$ref: '../../people.json#/Person'}\n",
		"/api/defs/errors.yaml": "Error: {type: object, properties: {message: {type: string}}}\n",
		"/people.json":          people,
		"/api/private.yaml":     strings.Replace(swagger, "defs/errors.yaml", "http://127.0.0.1:1/errors.yaml", 1),
		"/api/file.yaml":        strings.Replace(swagger, "defs/errors.yaml", "file:///etc/passwd", 1),
		"/missing.yaml":         swagger,
	}, nil)
	t.Run("OK", func(t *testing.T) {
		d, err := openapi.FromURL(context.Background(), client, base+"/api/swagger.yaml", quick)
		if err != nil {
			t.Fatal(err)
		}
		if d.Version != "2.0" || len(d.Filesystem) != 4 || d.Filesystem["defs/pet.yaml"] == nil ||
			d.Filesystem["defs/errors.yaml"] == nil || d.Filesystem[base+"/people.json"] == nil {
			t.Fatalf("filesystem %v", keys(d.Filesystem))
		}
	})
	t.Run("ErrRefToPrivate", func(t *testing.T) {
		wantCode(t, openapi.FetchError, "not fetched")(openapi.FromURL(context.Background(), client, base+"/api/private.yaml", quick))
	})
	t.Run("ErrRefToFile", func(t *testing.T) {
		wantCode(t, openapi.FetchError, "not fetched")(openapi.FromURL(context.Background(), client, base+"/api/file.yaml", quick))
	})
	t.Run("ErrRefMissing", func(t *testing.T) {
		wantCode(t, openapi.FetchError, "HTTP 404")(openapi.FromURL(context.Background(), client, base+"/missing.yaml", quick))
	})
	t.Run("ErrText", func(t *testing.T) {
		wantCode(t, openapi.ParseError, "self-contained")(openapi.FromText(context.Background(), []byte(swagger), quick))
	})
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// TestRefBackToEntry checks that a file referring back to the entry document finds it rather
// than fetching it again.
func TestRefBackToEntry(t *testing.T) {
	doc := strings.Replace(petstore, "schemas/pets.yaml#/Pets", "schemas/back.yaml#/Pets", 1) +
		"components:\n  schemas:\n    Pet: {type: object, properties: {name: {type: string}}}\n"
	var entryFetches atomic.Int32
	base, client := docServer(t, map[string]string{
		"/api/schemas/back.yaml": "Pets: {type: array, items: {$ref: '../openapi.yaml#/components/schemas/Pet'}}\n",
	}, map[string]http.HandlerFunc{"/api/openapi.yaml": func(w http.ResponseWriter, r *http.Request) {
		entryFetches.Add(1)
		w.Write([]byte(doc))
	}})
	d, err := openapi.FromURL(context.Background(), client, base+"/api/openapi.yaml", quick)
	if err != nil {
		t.Fatal(err)
	}
	if n := entryFetches.Load(); n != 1 || len(d.Filesystem) != 2 {
		t.Fatalf("the entry document was fetched %d times; filesystem %v", n, keys(d.Filesystem))
	}
}

// TestEveryValidationProblemIsAWarning checks that an invalid document that can be read is kept,
// with each of its problems as a warning; among them two paths differing only by a parameter's
// name, which renderers accept.
func TestEveryValidationProblemIsAWarning(t *testing.T) {
	const invalid = `openapi: 3.0.3
info: {title: T}
paths:
  /a/{id}:
    get:
      responses: {'200': {description: ok}}
  /b:
    get:
      parameters: [{name: q, in: nowhere}]
      responses: {'200': {description: ok}}
  /a/{name}:
    get:
      responses: {'200': {description: ok}}
components:
  schemas:
    A: {type: nonsense}
`
	d, err := openapi.FromText(context.Background(), []byte(invalid), quick)
	if err != nil {
		t.Fatal(err)
	}
	if d.WarningCount != 5 || len(d.Warnings) != 5 {
		t.Fatalf("want 5 warnings, got %d: %q", d.WarningCount, d.Warnings)
	}
	for i, part := range []string{`schema "A"`, "info", "/a/{id}", "conflicting paths", "/b"} {
		if !strings.Contains(d.Warnings[i], part) {
			t.Fatalf("warning %d %q does not name %s", i, d.Warnings[i], part)
		}
	}
	t.Run("Bounded", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n")
		long := strings.Repeat("x", 2000)
		for i := range 80 {
			fmt.Fprintf(&b, "    S%02d%s: {type: nonsense}\n", i, long)
		}
		d, err := openapi.FromText(context.Background(), []byte(b.String()), quick)
		if err != nil || d.WarningCount != 80 || len(d.Warnings) != openapi.MaxErrors {
			t.Fatalf("want %d of 80 warnings, got %v", openapi.MaxErrors, err)
		}
		for _, m := range d.Warnings {
			if n := utf8.RuneCountInString(m); n > 501 {
				t.Fatalf("a problem of %d characters", n)
			}
		}
	})
}

// TestGateBoundsProcessings runs processings that share a gate with room for one document and
// its files: they take turns, and a document larger than the gate fails.
func TestGateBoundsProcessings(t *testing.T) {
	base, client := docServer(t, map[string]string{
		"/api/openapi.yaml": petstore, "/api/schemas/pets.yaml": petsSchemas, "/people.json": people,
	}, nil)
	l := quick
	l.Gate = openapi.NewGate(int64(len(petstore) + len(petsSchemas) + len(people)))
	errs := make(chan error, 4)
	for range cap(errs) {
		go func() {
			_, err := openapi.FromURL(context.Background(), client, base+"/api/openapi.yaml", l)
			errs <- err
		}()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	t.Run("ErrLargerThanGate", func(t *testing.T) {
		l.Gate = openapi.NewGate(100)
		wantCode(t, openapi.FetchError, "more than 100 bytes")(openapi.FromURL(context.Background(), client, base+"/api/openapi.yaml", l))
		wantCode(t, openapi.FetchError, "more than 100 bytes")(openapi.FromText(context.Background(), []byte(petstore), l))
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
	f.Add([]byte(`{"openapi":"3.0.0","info":{"title":"T","version":"1"},"paths":{},"components":{"schemas":{"A":{"properties":{"a":{"maxLength":18446744073709551615}}}}}}`))
	f.Add([]byte("openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\nx-t: 2001-12-14\nx-b: !!binary aGk=\nx-n: .inf\n"))
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

// TestNotShaped: a field of the wrong type stops decoding, and the problem names where it is.
func TestNotShaped(t *testing.T) {
	head := "openapi: 3.0.0\ninfo: {title: T, version: '1'}\n"
	for doc, part := range map[string]string{
		head + "paths: {}\ncomponents: {schemas: {A: {type: string, minLength: -1}}}\n": `components.schemas."A": json: cannot unmarshal number -1 into field Schema.minLength`,
		head + "paths: {/a: {get: {responses: 5}}}\n":                                   `paths."/a": json: cannot unmarshal number into field Operation.responses`,
		"openapi: 3.0.0\ninfo: {title: [1], version: '1'}\npaths: {}\n":                 "json: cannot unmarshal array into field Info.title",
	} {
		wantCode(t, openapi.ParseError, "the document is not OpenAPI 3: "+part)(openapi.FromText(context.Background(), []byte(doc), quick))
	}
}

// TestHostileShapes: documents whose shape would cost the decode far more than their bytes are
// refused by the checks made before it (decision 281), each with a message naming the cause.
func TestHostileShapes(t *testing.T) {
	head := "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\n"
	laughs := head + "x-a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	for i, prev := 0, "a"; i < 9; i++ {
		name := string(rune('b' + i))
		laughs += "x-" + name + ": &" + name + " [" + strings.Repeat("*"+prev+", ", 8) + "*" + prev + "]\n"
		prev = name
	}
	// nested is a schema whose properties nest levels deep, in JSON (flow) syntax.
	nested := func(levels int) string {
		return strings.Repeat(`{"properties": {"a": `, levels) + "{}" + strings.Repeat("}}", levels)
	}
	var manyKeys, manySchemas strings.Builder
	manyKeys.WriteString(head + "components:\n  schemas:\n    Wide:\n      properties:\n")
	for i := range 10000 {
		fmt.Fprintf(&manyKeys, "        p%07d: {}\n", i)
	}
	manySchemas.WriteString(head + "components:\n  schemas:\n")
	for i := range 12000 {
		fmt.Fprintf(&manySchemas, "    S%07d: {type: string}\n", i)
	}
	cases := []struct {
		name, doc string
		part      string // "" for a document that is accepted
	}{
		{"ErrBillionLaughs", laughs, "excessive aliasing"},
		{"ErrDeepJSON", `{"openapi": "3.0.0", "info": {"title": "T", "version": "1"}, "paths": {},
			"components": {"schemas": {"A": ` + nested(2000) + `}}}`, "nests more than 100 levels"},
		{"ErrDeepYAML", head + "components: {schemas: {A: " + nested(2000) + "}}\n", "nests more than 100 levels"},
		{"ErrDeepArrays", head + "x-a: " + strings.Repeat("[", 60000) + strings.Repeat("]", 60000) + "\n", "depth"},
		{"ErrManyKeys", manyKeys.String(), "too many keys to check"},
		{"ErrLargeInvalidJSON", `{"openapi": "3.0.0", "x-a": "` + strings.Repeat("a", 300<<10) + `"`, "neither JSON nor YAML: unexpected EOF"},
		{"OKNestedDeep", head + "components: {schemas: {A: " + nested(45) + "}}\n", ""},
		{"OKManySchemas", manySchemas.String(), ""}, // the sections of the components are not key-checked
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := openapi.FromText(context.Background(), []byte(c.doc), openapi.DefaultLimits)
			if c.part == "" {
				if err != nil || d.Filesystem["openapi."+d.Format] == nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			wantCode(t, openapi.ParseError, c.part)(d, err)
		})
	}
	t.Run("ErrDeepReferencedFile", func(t *testing.T) {
		base, client := docServer(t, map[string]string{
			"/openapi.yaml": head + "components: {schemas: {A: {$ref: 'deep.json#/A'}}}\n",
			"/deep.json":    `{"A": ` + nested(200) + `}`,
		}, nil)
		wantCode(t, openapi.ParseError, "deep.json is refused: it nests more than 100 levels")(
			openapi.FromURL(context.Background(), client, base+"/openapi.yaml", quick))
	})
}
