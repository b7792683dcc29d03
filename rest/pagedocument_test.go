package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestContentPageDocument reads pages with format=document: the body as the reference's JSON
// document (the harness validates every answer against the reference's schema), on every route
// that reads one page, and no Markdown.
func TestContentPageDocument(t *testing.T) {
	f := newContentFixture(t)
	start := f.pages["guides/getting-started"]
	const want = `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","data":{},` +
		`"isVoid":false,"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Install, then ","marks":[]},` +
		`{"object":"leaf","text":"run","marks":[{"object":"mark","type":"bold"}]},{"object":"leaf","text":".","marks":[]}]}]}]}`
	for _, path := range []string{
		"/content/page/" + start + "?format=document",
		"/content/path/guides/getting-started?format=document",
		"/change-requests/1/content/page/" + start + "?format=document",
		"/change-requests/1/content/path/guides%2Fgetting-started?format=document",
		"/revisions/" + f.crRevision + "/page/" + start + "?format=document",
		"/revisions/" + f.crRevision + "/path/guides/getting-started?format=document",
	} {
		t.Run(path, func(t *testing.T) {
			var p struct {
				Markdown *string
				Document json.RawMessage
			}
			f.get(t, f.reader, path).JSON(t, &p)
			if p.Markdown != nil {
				t.Errorf("markdown %q with format=document", *p.Markdown)
			}
			if got := compact(t, p.Document); got != compact(t, []byte(want)) {
				t.Errorf("document %s\nwant %s", got, want)
			}
		})
	}
	t.Run("OKWithoutFormat", func(t *testing.T) {
		if doc, ok := f.get(t, f.reader, "/content/page/"+start).Map(t)["document"]; ok {
			t.Fatalf("document %v without format=document", doc)
		}
	})
	t.Run("OKBlocksAndLinks", func(t *testing.T) {
		body := "See [the API](/pages/" + f.pages["api"] + "#auth) and [the logo](/files/" + f.files["logo.png"] + ").\n\n" +
			"{% hint style=\"warning\" %}\nBack up first.\n{% endhint %}\n\n" +
			"{% tabs %}\n{% tab title=\"Linux\" %}\n```bash\nbindery serve\n```\n{% endtab %}\n{% endtabs %}\n\n" +
			"<details>\n\n<summary>More</summary>\n\n| a   | b   |\n| --- | --: |\n| 1   | 2   |\n\n</details>\n\n" +
			"$$\nx^2\n$$\n"
		crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests"), map[string]any{"subject": "Blocks"}), http.StatusCreated)
		crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests/2/content"), map[string]any{"changes": []any{
			map[string]any{"operation": "insert_page", "title": "Blocks", "document": map[string]any{"markdown": body}},
		}}), http.StatusOK)
		var p struct{ Document json.RawMessage }
		f.get(t, f.reader, "/change-requests/2/content/path/blocks?format=document").JSON(t, &p)
		want, _ := json.Marshal(document.FromMarkdown(body))
		if compact(t, p.Document) != compact(t, want) {
			t.Errorf("document %s\nwant %s", p.Document, want)
		}
		if !strings.Contains(string(want), `{"anchor":"auth","kind":"anchor","page":"`+f.pages["api"]+`"}`) {
			t.Errorf("no anchor reference in %s", want)
		}
	})
}

