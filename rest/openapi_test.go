package rest_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

const petstoreYAML = `openapi: 3.0.3
info: {title: Petstore, version: "1"}
paths:
  /pets:
    get:
      responses:
        200:
          description: The pets
          content:
            application/json:
              schema: {$ref: "schemas/pet.yaml#/Pet"}
`

// docFiles is a document server whose files a test may change.
type docFiles struct {
	mu    sync.Mutex
	files map[string]string
}

func (d *docFiles) set(path, body string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.files[path] = body
}

func (d *docFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/slow.yaml":
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
		return
	case "/huge.yaml":
		w.Write([]byte("openapi: 3.0.0\n# " + strings.Repeat("x", 2<<20)))
		return
	}
	d.mu.Lock()
	body, ok := d.files[r.URL.Path]
	d.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Write([]byte(body))
}

// specFixture is an organization with its admin, a reader, a reviewer and an outsider, and a
// document server on 127.0.0.2 that the server may fetch from (--fetch-allow=127.0.0.2).
type specFixture struct {
	e                                 *testenv.Env
	admin, reader, reviewer, outsider testenv.Actor
	org, otherOrg                     string
	docs                              *docFiles
	base                              string // the document server's URL
	private                           string // a server on 127.0.0.1, which is not allowed
}

func newSpecFixture(t *testing.T) *specFixture {
	t.Helper()
	limits := func(o *server.Options) {
		o.OpenAPILimits = openapi.Limits{MaxBytes: 1 << 20, MaxFiles: 10, Timeout: time.Second}
	}
	e := testenv.New(t, allowFetch(t, "127.0.0.2"), limits)
	f := &specFixture{e: e, docs: &docFiles{files: map[string]string{
		"/api/openapi.yaml":     petstoreYAML,
		"/api/schemas/pet.yaml": "Pet: {type: object, properties: {name: {type: string}}}\n",
	}}}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.reader = e.User("rob@example.com", f.org, testenv.Role(viewer.RoleRead))
	f.reviewer = e.User("rev@example.com", f.org, testenv.Role(viewer.RoleReview))
	f.outsider, f.otherOrg = e.Bootstrap("zed@zeta.io", "Zeta")
	f.base = fetchtest.Serve(t, "127.0.0.2", f.docs).URL
	f.private = fetchtest.Serve(t, "127.0.0.1", f.docs).URL
	return f
}

func (f *specFixture) path(segments ...string) string {
	return "/v1/orgs/" + f.org + "/openapi" + teamsJoin(segments)
}

// create creates a spec as the admin, runs the due jobs, and returns the spec as GET shows it.
func (f *specFixture) create(t *testing.T, slug string, source map[string]any) map[string]any {
	t.Helper()
	resp := f.e.Do(f.admin, "POST", f.path(), map[string]any{"slug": slug, "source": source})
	if resp.Status != http.StatusCreated || resp.Map(t)["processingState"] != "pending" {
		t.Fatalf("create %s: %d %s", slug, resp.Status, resp.Body)
	}
	f.e.RunDueJobs()
	return f.e.Do(f.admin, "GET", f.path(slug), nil).Map(t)
}

func versionIDs(t *testing.T, e *testenv.Env, a testenv.Actor, path string) []string {
	t.Helper()
	var l struct {
		Items []struct{ ID string }
		Count int
	}
	e.Do(a, "GET", path, nil).JSON(t, &l)
	var ids []string
	for _, v := range l.Items {
		ids = append(ids, v.ID)
	}
	return ids
}

