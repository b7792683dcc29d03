package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestRevisionSemanticChanges merges a change request that edits, moves and deletes pages and
// adds a file, then reads what the merge revision changed, on REST and GraphQL, and a page's
// diff.
func TestRevisionSemanticChanges(t *testing.T) {
	f := newContentFixture(t)
	e := f.e
	before := f.get(t, f.admin, "").Map(t)["revision"].(string)
	crWant(t, e.Do(f.admin, "POST", f.spacePath("/change-requests"), map[string]any{"subject": "Rework"}), http.StatusCreated)
	crWant(t, e.Do(f.admin, "POST", f.spacePath("/change-requests/2/content"), map[string]any{"changes": []any{
		map[string]any{"operation": "update_page", "page": f.pages["api"], "title": "API reference",
			"document": map[string]any{"markdown": "# API reference\n\nEndpoints, all of them.\n"}},
		map[string]any{"operation": "update_page", "page": f.pages["guides/café"], "into": nil},
		map[string]any{"operation": "delete_page", "page": f.pages["guides/getting-started"]},
		map[string]any{"operation": "insert_files", "files": []any{
			map[string]any{"name": "new.txt", "contentType": "text/plain", "base64": "bmV3"}}},
	}}), http.StatusOK)
	crWant(t, e.Do(f.admin, "POST", f.spacePath("/change-requests/2/merge"), nil), http.StatusOK)
	after := f.get(t, f.admin, "").Map(t)["revision"].(string)
	changes := "/v1/spaces/" + f.space + "/revisions/" + after + "/changes"

	type wireChange struct {
		Type       string
		Page       *struct{ ID, Title, Path string }
		Parent     *struct{ Before, After *struct{ ID string } }
		File       *struct{ ID, Name, DownloadURL string }
		Attributes map[string]struct{ Before, After any }
	}
	var got struct {
		MergedFrom *struct{ Number int }
		Changes    []wireChange
		More       int
	}
	if r := e.Do(f.admin, "GET", changes, nil); r.Status != http.StatusOK {
		t.Fatalf("changes: %d %s", r.Status, r.Body)
	} else {
		r.JSON(t, &got)
	}
	t.Run("REST", func(t *testing.T) {
		if got.MergedFrom == nil || got.MergedFrom.Number != 2 || got.More != 0 {
			t.Fatalf("merged from %+v, more %d", got.MergedFrom, got.More)
		}
		kinds := map[string]wireChange{}
		for _, c := range got.Changes {
			kinds[c.Type] = c
		}
		if c := kinds["page_edited"]; c.Page == nil || c.Page.ID != f.pages["api"] || c.Attributes["title"].Before != "API" ||
			c.Attributes["title"].After != "API reference" || c.Attributes["document"].Before == c.Attributes["document"].After {
			t.Fatalf("page_edited: %+v", c)
		}
		if c := kinds["page_moved"]; c.Page == nil || c.Page.Path != "café" || c.Parent == nil || c.Parent.Before == nil ||
			c.Parent.Before.ID != f.pages["guides"] || c.Parent.After != nil {
			t.Fatalf("page_moved: %+v", c)
		}
		if c := kinds["page_deleted"]; c.Page == nil || c.Page.ID != f.pages["guides/getting-started"] {
			t.Fatalf("page_deleted: %+v", c)
		}
		if c := kinds["file_created"]; c.File == nil || c.File.Name != "new.txt" || c.File.DownloadURL == "" {
			t.Fatalf("file_created: %+v", c)
		}
		if len(got.Changes) != 4 {
			t.Fatalf("%d changes: %+v", len(got.Changes), got.Changes)
		}
	})
	t.Run("LimitAndFrom", func(t *testing.T) {
		var limited struct {
			Changes []wireChange
			More    int
		}
		e.Do(f.admin, "GET", changes+"?limit=1", nil).JSON(t, &limited)
		if len(limited.Changes) != 1 || limited.More != 3 {
			t.Fatalf("limit 1: %d changes, more %d", len(limited.Changes), limited.More)
		}
		var all struct{ Changes []wireChange }
		e.Do(f.admin, "GET", changes+"?limit=100&from="+f.initial, nil).JSON(t, &all)
		created := 0
		for _, c := range all.Changes {
			if c.Type == "page_created" || c.Type == "file_created" {
				created++
			}
		}
		if created != 6 { // guides, café, api; logo.png, the notes, new.txt
			t.Fatalf("from the initial revision: %d created, want 6: %+v", created, all.Changes)
		}
	})
	t.Run("Diff", func(t *testing.T) {
		res := e.Raw(f.admin, "GET", changes+"/page/"+f.pages["api"]+"/diff", "", nil)
		if res.Status != http.StatusOK || !strings.Contains(string(res.Body), "-Endpoints.\n") ||
			!strings.Contains(string(res.Body), "+Endpoints, all of them.\n") || !strings.HasPrefix(string(res.Body), "--- "+before) {
			t.Fatalf("diff: %d %s", res.Status, res.Body)
		}
	})
	t.Run("GraphQL", func(t *testing.T) {
		// The space's revision is the merge's.
		g := e.GraphQL(f.admin, `query($s: ID!, $p: ID!) { space(id: $s) { revision {
			changes(first: 2) { more mergedFrom { number } changes { type page { id path } attributes { name before after } } }
			pageDiff(pageId: $p) } } }`, map[string]any{"s": f.space, "p": f.pages["api"]})
		var d struct {
			Space struct {
				Revision struct {
					Changes struct {
						More       int
						MergedFrom struct{ Number int }
						Changes    []struct {
							Type       string
							Attributes []struct{ Name string }
						}
					}
					PageDiff string
				}
			}
		}
		if err := json.Unmarshal(g.Data, &d); err != nil || len(g.Errors) > 0 {
			t.Fatalf("GraphQL: %s %v", g.Data, g.Errors)
		}
		rc := d.Space.Revision.Changes
		if rc.More != 2 || rc.MergedFrom.Number != 2 || len(rc.Changes) != 2 || !strings.Contains(d.Space.Revision.PageDiff, "+Endpoints, all of them.") {
			t.Fatalf("GraphQL: %+v", d)
		}
	})
	t.Run("History", func(t *testing.T) {
		type history struct {
			Space struct {
				History struct {
					TotalCount int
					PageInfo   struct{ EndCursor string }
					Edges      []struct {
						Node struct {
							ID, Type  string
							CreatedBy struct{ ID string }
						}
						ChangeRequest *struct{ Subject string }
					}
				}
			}
		}
		read := func(t *testing.T, first int, after any) history {
			t.Helper()
			g := e.GraphQL(f.admin, `query($s: ID!, $n: Int, $a: String) { space(id: $s) { history(first: $n, after: $a) {
				totalCount pageInfo { endCursor } edges { node { id type createdBy { id } } changeRequest { subject } } } } }`,
				map[string]any{"s": f.space, "n": first, "a": after})
			var h history
			if err := json.Unmarshal(g.Data, &h); err != nil || len(g.Errors) > 0 {
				t.Fatalf("history: %s %v", g.Data, g.Errors)
			}
			return h
		}
		h := read(t, 10, nil).Space.History
		if h.TotalCount != 3 || len(h.Edges) != 3 {
			t.Fatalf("history: %+v", h)
		}
		newest, merged, first := h.Edges[0], h.Edges[1], h.Edges[2]
		if newest.Node.ID != after || newest.ChangeRequest == nil || newest.ChangeRequest.Subject != "Rework" ||
			newest.Node.CreatedBy.ID != f.admin.UserID || merged.ChangeRequest == nil || merged.ChangeRequest.Subject != "First pages" ||
			first.Node.ID != f.initial || first.ChangeRequest != nil {
			t.Fatalf("history: %+v", h.Edges)
		}
		page1 := read(t, 1, nil).Space.History
		page2 := read(t, 1, page1.PageInfo.EndCursor).Space.History
		if len(page2.Edges) != 1 || page2.Edges[0].Node.ID != merged.Node.ID {
			t.Fatalf("the second page of one: %+v", page2.Edges)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		testenv.CheckError(t, e.Do(f.outsider, "GET", changes, nil), http.StatusNotFound)
		testenv.CheckError(t, e.Do(f.admin, "GET", changes+"?from=nosuchrevision", nil), http.StatusNotFound)
		testenv.CheckError(t, e.Do(f.admin, "GET", "/v1/spaces/"+f.space+"/revisions/nosuch/changes", nil), http.StatusNotFound)
		testenv.CheckError(t, e.Do(f.admin, "GET", changes+"/page/nosuchpage/diff", nil), http.StatusNotFound)
		testenv.CheckError(t, e.Do(f.outsider, "GET", changes+"/page/"+f.pages["api"]+"/diff", nil), http.StatusNotFound)
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		for _, l := range []string{"0", "1001", "x", "-1"} {
			testenv.CheckError(t, e.Do(f.admin, "GET", changes+"?limit="+l, nil), http.StatusBadRequest)
		}
	})
}