func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestContentGroupsDocument reads a group, which has no document, and the document of a page on
// GraphQL's ContentPage.document.
func TestContentGroupsDocument(t *testing.T) {
	f := newContentFixture(t)
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	body := tree.Hash([]byte("Hello *you*.\n"))
	f.e.WriteRevision(f.space, "", testenv.Content{
		Tree: treeOf(&tree.Page{ID: "a", Order: "a", Type: "group", Title: "Part", Slug: "part", CreatedAt: at, UpdatedAt: at},
			&tree.Page{ID: "b", Parent: "a", Order: "b", Type: "document", Title: "Intro", Slug: "intro", Body: body, CreatedAt: at, UpdatedAt: at}),
		Bodies: map[string]string{body: "Hello *you*.\n"},
	})
	want := compact(t, must(json.Marshal(document.FromMarkdown("Hello *you*.\n"))))
	t.Run("OKGroupWithFormatDocument", func(t *testing.T) {
		if doc, ok := f.get(t, f.reader, "/content/page/a?format=document").Map(t)["document"]; ok {
			t.Fatalf("group with document %v", doc)
		}
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		var d struct {
			Space struct {
				Revision struct {
					Pages []struct {
						Type     string
						Document json.RawMessage
						Children []struct{ Document json.RawMessage }
					}
				}
			}
		}
		gqlOK(t, f.e.GraphQL(f.reader, `query($s: ID!) { space(id: $s) { revision { pages { type document children { document } } } } }`,
			map[string]any{"s": f.space}), &d)
		pages := d.Space.Revision.Pages
		if len(pages) != 1 || string(pages[0].Document) != "null" || len(pages[0].Children) != 1 {
			t.Fatalf("pages %+v", pages)
		}
		if got := compact(t, pages[0].Children[0].Document); got != want {
			t.Fatalf("document %s, want %s", got, want)
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestContentPageDocumentWrite writes pages as JSON documents, on both surfaces: the document read
// back is the one written (without its keys), and a document Bindery would not keep is refused
// with its path, writing nothing.
func TestContentPageDocumentWrite(t *testing.T) {
	f := newContentFixture(t)
	body := "Read **this** first.\n\n{% hint style=\"info\" %}\nA hint.\n{% endhint %}\n\n## Steps\n\n1. One\n2. Two\n"
	sent := must(json.Marshal(document.FromMarkdown(body)))
	var withKeys map[string]any
	if err := json.Unmarshal(sent, &withKeys); err != nil {
		t.Fatal(err)
	}
	withKeys["nodes"].([]any)[0].(map[string]any)["key"] = "editor-key"
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests"), map[string]any{"subject": "Documents"}), http.StatusCreated)
	read := func(t *testing.T, path string) string {
		var p struct{ Document json.RawMessage }
		f.get(t, f.reader, "/change-requests/2/content/path/"+path+"?format=document").JSON(t, &p)
		return compact(t, p.Document)
	}
	t.Run("OKInsertREST", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests/2/content"), map[string]any{"changes": []any{
			map[string]any{"operation": "insert_page", "title": "Doc", "document": map[string]any{"document": withKeys}},
		}}), http.StatusOK)
		if got := read(t, "doc"); got != compact(t, sent) {
			t.Errorf("document read back %s\nwant %s", got, sent)
		}
		md := f.get(t, f.reader, "/change-requests/2/content/path/doc?format=markdown").Map(t)["markdown"]
		if md, _ := md.(string); !strings.HasSuffix(md, "\n"+body) {
			t.Errorf("markdown %q", md)
		}
	})
	t.Run("OKUpdateGraphQL", func(t *testing.T) {
		page := f.get(t, f.reader, "/change-requests/2/content/path/doc").Map(t)["id"]
		short := document.New(document.Block("paragraph", nil, document.Text(document.NewLeaf("Short now."))))
		var d any
		gqlOK(t, f.e.GraphQL(f.admin, `mutation($s: ID!, $c: [ContentChangeInput!]!) {
			editChangeRequestContent(spaceId: $s, changeRequest: "2", changes: $c) { changes { kind } } }`,
			map[string]any{"s": f.space, "c": []any{map[string]any{"operation": "update_page", "page": page, "document": short}}}), &d)
		if got := read(t, "doc"); got != compact(t, must(json.Marshal(short))) {
			t.Errorf("document read back %s", got)
		}
	})
	t.Run("ErrDataMarkdownCannotKeep", func(t *testing.T) {
		doc := document.New(document.Block("paragraph", map[string]any{"align": "center"}, document.Text(document.NewLeaf("x"))))
		r := f.e.Do(f.admin, "POST", f.spacePath("/change-requests/2/content"), map[string]any{"changes": []any{
			map[string]any{"operation": "insert_page", "title": "Centered", "document": map[string]any{"document": doc}},
		}})
		crWantError(t, r, http.StatusBadRequest, "changes[0].document", "nodes[0].data.align")
		if r := f.e.Do(f.reader, "GET", f.spacePath("/change-requests/2/content/path/centered"), nil); r.Status != http.StatusNotFound {
			t.Errorf("refused page readable: %d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrGraphQLUnknownField", func(t *testing.T) {
		r := f.e.GraphQL(f.admin, `mutation($s: ID!, $c: [ContentChangeInput!]!) {
			editChangeRequestContent(spaceId: $s, changeRequest: "2", changes: $c) { changes { kind } } }`,
			map[string]any{"s": f.space, "c": []any{map[string]any{"operation": "insert_page", "title": "X",
				"document": map[string]any{"object": "document", "nodes": []any{}, "selection": 1}}}})
		if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Message, `changes[0].document: is not a JSON document: json: unknown field "selection"`) {
			t.Fatalf("errors %v", r.Errors)
		}
	})
}

// TestDocumentReads reads documents by themselves: a page's in a revision
// (getPageDocumentInRevisionById) and a document by its id (getDocumentById), in the main content
// and in an open change request; groups have none, and other spaces' documents are not found.
func TestDocumentReads(t *testing.T) {
	f := newContentFixture(t)
	start := f.pages["guides/getting-started"]
	want := compact(t, must(json.Marshal(document.FromMarkdown("Install, then **run**.\n"))))
	t.Run("OKPageInRevision", func(t *testing.T) {
		for _, q := range []string{"", "?evaluated=true&dereferenced=reusable-contents", "?evaluated=deterministic-only&dereferenced=false"} {
			if got := compact(t, f.get(t, f.reader, "/revisions/"+f.crRevision+"/page/"+start+"/document"+q).Body); got != want {
				t.Errorf("%s: document %s", q, got)
			}
		}
	})
	documentID := f.get(t, f.reader, "/content/page/"+start).Map(t)["documentId"].(string)
	t.Run("OKByID", func(t *testing.T) {
		if got := compact(t, f.get(t, f.reader, "/documents/"+documentID+"?schema=next").Body); got != want {
			t.Errorf("document %s", got)
		}
	})
	t.Run("OKByIDInChangeRequest", func(t *testing.T) {
		crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests"), map[string]any{"subject": "Draft"}), http.StatusCreated)
		crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests/2/content"), map[string]any{"changes": []any{
			map[string]any{"operation": "insert_page", "title": "New", "document": map[string]any{"markdown": "Only *here*.\n"}},
		}}), http.StatusOK)
		id := f.get(t, f.reader, "/change-requests/2/content/path/new").Map(t)["documentId"].(string)
		got := compact(t, f.get(t, f.reader, "/documents/"+id).Body)
		if got != compact(t, must(json.Marshal(document.FromMarkdown("Only *here*.\n")))) {
			t.Errorf("document %s", got)
		}
	})
	for name, c := range map[string]struct {
		actor  testenv.Actor
		path   string
		status int
		words  []string
	}{
		"ErrEvaluated":      {f.reader, "/revisions/" + f.crRevision + "/page/" + start + "/document?evaluated=yes", http.StatusBadRequest, []string{"evaluated"}},
		"ErrSchema":         {f.reader, "/documents/" + documentID + "?schema=old", http.StatusBadRequest, []string{"schema"}},
		"ErrUnknownID":      {f.reader, "/documents/sha256:nope", http.StatusNotFound, []string{"sha256:nope"}},
		"ErrOutsiderByID":   {f.outsider, "/documents/" + documentID, http.StatusNotFound, nil},
		"ErrOutsiderOfPage": {f.outsider, "/revisions/" + f.crRevision + "/page/" + start + "/document", http.StatusNotFound, nil},
	} {
		t.Run(name, func(t *testing.T) {
			crWantError(t, f.e.Do(c.actor, "GET", f.spacePath(c.path), nil), c.status, c.words...)
		})
	}
	t.Run("ErrGroup", func(t *testing.T) {
		at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
		rev := f.e.WriteRevision(f.space, "", testenv.Content{
			Tree: treeOf(&tree.Page{ID: "g", Order: "a", Type: "group", Title: "Part", Slug: "part", CreatedAt: at, UpdatedAt: at}),
		})
		crWantError(t, f.e.Do(f.reader, "GET", f.spacePath("/revisions/"+rev+"/page/g/document"), nil), http.StatusNotFound, "group")
	})
	t.Run("ErrOtherSpacesDocument", func(t *testing.T) {
		other := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Other"})["id"].(string)
		crWantError(t, f.e.Do(f.admin, "GET", "/v1/spaces/"+other+"/documents/"+documentID, nil), http.StatusNotFound)
	})
}