func TestOpenAPISpecLifecycle(t *testing.T) {
	f := newSpecFixture(t)
	url := f.base + "/api/openapi.yaml"
	s := f.create(t, "petstore", map[string]any{"url": url})
	if s["processingState"] != "complete" || s["lastVersion"] == nil || s["lastProcessErrorCode"] != nil || s["sourceURL"] != url {
		t.Fatalf("after processing: %v", s)
	}
	first := s["lastVersion"].(string)
	t.Run("OKContent", func(t *testing.T) {
		c := f.e.Do(f.reader, "GET", f.path("petstore", "versions", "latest", "content"), nil).Map(t)
		fs := c["filesystem"].(map[string]any)
		if fs["openapi.yaml"].(map[string]any)["openapi"] != "3.0.3" || fs["schemas/pet.yaml"] == nil || c["url"] != url {
			t.Fatalf("content %v", c)
		}
		raw := f.e.Do(f.reader, "GET", f.path("petstore", "versions", "latest", "content", "raw"), nil).Map(t)
		if raw["text"] != petstoreYAML || raw["format"] != "yaml" {
			t.Fatalf("raw %v", raw)
		}
		v := f.e.Do(f.reader, "GET", f.path("petstore", "versions", first), nil).Map(t)
		if v["id"] != first || v["url"] != url || v["object"] != "openapi-spec-version" {
			t.Fatalf("version %v", v)
		}
	})
	t.Run("OKUnchangedPutMakesNoVersion", func(t *testing.T) {
		resp := f.e.Do(f.admin, "PUT", f.path("petstore"), map[string]any{"source": map[string]any{"url": url}})
		if resp.Status != http.StatusOK || resp.Map(t)["processingState"] != "pending" {
			t.Fatalf("PUT: %d %s", resp.Status, resp.Body)
		}
		if n := f.e.RunDueJobs(); n != 1 {
			t.Fatalf("%d jobs ran, want 1", n)
		}
		if ids := versionIDs(t, f.e, f.admin, f.path("petstore", "versions")); len(ids) != 1 {
			t.Fatalf("versions %v", ids)
		}
	})
	t.Run("OKChangedContentMakesVersion", func(t *testing.T) {
		f.docs.set("/api/schemas/pet.yaml", "Pet: {type: object, properties: {name: {type: string}, age: {type: integer}}}\n")
		f.e.Do(f.admin, "PUT", f.path("petstore"), map[string]any{"source": map[string]any{"url": url}})
		f.e.RunDueJobs()
		ids := versionIDs(t, f.e, f.admin, f.path("petstore", "versions"))
		if len(ids) != 2 || ids[1] != first {
			t.Fatalf("versions %v, want a new one before %s", ids, first)
		}
		if page := versionIDs(t, f.e, f.admin, f.path("petstore", "versions")+"?limit=1"); len(page) != 1 || page[0] != ids[0] {
			t.Fatalf("first page %v", page)
		}
		old := f.e.Do(f.admin, "GET", f.path("petstore", "versions", first, "content"), nil).Map(t)
		pet := old["filesystem"].(map[string]any)["schemas/pet.yaml"].(map[string]any)["Pet"].(map[string]any)
		if _, has := pet["properties"].(map[string]any)["age"]; has {
			t.Fatalf("the old version changed: %v", pet)
		}
	})
	t.Run("OKVisibility", func(t *testing.T) {
		s := f.e.Do(f.admin, "PATCH", f.path("petstore"), map[string]any{"visibility": "public"}).Map(t)
		c := f.e.Do(f.admin, "GET", f.path("petstore", "versions", "latest", "content"), nil).Map(t)
		if s["visibility"] != "public" || c["urls"].(map[string]any)["public"] != url {
			t.Fatalf("spec %v content urls %v", s, c["urls"])
		}
	})
	t.Run("OKDelete", func(t *testing.T) {
		if r := f.e.Do(f.admin, "DELETE", f.path("petstore"), nil); r.Status != http.StatusResetContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path("petstore"), nil), 404)
		testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path("petstore", "versions", first), nil), 404)
		if r := f.e.Do(f.admin, "DELETE", f.path("petstore"), nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete again: %d %s", r.Status, r.Body)
		}
	})
}

