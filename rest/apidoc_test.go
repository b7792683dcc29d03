package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/apispec"
	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/rest"
	"github.com/binderyhq/bindery/rest/apidoc"
)

// servedDocument is the document as GET /v1/openapi.json answers it.
type servedDocument struct {
	OpenAPI string                               `json:"openapi"`
	Servers []struct{ URL string }               `json:"servers"`
	Paths   map[string]map[string]map[string]any `json:"paths"`
}

func TestAPIDocument(t *testing.T) {
	e := testenv.New(t)
	resp := e.Raw(testenv.Actor{}, http.MethodGet, "/v1/openapi.json", "", nil)
	if resp.Status != http.StatusOK {
		t.Fatalf("GET /v1/openapi.json without a token: %d %s", resp.Status, resp.Body)
	}
	t.Run("ValidOpenAPI31", func(t *testing.T) {
		d, err := openapi.FromText(context.Background(), resp.Body, openapi.DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if d.Version != "3.1.0" {
			t.Errorf("version %q, want 3.1.0", d.Version)
		}
	})
	var doc servedDocument
	resp.JSON(t, &doc)
	if len(doc.Servers) != 1 || doc.Servers[0].URL != e.Server.URL+"/v1" {
		t.Errorf("servers %+v, want %s/v1", doc.Servers, e.Server.URL)
	}
	t.Run("EveryRoute", func(t *testing.T) { checkEveryRoute(t, doc) })
	t.Run("TitleRule", func(t *testing.T) { checkTitleRuleDescribed(t, doc) })
	t.Run("PublicRoutes", func(t *testing.T) {
		for path, item := range doc.Paths {
			for method, op := range item {
				security, ok := op["security"].([]any)
				key := strings.ToUpper(method) + " /v1" + path
				if public := ok && len(security) == 0; public != publicRoutes[key] {
					t.Errorf("%s: without a token in the document %v, answered without one %v", key, public, publicRoutes[key])
				}
			}
		}
	})
}

// checkTitleRuleDescribed: the content batch's fields say which title wins (decision 290).
func checkTitleRuleDescribed(t *testing.T, doc servedDocument) {
	var body struct {
		RequestBody struct {
			Content map[string]struct {
				Schema struct {
					Properties struct {
						Changes struct {
							Items struct {
								Properties map[string]struct{ Description string }
							}
						}
					}
				}
			}
		}
	}
	op, _ := json.Marshal(doc.Paths["/spaces/{spaceId}/change-requests/{changeRequestId}/content"]["post"])
	if err := json.Unmarshal(op, &body); err != nil {
		t.Fatal(err)
	}
	change := body.RequestBody.Content["application/json"].Schema.Properties.Changes.Items.Properties
	for field, want := range map[string]string{"title": "wins over a leading heading", "document": "a leading level-1 heading is the title"} {
		if got := change[field].Description; !strings.Contains(got, want) {
			t.Errorf("changes[].%s is described %q, without %q", field, got, want)
		}
	}
}

// checkEveryRoute holds the document to the router: each route of /v1 is one operation, under
// the path template of its shape, with an operationId no other has.
func checkEveryRoute(t *testing.T, doc servedDocument) {
	routes := mustRoutes(t)
	ids := map[string]bool{}
	operations := 0
	for _, item := range doc.Paths {
		for _, op := range item {
			id, _ := op["operationId"].(string)
			if id == "" || ids[id] {
				t.Errorf("operationId %q is empty or not unique", id)
			}
			ids[id] = true
			operations++
		}
	}
	if operations != len(routes) {
		t.Errorf("%d operations for %d routes", operations, len(routes))
	}
	for _, r := range routes {
		if !slices.ContainsFunc(pathsOf(doc), func(tmpl string) bool {
			return sameShape(r.Pattern, tmpl) && doc.Paths[tmpl][strings.ToLower(r.Method)] != nil
		}) {
			t.Errorf("%s is not in the document", r.Key())
		}
	}
}

func pathsOf(doc servedDocument) []string {
	var paths []string
	for p := range doc.Paths {
		paths = append(paths, p)
	}
	return paths
}

// sameShape reports whether a chi pattern and a path template have the same literals.
func sameShape(pattern, tmpl string) bool {
	param := func(s string) bool { return s == "*" || strings.HasPrefix(s, "{") }
	return slices.EqualFunc(strings.Split(pattern, "/"), strings.Split(tmpl, "/"), func(a, b string) bool {
		return a == b || param(a) && param(b)
	})
}

// TestAPIDocumentDescribesEveryRoute fails when a route of /v1 was added without its
// description in the table of rest/apidoc.go, or an entry describes no route.
func TestAPIDocumentDescribesEveryRoute(t *testing.T) {
	if _, err := rest.BuildAPIDocument(mustRoutes(t)); err != nil {
		t.Fatal(err)
	}
}

// TestAPIDocumentOperationIDs holds the operationIds of the table to the reference client's: a
// route the reference has (not as another resource: apispec.Superseded) has its operationId.
func TestAPIDocumentOperationIDs(t *testing.T) {
	data, err := apispec.Document()
	if err != nil {
		t.Fatal(err)
	}
	var ref struct{ Paths map[string]map[string]any } // a path item may hold parameters too
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	served, err := rest.BuildAPIDocument(mustRoutes(t))
	if err != nil {
		t.Fatal(err)
	}
	var doc servedDocument
	if err := json.Unmarshal(served, &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range mustRoutes(t) {
		method := strings.ToLower(r.Method)
		got := doc.Paths[openAPIPath(r.Pattern)][method]["operationId"]
		for tmpl, item := range ref.Paths {
			op, _ := item[method].(map[string]any)
			if want, ok := op["operationId"]; ok && sameShape(r.Pattern, tmpl) && !apispec.Superseded[tmpl] && got != want {
				t.Errorf("%s: operationId %v, the reference's is %v", r.Key(), got, want)
			}
		}
	}
}

func mustRoutes(t *testing.T) []apidoc.Route {
	routes, err := rest.V1Routes()
	if err != nil {
		t.Fatal(err)
	}
	return routes
}

func openAPIPath(pattern string) string {
	if p, ok := strings.CutSuffix(pattern, "/*"); ok {
		return p + "/{path}"
	}
	return pattern
}

func TestAPIDocumentCaching(t *testing.T) {
	e := testenv.New(t)
	for _, path := range []string{"/v1/openapi.json", "/v1/docs"} {
		res, err := http.Get(e.Server.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		etag := res.Header.Get("ETag")
		if res.StatusCode != http.StatusOK || etag == "" {
			t.Fatalf("GET %s: %d, ETag %q", path, res.StatusCode, etag)
		}
		req, _ := http.NewRequest(http.MethodGet, e.Server.URL+path, nil)
		req.Header.Set("If-None-Match", etag)
		if res, err = http.DefaultClient.Do(req); err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotModified {
			t.Errorf("GET %s with its ETag: %d, want 304", path, res.StatusCode)
		}
	}
}

func TestAPIDocsPage(t *testing.T) {
	e := testenv.New(t)
	res, err := http.Get(e.Server.URL + "/v1/docs")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body bytes.Buffer
	_, _ = body.ReadFrom(res.Body)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /v1/docs: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy %q: the page runs no script and loads nothing", csp)
	}
	for _, want := range []string{`id="op-listMembersInOrganizationById"`, `id="op-createCustomField"`, `id="schema-Space"`,
		`href="#schema-Member"`, `href="openapi.json"`} {
		if !strings.Contains(body.String(), want) {
			t.Errorf("the page has no %s", want)
		}
	}
	if strings.Contains(body.String(), "<script") || strings.Contains(body.String(), "://cdn") {
		t.Error("the page loads scripts")
	}
}

// TestAPIDocumentMatchesAnswers: a few answers of Bindery's own operations hold to the document
// (testenv.Env.Do checks every answer of every test against it; this names some that only it checks).
func TestAPIDocumentMatchesAnswers(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	created := e.Do(admin, http.MethodPost, "/v1/user/tokens", map[string]any{"label": "ci"})
	e.Do(admin, http.MethodGet, "/v1/user/tokens", nil)
	e.Do(admin, http.MethodPost, "/v1/orgs/"+org+"/custom-fields", map[string]any{"name": "team", "type": "text"})
	e.Do(admin, http.MethodGet, "/v1/orgs/"+org+"/custom-fields", nil)
	e.Do(admin, http.MethodPost, "/v1/orgs/"+org+"/translations", map[string]any{"title": "EU", "languages": []string{"fr"}})
	e.Do(admin, http.MethodGet, "/v1/orgs/"+org+"/custom-fields/nothing", nil) // 404: the failure body
	var token struct{ ID string }
	if json.Unmarshal(created.Body, &token); token.ID == "" {
		t.Fatalf("created %s", created.Body)
	}
	e.Do(admin, http.MethodDelete, "/v1/user/tokens/"+token.ID, nil)
}

// requiredByReferenceNotByUs are the routes whose body may go without fields the reference's
// requires, each with why.
var requiredByReferenceNotByUs = map[string]bool{
	// A field of a site's customization not given takes its default, as the reference's own
	// description says, so none is required though its schema requires all seventeen groups
	// (decision 164).
	"PUT /orgs/{organizationId}/sites/{siteId}/customization": true,
}

// TestAPIDocumentRequiredFields holds the request bodies' required fields of the table to what
// the handlers refuse to go without (each answers 400 naming the field when it is absent) and to
// the reference: a field the reference's body requires is required in the served document too,
// and every field named required is one of the body's.
func TestAPIDocumentRequiredFields(t *testing.T) {
	ref := apispec.Load(t)
	served, err := rest.BuildAPIDocument(mustRoutes(t))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := apispec.Parse(served)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range mustRoutes(t) {
		required, properties := doc.RequestFields(r.Method, r.Pattern)
		for _, name := range required {
			if !slices.Contains(properties, name) {
				t.Errorf("%s: requires %q, which its body does not have", r.Key(), name)
			}
		}
		if requiredByReferenceNotByUs[r.Key()] || !ref.HasOperation(r.Method, r.Pattern) {
			continue
		}
		refRequired, _ := ref.RequestFields(r.Method, r.Pattern)
		for _, name := range refRequired {
			if !slices.Contains(required, name) {
				t.Errorf("%s: the reference requires %q, the served document does not", r.Key(), name)
			}
		}
	}
}
