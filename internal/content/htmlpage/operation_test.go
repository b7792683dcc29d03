package htmlpage

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/apiref"
	"github.com/binderyhq/bindery/internal/document"
)

// specOperations gives the operations of one spec, as internal/openapispecs gives a spec's latest
// version's.
type specOperations struct{ spec *apiref.Spec }

func (o specOperations) Operation(ref document.OpenAPIRef) (*apiref.Operation, string) {
	found, err := o.spec.Operation(ref.Path, ref.Method)
	if ref.Name != "" {
		found, err = o.spec.Webhook(ref.Name, ref.Method)
	}
	if err != nil {
		return nil, err.Error()
	}
	return found, ""
}

func (o specOperations) Schemas(ref document.OpenAPIRef) ([]*apiref.Schema, string) {
	return o.spec.Schemas(ref.Schemas), ""
}

func specOf(t testing.TB, name string, doc []byte) specOperations {
	t.Helper()
	fs, err := json.Marshal(map[string]json.RawMessage{name: doc})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := apiref.NewSpec(fs, name)
	if !ok {
		t.Fatal("the spec cannot be read")
	}
	return specOperations{s}
}

const hostileSpec = `{"openapi": "3.1.0", "webhooks": {"ping": {"post": {"summary": "Pinged",
  "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}}}}},
  "paths": {"/a/{id}": {"post": {
  "summary": "<img src=x onerror=alert(1)>",
  "description": "[x](javascript:alert(1)) <script>alert(2)</script>\n\n{% openapi-operation spec=\"s\" path=\"/a/{id}\" method=\"post\" %}\nx\n{% endopenapi-operation %}",
  "parameters": [{"name": "\"><script>", "in": "query", "required": true, "schema": {"type": "string", "enum": ["<b>"]}}],
  "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Node"}}}},
  "responses": {"200": {"description": "OK\n\nMore <i>text</i>."}}}}},
  "components": {"schemas": {"Node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}}}}}}`

// TestRenderOperation renders an operation whose texts try markup and script, a description
// holding an operation block (not expanded again), a recursive schema; and the notices of an
// operation there is none of, and of a page rendered without operations.
func TestRenderOperation(t *testing.T) {
	ops := specOf(t, "openapi.json", []byte(hostileSpec))
	md := "{% openapi-operation spec=\"s\" path=\"/a/{id}\" method=\"post\" %}\nOpenAPI s\n{% endopenapi-operation %}\n\n" +
		"{% openapi-operation spec=\"s\" path=\"/a/{id}\" method=\"get\" %}\nOpenAPI s\n{% endopenapi-operation %}\n\n" +
		"{% openapi-webhook spec=\"s\" name=\"ping\" method=\"post\" %}\nOpenAPI s\n{% endopenapi-webhook %}\n\n" +
		"{% openapi-schemas spec=\"s\" schemas=\"Node,Gone\" %}\nOpenAPI s\n{% endopenapi-schemas %}\n"
	page := string(DocumentWith(document.FromMarkdown(md), siteURLs{}, ops).Body)
	if bad := unsafeMarkup(page); bad != "" {
		t.Errorf("the operation renders %s:\n%s", bad, page)
	}
	for _, want := range []string{`<span class="api-method" data-method="post">POST</span>`, "Query parameters",
		`<span class="api-type">array of Node</span>`, "Recursive: Node is described above.", "curl -X POST",
		"GET /a/{id}: the path has no operation of this method",
		`<span class="api-webhook">Webhook</span> <code class="api-path">ping</code>`, "Pinged",
		"<summary>The Node object</summary>", "Its definition Gone is missing from the specification."} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Count(page, `class="api-operation"`) != 2 || strings.Count(page, "curl -X") != 1 {
		t.Error("the operation in the description was expanded")
	}
	if without := string(Document(document.FromMarkdown(md), siteURLs{}).Body); !strings.Contains(without, noOperations) {
		t.Errorf("without operations: %s", without)
	}
}

// TestMarkdownWithOperations replaces operation blocks outside code with their operations in
// Markdown, and leaves one in a code block as it is.
func TestMarkdownWithOperations(t *testing.T) {
	ops := specOf(t, "openapi.json", []byte(hostileSpec))
	tag := "{% openapi-operation spec=\"s\" path=\"/a/{id}\" method=\"post\" %}\nOpenAPI s\n{% endopenapi-operation %}\n"
	md := MarkdownWith("Intro.\n\n"+tag+"\n````md\n"+tag+"````\n\n{% openapi src=\"x\" path=\"/nope\" method=\"get\" %}\n[x](x)\n{% endopenapi %}\n"+
		"\n{% openapi-webhook spec=\"s\" name=\"ping\" method=\"post\" %}\nOpenAPI s\n{% endopenapi-webhook %}\n"+
		"\n{% openapi-schemas spec=\"s\" schemas=\"Node\" %}\nOpenAPI s\n{% endopenapi-schemas %}\n", siteURLs{}, ops)
	for _, want := range []string{"Intro.\n\n### `POST /a/{id}`", "| `\"><script>` | query | string | yes |", "* `children` (array of Node)",
		"````md\n" + tag + "````", "> GET /nope: the specification has no such path\n",
		"### Webhook `POST ping`\n\nPinged\n\n#### Request body", "#### The Node object\n\n`application/json`: Node\n\n* `children` (array of Node)"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
}

// BenchmarkOperationPage renders a page of one operation of GitHub's description (13 MB, `make
// bench-openapi` fetches it): its largest request and response, computed from the processed
// spec kept read as a server keeps it (warm), and from the spec's stored files (cold: the files
// split again). The baseline is a page of two blocks.
func BenchmarkOperationPage(b *testing.B) {
	raw, err := os.ReadFile("../../../.cache/octokit/package/generated/api.github.com.json")
	if err != nil {
		b.Skipf("%v (make bench-openapi fetches it)", err)
	}
	fs, _ := json.Marshal(map[string]json.RawMessage{"api.github.com.json": raw})
	doc := document.New(document.Block("openapi-operation", map[string]any{"path": "/repos/{owner}/{repo}/pulls", "method": "post",
		"ref": map[string]any{"kind": "openapi", "spec": "github"}}))
	b.Run("baseline=2 blocks", func(b *testing.B) {
		plain := document.FromMarkdown("## Pulls\n\nCreates a pull request.\n")
		for b.Loop() {
			Document(plain, siteURLs{})
		}
	})
	b.Run("warm", func(b *testing.B) {
		ops := specOf(b, "api.github.com.json", raw)
		DocumentWith(doc, siteURLs{}, ops)
		for b.Loop() {
			DocumentWith(doc, siteURLs{}, ops)
		}
	})
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			s, _ := apiref.NewSpec(fs, "api.github.com.json")
			DocumentWith(doc, siteURLs{}, specOperations{s})
		}
	})
}