func TestOpenAPISpecFromText(t *testing.T) {
	f := newSpecFixture(t)
	text := `{"openapi":"3.1.0","info":{"title":"T","version":"1"},"paths":{}}`
	s := f.create(t, "inline", map[string]any{"text": text})
	if s["processingState"] != "complete" || s["lastVersion"] == nil || s["sourceURL"] != nil {
		t.Fatalf("spec %v", s)
	}
	v := f.e.Do(f.admin, "GET", f.path("inline", "versions", "latest"), nil).Map(t)
	if !strings.HasSuffix(v["url"].(string), "/versions/"+v["id"].(string)+"/content") {
		t.Fatalf("a text version's url: %v", v["url"])
	}
	// PUT creates a spec that does not exist (201) and moves one to another source.
	if r := f.e.Do(f.admin, "PUT", f.path("other"), map[string]any{"source": map[string]any{"text": text}}); r.Status != http.StatusCreated {
		t.Fatalf("PUT of a new slug: %d %s", r.Status, r.Body)
	}
	f.e.Do(f.admin, "PUT", f.path("inline"), map[string]any{"source": map[string]any{"url": f.base + "/api/openapi.yaml"}})
	f.e.RunDueJobs()
	if ids := versionIDs(t, f.e, f.admin, f.path("inline", "versions")); len(ids) != 2 {
		t.Fatalf("versions %v", ids)
	}
}

// TestOpenAPISpecPublicURL checks that a public spec's content names a public URL that anyone
// reads without a token (a stored spec's on this server, a fetched one's at its source), and
// that a private spec has none.
func TestOpenAPISpecPublicURL(t *testing.T) {
	f := newSpecFixture(t)
	text := `{"openapi":"3.1.0","info":{"title":"Stored","version":"1"},"paths":{}}`
	f.create(t, "stored", map[string]any{"text": text})
	f.create(t, "fetched", map[string]any{"url": f.base + "/api/openapi.yaml"})
	publicOf := func(slug string) any {
		var c struct{ URLs map[string]any }
		f.e.Do(f.admin, "GET", f.path(slug, "versions", "latest", "content"), nil).JSON(t, &c)
		return c.URLs["public"]
	}
	get := func(path string, header ...string) *http.Response {
		req, _ := http.NewRequest("GET", f.e.Server.URL+path, nil)
		for i := 0; i < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	proxy := "/openapi/" + f.org + "/stored/versions/latest"
	if publicOf("stored") != nil || get(proxy).StatusCode != 404 {
		t.Fatal("a private spec has a public URL")
	}
	for _, slug := range []string{"stored", "fetched"} {
		if r := f.e.Do(f.admin, "PATCH", f.path(slug), map[string]any{"visibility": "public"}); r.Status != 200 {
			t.Fatalf("PATCH: %d %s", r.Status, r.Body)
		}
	}
	t.Run("OKStored", func(t *testing.T) {
		id := f.e.Do(f.admin, "GET", f.path("stored"), nil).Map(t)["lastVersion"].(string)
		public, _ := publicOf("stored").(string)
		path, ok := strings.CutPrefix(public, f.e.Server.URL)
		if !ok || path != "/openapi/"+f.org+"/stored/versions/"+id {
			t.Fatalf("public URL %q", public)
		}
		for _, p := range []string{path, proxy} {
			res := get(p)
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != 200 || string(body) != text || res.Header.Get("Content-Type") != "application/json" ||
				res.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Fatalf("%s: %d %v %s", p, res.StatusCode, res.Header, body)
			}
			if again := get(p, "If-None-Match", res.Header.Get("ETag")); again.StatusCode != http.StatusNotModified {
				t.Fatalf("%s again: %d", p, again.StatusCode)
			}
		}
	})
	t.Run("OKFetched", func(t *testing.T) {
		if publicOf("fetched") != f.base+"/api/openapi.yaml" {
			t.Fatalf("public URL %v", publicOf("fetched"))
		}
		res := get("/openapi/" + f.org + "/fetched/versions/latest")
		if body, _ := io.ReadAll(res.Body); res.StatusCode != 200 || string(body) != petstoreYAML || res.Header.Get("Content-Type") != "application/yaml" {
			t.Fatalf("%d %v %s", res.StatusCode, res.Header, body)
		}
	})
	t.Run("ErrNotPublic", func(t *testing.T) {
		for _, p := range []string{"/openapi/" + f.otherOrg + "/stored/versions/latest", "/openapi/" + f.org + "/nope/versions/latest",
			"/openapi/" + f.org + "/stored/versions/nope"} {
			if res := get(p); res.StatusCode != 404 {
				t.Fatalf("%s: %d", p, res.StatusCode)
			}
		}
		f.e.Do(f.admin, "PATCH", f.path("stored"), map[string]any{"visibility": "private"})
		if publicOf("stored") != nil || get(proxy).StatusCode != 404 {
			t.Fatal("a spec made private is still public")
		}
	})
}

