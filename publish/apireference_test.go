package publish_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/ent"
)

// petstoreSpec is an OpenAPI document with one operation whose summary is given, a path
// parameter, a request body by $ref and a recursive schema.
func petstoreSpec(summary string) string {
	return `{"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"},
	  "servers": [{"url": "https://pets.example.com"}],
	  "webhooks": {"petAdded": {"post": {"summary": "A pet was added",
	    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}},
	  "paths": {"/pets/{petId}": {"put": {"summary": "` + summary + `",
	    "description": "Changes a pet. <script>alert(1)</script> [home](javascript:alert(1))",
	    "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "integer"}}],
	    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
	    "responses": {"200": {"description": "The pet", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}},
	  "components": {"schemas": {"Pet": {"type": "object", "required": ["name"], "properties": {
	    "name": {"type": "string", "description": "The pet's <b>name</b>"},
	    "owner": {"type": "object", "properties": {"email": {"type": "string", "format": "email"}}},
	    "parent": {"$ref": "#/components/schemas/Pet"}}}}}}`
}

// operationDoc is a document of one openapi-operation block.
func operationDoc(spec, path, method string) map[string]any {
	return map[string]any{"document": map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{
		map[string]any{"object": "block", "type": "openapi-operation", "isVoid": true, "data": map[string]any{
			"ref": map[string]any{"kind": "openapi", "spec": spec}, "path": path, "method": method}}}}}
}

