package rest_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
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
						Message       *string
					}
				}
			}
		}
		read := func(t *testing.T, first int, after any) history {
			t.Helper()
			g := e.GraphQL(f.admin, `query($s: ID!, $n: Int, $a: String) { space(id: $s) { history(first: $n, after: $a) {
				totalCount pageInfo { endCursor } edges { node { id type createdBy { id } } changeRequest { subject } message } } } }`,
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
		if newest.Message == nil || *newest.Message != "Rework" || first.Message != nil {
			t.Fatalf("messages: %v, %v", newest.Message, first.Message)
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

// TestRevisionSemanticChangesOfEveryKind reads the kinds TestRevisionSemanticChanges does not
// make: a file edited (its asset changed in git and imported), reusable contents created,
// edited and deleted (each by a merge), files and pages deleted (the first merge read from a
// later revision: files have no delete operation). Every answer is validated against the
// reference's RevisionSemanticChanges by Do.
func TestRevisionSemanticChangesOfEveryKind(t *testing.T) {
	f := newGitFixture(t)
	e := f.e
	type change struct {
		Type            string
		File            *struct{ ID, Name string }
		ReusableContent *struct{ ID, Title string }
		Attributes      map[string]struct{ Before, After any }
	}
	changesOf := func(t *testing.T, rev, query string) []change {
		t.Helper()
		var got struct{ Changes []change }
		f.get(t, f.admin, "/revisions/"+rev+"/changes"+query).JSON(t, &got)
		return got.Changes
	}
	// mergeChanges merges a change request of the changes and returns what its merge changed.
	number := 1
	mergeChanges := func(t *testing.T, changes ...any) []change {
		t.Helper()
		number++
		n := strconv.Itoa(number)
		crWant(t, e.Do(f.admin, "POST", f.spacePath("/change-requests"), map[string]any{"subject": "Snippets " + n}), http.StatusCreated)
		crWant(t, e.Do(f.admin, "POST", f.spacePath("/change-requests/"+n+"/content"), map[string]any{"changes": changes}), http.StatusOK)
		crWant(t, e.Do(f.admin, "POST", f.spacePath("/change-requests/"+n+"/merge"), nil), http.StatusOK)
		rev, _ := f.revision(t)
		return changesOf(t, rev, "")
	}
	firstMerge, _ := f.revision(t)

	t.Run("FileEdited", func(t *testing.T) {
		var asset string
		for path := range gitrepo.Files(t, f.url) {
			if strings.HasSuffix(path, "/logo.png") {
				asset = path
			}
		}
		if asset == "" {
			t.Fatal("the export has no logo.png")
		}
		gitrepo.Push(t, f.url, map[string]string{asset: "a logo of other bytes"}, "New logo")
		f.sync(t)
		rev, _ := f.revision(t)
		// The import (into the main content, unchanged since the export) is in the space's
		// history with its commit's message (decision 557).
		g := e.GraphQL(f.admin, `query($s: ID!) { space(id: $s) { history(first: 1) { edges { node { id } message } } } }`,
			map[string]any{"s": f.space})
		if !strings.Contains(string(g.Data), `"id":"`+rev+`"},"message":"New logo"`) {
			t.Errorf("the import in the history: %s %v", g.Data, g.Errors)
		}
		got := changesOf(t, rev, "")
		if len(got) != 1 || got[0].Type != "file_edited" || got[0].File == nil || got[0].File.ID != f.files["logo.png"] ||
			got[0].Attributes["size"].After != float64(len("a logo of other bytes")) {
			t.Fatalf("a file's bytes changed: %+v", got)
		}
	})
	t.Run("ReusableContents", func(t *testing.T) {
		got := mergeChanges(t, insertReusable("w", "Warning", "Back up first.\n"))
		if len(got) != 1 || got[0].Type != "reusable_content_created" || got[0].ReusableContent == nil || got[0].ReusableContent.Title != "Warning" {
			t.Fatalf("created: %+v", got)
		}
		warning := got[0].ReusableContent.ID
		got = mergeChanges(t, updateReusable(warning, map[string]any{"title": "Backup warning"}))
		if len(got) != 1 || got[0].Type != "reusable_content_edited" || got[0].Attributes["title"].Before != "Warning" ||
			got[0].Attributes["title"].After != "Backup warning" {
			t.Fatalf("edited: %+v", got)
		}
		got = mergeChanges(t, map[string]any{"operation": "delete_reusable_content", "reusableContent": warning})
		if len(got) != 1 || got[0].Type != "reusable_content_deleted" || got[0].ReusableContent == nil || got[0].ReusableContent.ID != warning {
			t.Fatalf("deleted: %+v", got)
		}
	})
	t.Run("FilesAndPagesDeleted", func(t *testing.T) {
		// The space's first revision (empty) read from the first merge: everything it made is gone.
		kinds := map[string]int{}
		for _, c := range changesOf(t, f.initial, "?limit=100&from="+firstMerge) {
			kinds[c.Type]++
		}
		if kinds["file_deleted"] != 2 || kinds["page_deleted"] != 4 || len(kinds) != 2 {
			t.Fatalf("from the first merge to the first revision: %v", kinds)
		}
	})
}