// closedPort returns an address of 127.0.0.2 where nothing listens.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skip(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestOpenAPISpecBadSources(t *testing.T) {
	f := newSpecFixture(t)
	doc := "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"
	f.docs.set("/invalid.yaml", "openapi: [3.0\n  info: {")
	f.docs.set("/plain.yaml", "name: not an API\nitems: [1, 2]\n")
	f.docs.set("/loop.yaml", doc+"    A: {$ref: 'b.yaml#/B'}\n")
	f.docs.set("/b.yaml", "B: {$ref: 'c.yaml#/C'}\n")
	f.docs.set("/c.yaml", "C: {$ref: 'b.yaml#/B'}\n")
	f.docs.set("/toprivate.yaml", doc+"    A: {$ref: '"+f.private+"/api/schemas/pet.yaml#/Pet'}\n")
	f.docs.set("/tometadata.yaml", doc+"    A: {$ref: 'http://169.254.169.254/latest/meta-data#/A'}\n")
	cases := []struct {
		name, url, code, part string
	}{
		{"ErrUnreachable", "http://" + closedPort(t) + "/openapi.yaml", "FETCH_ERROR", "could not be fetched"},
		{"ErrSlow", f.base + "/slow.yaml", "FETCH_TIMEOUT", "took too long"},
		{"ErrHuge", f.base + "/huge.yaml", "FETCH_ERROR", "more than"},
		{"ErrPrivate", f.private + "/api/openapi.yaml", "FETCH_ERROR", "not fetched"},
		{"ErrMetadata", "http://169.254.169.254/latest/meta-data/", "FETCH_ERROR", "not fetched"},
		{"ErrInvalidYAML", f.base + "/invalid.yaml", "PARSE_ERROR", "neither JSON nor YAML"},
		{"ErrNotOpenAPI", f.base + "/plain.yaml", "PARSE_ERROR", "not an OpenAPI document"},
		{"ErrRefLoop", f.base + "/loop.yaml", "PARSE_ERROR", ""},
		{"ErrRefToPrivate", f.base + "/toprivate.yaml", "FETCH_ERROR", "not fetched"},
		{"ErrRefToMetadata", f.base + "/tometadata.yaml", "FETCH_ERROR", "not fetched"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			slug := "bad-" + string(rune('a'+i))
			start := time.Now()
			s := f.create(t, slug, map[string]any{"url": c.url})
			if d := time.Since(start); d > 5*time.Second {
				t.Fatalf("processing took %s", d)
			}
			errs, _ := s["lastProcessedErrors"].([]any)
			if s["processingState"] != "complete" || s["lastProcessErrorCode"] != c.code || len(errs) != 1 ||
				!strings.Contains(errs[0].(map[string]any)["message"].(string), c.part) || s["lastVersion"] != nil {
				t.Fatalf("want %s (%q), got %v", c.code, c.part, s)
			}
			testenv.CheckError(t, f.e.Do(f.admin, "GET", f.path(slug, "versions", "latest"), nil), 404)
		})
	}
	t.Run("OKErrorClearedBySuccess", func(t *testing.T) {
		f.e.Do(f.admin, "PUT", f.path("bad-a"), map[string]any{"source": map[string]any{"url": f.base + "/api/openapi.yaml"}})
		f.e.RunDueJobs()
		s := f.e.Do(f.admin, "GET", f.path("bad-a"), nil).Map(t)
		if s["lastProcessErrorCode"] != nil || s["lastProcessedErrors"] != nil || s["lastProcessedErrorCount"] != 0.0 || s["lastVersion"] == nil {
			t.Fatalf("after a success: %v", s)
		}
	})
}