// TestAPIReferencePages writes pages with API operation blocks (as a document, and as GitBook's
// Markdown naming the spec by slug and by source), and reads them on the published site: the
// operation from the spec's latest version, notices where there is none, the Markdown, and the
// page changing when a new version is processed.
func TestAPIReferencePages(t *testing.T) {
	f := newSiteFixture(t)
	f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetPublished(true).SetBasename("acme") })
	specs := "/v1/orgs/" + f.org + "/openapi"
	if r := f.e.Do(f.admin, "POST", specs, map[string]any{"slug": "petstore", "source": map[string]any{"text": petstoreSpec("Update a pet")}}); r.Status != http.StatusCreated {
		t.Fatalf("create spec: %d %s", r.Status, r.Body)
	}
	f.e.RunDueJobs()
	huge := "/" + strings.Repeat("a", 100_000)
	withDoc := func(title string, doc map[string]any) map[string]any {
		return map[string]any{"operation": "insert_page", "title": title, "document": doc}
	}
	f.write(t,
		withDoc("By slug", operationDoc("petstore", "/pets/{petId}", "put")),
		page("By src", `{% openapi src="petstore" path="/pets/{petId}" method="put" %}`+"\n[petstore](petstore)\n{% endopenapi %}\n"),
		page("Missing", "{% openapi-operation spec=\"nope\" path=\"/a\" method=\"get\" %}\nOpenAPI nope\n{% endopenapi-operation %}\n\n"+
			"{% openapi-operation spec=\"petstore\" path=\"/pets/{petId}\" method=\"delete\" %}\nOpenAPI petstore\n{% endopenapi-operation %}\n\n"+
			"{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}\nOpenAPI petstore\n{% endopenapi-operation %}\n"),
		withDoc("Hostile", operationDoc("petstore", huge, "<script>")),
		page("Hooks", "{% openapi-webhook spec=\"petstore\" name=\"petAdded\" method=\"post\" %}\nOpenAPI petstore\n{% endopenapi-webhook %}\n\n"+
			"{% openapi-schemas spec=\"petstore\" schemas=\"Pet\" grouped=\"false\" %}\nOpenAPI petstore\n{% endopenapi-schemas %}\n"),
	)
	for path, want := range map[string]string{
		"by-slug": `{"method":"put","path":"/pets/{petId}","ref":{"kind":"openapi","spec":"petstore"}}`,
		"by-src":  `{"method":"put","path":"/pets/{petId}","ref":{"kind":"url","url":"petstore"}}`,
	} {
		r := f.e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/content/path/"+path+"?format=document", nil)
		nodes := r.Map(t)["document"].(map[string]any)["nodes"].([]any)
		if data, _ := json.Marshal(nodes[0].(map[string]any)["data"]); string(data) != want {
			t.Errorf("%s reads back as %s, want %s", path, data, want)
		}
	}
	noSpec := operationDoc("", "/a", "get")
	cr := "/v1/spaces/" + f.space + "/change-requests/" + fmt.Sprint(f.e.Do(f.admin, "POST", "/v1/spaces/"+f.space+"/change-requests",
		map[string]any{"subject": "x"}).Map(t)["number"])
	bad := f.e.Do(f.admin, "POST", cr+"/content?compat=false", map[string]any{"changes": []any{withDoc("Bad", noSpec)}})
	if bad.Status != http.StatusBadRequest || !strings.Contains(string(bad.Body), "nodes[0]: data.ref of an openapi-operation must be an openapi reference with a spec") {
		t.Errorf("an operation without its spec: %d %s", bad.Status, bad.Body)
	}
	for _, path := range []string{"/sites/acme/by-slug", "/sites/acme/by-src"} {
		status, _, body := f.get(t, path)
		if status != 200 {
			t.Fatalf("%s: %d %s", path, status, body)
		}
		for _, want := range []string{`<span class="api-method" data-method="put">PUT</span>`, `<code class="api-path">/pets/{petId}</code>`,
			"Update a pet", "Path parameters", `<code class="api-name">parent</code>`, "Recursive: Pet is described above.",
			"curl -X PUT", `<details class="expandable api-response" open>`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %s", path, want)
			}
		}
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "javascript:") || strings.Contains(body, "<b>name") {
			t.Errorf("%s lets the spec's markup through", path)
		}
		checkHTML(t, body)
	}
	status, _, missing := f.get(t, "/sites/acme/missing")
	for _, want := range []string{`The organization has no OpenAPI specification &#34;nope&#34;.`,
		`has no operation DELETE &#34;/pets/{petId}&#34;.`, `has no path &#34;/pets&#34;.`} {
		if status != 200 || !strings.Contains(missing, want) {
			t.Errorf("missing: %d, lacks %s", status, want)
		}
	}
	if status, _, body := f.get(t, "/sites/acme/hostile"); status != 200 || !strings.Contains(body, "has no path") || strings.Contains(body, "<script>") {
		t.Errorf("hostile: %d", status)
	}
	if _, _, hooks := f.get(t, "/sites/acme/hooks"); !strings.Contains(hooks, `<span class="api-webhook">Webhook</span> <code class="api-path">petAdded</code>`) ||
		!strings.Contains(hooks, "<summary>The Pet object</summary>") {
		t.Errorf("the webhook and schemas page: %s", hooks)
	}
	_, _, md := f.get(t, "/sites/acme/by-slug.md")
	for _, want := range []string{"### `PUT /pets/{petId}`", "| `petId` | path | integer | yes |", "* `parent` (Pet)", "curl -X PUT"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %s:\n%s", want, md)
		}
	}

	f.e.Do(f.admin, "PUT", specs+"/petstore", map[string]any{"source": map[string]any{"text": petstoreSpec("Replace a pet")}})
	f.e.RunDueJobs()
	if _, _, body := f.get(t, "/sites/acme/by-slug"); !strings.Contains(body, "Replace a pet") {
		t.Error("the page does not show the spec's new version")
	}
	if _, _, md := f.get(t, "/sites/acme/by-slug.md"); !strings.Contains(md, "Replace a pet") {
		t.Error("the Markdown does not show the spec's new version")
	}
	other := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs", map[string]any{"title": "Other"}))
	f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+other+"/openapi", map[string]any{"slug": "theirs", "source": map[string]any{"text": petstoreSpec("Theirs")}}))
	f.e.RunDueJobs()
	f.write(t, withDoc("Theirs", operationDoc("theirs", "/pets/{petId}", "put")))
	if _, _, body := f.get(t, "/sites/acme/theirs"); strings.Contains(body, "api-method") || !strings.Contains(body, "no OpenAPI specification") {
		t.Error("a page shows a spec of another organization")
	}
	f.e.Do(f.admin, "POST", specs, map[string]any{"slug": "later", "source": map[string]any{"text": petstoreSpec("x")}})
	f.write(t, withDoc("Later", operationDoc("later", "/pets/{petId}", "put")))
	if _, _, body := f.get(t, "/sites/acme/later"); !strings.Contains(body, "is not processed yet") {
		t.Error("a spec not processed yet shows no notice")
	}
}