// TestOpenAPISpecEveryProblem checks that an invalid document that can be read is kept as a
// version with each of its problems as a warning (REST's Bindery-only warnings, GraphQL's
// warnings), and that one whose references resolve to nothing fails with each of its problems.
func TestOpenAPISpecEveryProblem(t *testing.T) {
	f := newSpecFixture(t)
	f.docs.set("/invalid.yaml", "openapi: 3.0.3\ninfo: {title: T}\npaths:\n  /a/{id}: {get: {responses: {'200': {description: ok}}}}\n"+
		"  /a/{name}: {get: {parameters: [{name: name, in: path, required: true, schema: {type: string}}], responses: {'200': {description: ok}}}}\n"+
		"components: {schemas: {A: {type: nonsense}}}\n")
	s := f.create(t, "invalid", map[string]any{"url": f.base + "/invalid.yaml"})
	if s["lastProcessErrorCode"] != nil || s["lastVersion"] == nil {
		t.Fatalf("want a version, got %v", s)
	}
	v := f.e.Do(f.reader, "GET", f.path("invalid", "versions", "latest"), nil).Map(t)
	warnings, _ := v["warnings"].([]any)
	if v["warningCount"] != 4.0 || len(warnings) != 4 {
		t.Fatalf("want 4 warnings, got %v", v)
	}
	for i, part := range []string{`schema "A"`, "info", "/a/{id}", "conflicting paths"} {
		if !strings.Contains(warnings[i].(string), part) {
			t.Fatalf("warning %d: %v", i, warnings[i])
		}
	}
	g := f.e.GraphQL(f.reader, `query($org: ID!) { organization(id: $org) { openAPISpec(slug: "invalid") {
		versions(first: 1) { edges { node { warnings warningCount } } } } } }`, map[string]any{"org": f.org})
	var data struct {
		Organization struct {
			OpenAPISpec struct {
				Versions struct {
					Edges []struct {
						Node struct {
							Warnings     []string
							WarningCount int
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(g.Data, &data); err != nil || len(g.Errors) > 0 {
		t.Fatalf("%s %v %v", g.Data, g.Errors, err)
	}
	if got := data.Organization.OpenAPISpec.Versions.Edges; len(got) != 1 || got[0].Node.WarningCount != 4 || len(got[0].Node.Warnings) != 4 {
		t.Fatalf("GraphQL: %+v", got)
	}
	t.Run("ErrUnresolvedReferences", func(t *testing.T) {
		f.docs.set("/loop.yaml", "openapi: 3.0.0\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"+
			"    A: {$ref: '#/components/schemas/B'}\n    B: {$ref: '#/components/schemas/A'}\n")
		s := f.create(t, "loop", map[string]any{"url": f.base + "/loop.yaml"})
		errs, _ := s["lastProcessedErrors"].([]any)
		if s["lastProcessErrorCode"] != "PARSE_ERROR" || s["lastProcessedErrorCount"] != 2.0 || len(errs) != 2 || s["lastVersion"] != nil {
			t.Fatalf("want 2 problems and no version, got %v", s)
		}
	})
}

func TestOpenAPISpecRefusesBadInput(t *testing.T) {
	f := newSpecFixture(t)
	good := map[string]any{"url": f.base + "/api/openapi.yaml"}
	f.create(t, "taken", good)
	cases := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"ErrNoSlug", map[string]any{"source": good}, 400, "slug"},
		{"ErrSlugUpper", map[string]any{"slug": "Pet", "source": good}, 400, "slug"},
		{"ErrSlugHyphens", map[string]any{"slug": "a--b", "source": good}, 400, "slug"},
		{"ErrSlugLong", map[string]any{"slug": strings.Repeat("a", 101), "source": good}, 400, "slug"},
		{"ErrSlugNotString", map[string]any{"slug": 7, "source": good}, 400, "slug"},
		{"ErrNoSource", map[string]any{"slug": "x"}, 400, "source"},
		{"ErrSourceNull", map[string]any{"slug": "x", "source": nil}, 400, "source"},
		{"ErrSourceEmpty", map[string]any{"slug": "x", "source": map[string]any{}}, 400, "source"},
		{"ErrSourceBoth", map[string]any{"slug": "x", "source": map[string]any{"url": "https://a.example/o.json", "text": "{}"}}, 400, "source"},
		{"ErrURLNotHTTP", map[string]any{"slug": "x", "source": map[string]any{"url": "file:///etc/passwd"}}, 400, "source.url"},
		{"ErrURLLong", map[string]any{"slug": "x", "source": map[string]any{"url": "https://a.example/" + strings.Repeat("a", 2048)}}, 400, "source.url"},
		{"ErrURLNull", map[string]any{"slug": "x", "source": map[string]any{"url": nil}}, 400, "source.url"},
		{"ErrTextEmpty", map[string]any{"slug": "x", "source": map[string]any{"text": ""}}, 400, "source.text"},
		{"ErrSlugTaken", map[string]any{"slug": "taken", "source": good}, 409, "slug"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := testenv.CheckError(t, f.e.Do(f.admin, "POST", f.path(), c.body), c.status)
			if !strings.Contains(msg, c.field) {
				t.Fatalf("message %q does not name %s", msg, c.field)
			}
		})
	}
	t.Run("ErrPatch", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.admin, "PATCH", f.path("taken"), map[string]any{"visibility": "secret"}), 400)
		testenv.CheckError(t, f.e.Do(f.admin, "PATCH", f.path("taken"), map[string]any{}), 400)
		testenv.CheckError(t, f.e.Do(f.admin, "PATCH", f.path("nope"), map[string]any{"visibility": "public"}), 404)
	})
	t.Run("ErrPutBadSlug", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(f.admin, "PUT", f.path("Bad_Slug"), map[string]any{"source": good}), 400)
	})
	if n := len(versionIDs(t, f.e, f.admin, f.path())); n != 1 {
		t.Fatalf("failed creates left %d specs", n)
	}
}

func TestOpenAPISpecAccess(t *testing.T) {
	f := newSpecFixture(t)
	f.create(t, "petstore", map[string]any{"url": f.base + "/api/openapi.yaml"})
	guest := f.e.User("gus@example.com", f.org, nil)
	editor := f.e.User("ed@example.com", f.org, testenv.Role(viewer.RoleEdit))
	body := map[string]any{"slug": "mine", "source": map[string]any{"text": "openapi: 3.0.0"}}

	s := f.e.Do(f.reader, "GET", f.path("petstore"), nil).Map(t)
	if p := s["permissions"].(map[string]any); p["view"] != true || p["edit"] != false {
		t.Fatalf("reader's permissions %v", p)
	}
	f.e.Do(f.reader, "GET", f.path("petstore", "versions", "latest", "content"), nil)
	testenv.CheckError(t, f.e.Do(f.reader, "POST", f.path(), body), 403)
	testenv.CheckError(t, f.e.Do(editor, "PUT", f.path("petstore"), map[string]any{"source": body["source"]}), 403)
	testenv.CheckError(t, f.e.Do(f.reader, "DELETE", f.path("petstore"), nil), 403)
	if r := f.e.Do(f.reviewer, "POST", f.path(), body); r.Status != 201 || r.Map(t)["permissions"].(map[string]any)["edit"] != true {
		t.Fatalf("a reviewer creates specs: %d %s", r.Status, r.Body)
	}
	var o struct{ Permissions map[string]bool }
	f.e.Do(f.reviewer, "GET", "/v1/orgs/"+f.org, nil).JSON(t, &o)
	if !o.Permissions["createOpenAPISpec"] {
		t.Fatal("the organization's createOpenAPISpec is false for a reviewer who may create specs")
	}
	testenv.CheckError(t, f.e.Do(guest, "GET", f.path(), nil), 403)
	testenv.CheckError(t, f.e.Do(guest, "GET", f.path("petstore"), nil), 404)
	for _, p := range []string{f.path(), f.path("petstore"), f.path("petstore", "versions"), f.path("petstore", "versions", "latest", "content")} {
		testenv.CheckError(t, f.e.Do(f.outsider, "GET", p, nil), 404)
		testenv.CheckError(t, f.e.Do(testenv.Actor{}, "GET", p, nil), 401)
	}
	testenv.CheckError(t, f.e.Do(f.outsider, "GET", "/v1/orgs/"+f.otherOrg+"/openapi/petstore", nil), 404)
}

func TestOpenAPISpecGraphQL(t *testing.T) {
	f := newSpecFixture(t)
	g := f.e.GraphQL(f.admin, `mutation($org: ID!, $url: String) {
		createOpenAPISpec(organizationId: $org, input: {slug: "petstore", source: {url: $url}}) { slug processingState }
	}`, map[string]any{"org": f.org, "url": f.base + "/api/openapi.yaml"})
	if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"PENDING"`) {
		t.Fatalf("create: %s %v", g.Data, g.Errors)
	}
	f.e.RunDueJobs()
	query := `query($org: ID!) { organization(id: $org) { openAPISpecs { totalCount edges { node {
		slug processingState lastProcessErrorCode permissions { view edit }
		lastVersion { id format raw filesystem } versions { totalCount edges { node { id url } } } } } } } }`
	g = f.e.GraphQL(f.reader, query, map[string]any{"org": f.org})
	if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"COMPLETE"`) || !strings.Contains(string(g.Data), `"schemas/pet.yaml"`) ||
		!strings.Contains(string(g.Data), `"format":"yaml"`) {
		t.Fatalf("query: %s %v", g.Data, g.Errors)
	}
	g = f.e.GraphQL(f.outsider, `query($org: ID!) { organization(id: $org) { openAPISpec(slug: "petstore") { id } } }`, map[string]any{"org": f.org})
	if g.Code() != "NOT_FOUND" {
		t.Fatalf("outsider: %s %v", g.Data, g.Errors)
	}
	g = f.e.GraphQL(f.admin, `mutation($org: ID!) { deleteOpenAPISpec(organizationId: $org, slug: "petstore") }`, map[string]any{"org": f.org})
	if len(g.Errors) > 0 || !strings.Contains(string(g.Data), "true") {
		t.Fatalf("delete: %s %v", g.Data, g.Errors)
	}
}

// TestOpenAPISpecInBackground runs the job runner as `serve` does: a create answers at once and
// the spec completes without anyone running jobs by hand.
func TestOpenAPISpecInBackground(t *testing.T) {
	f := newSpecFixture(t)
	f.e.RunJobs()
	f.e.Do(f.admin, "POST", f.path(), map[string]any{"slug": "petstore", "source": map[string]any{"url": f.base + "/api/openapi.yaml"}})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if s := f.e.Do(f.admin, "GET", f.path("petstore"), nil).Map(t); s["processingState"] == "complete" {
			if s["lastVersion"] == nil {
				t.Fatalf("completed without a version: %v", s)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the spec was not processed in the background within 10 s")
}
