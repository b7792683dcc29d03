package rest_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
)

// pageGit is a page's git blob as REST answers it.
type pageGit struct{ Oid, Path string }

// pagesGit reads the git blobs of every page of the content at suffix ("/content", or a
// revision's "/revisions/<id>"), by page id: from the page tree, and again page by page, which
// must agree.
func (f *gitFixture) pagesGit(t *testing.T, suffix string) map[string]pageGit {
	t.Helper()
	var tr struct{ Pages json.RawMessage }
	out := map[string]pageGit{}
	var walk func(raw json.RawMessage)
	walk = func(raw json.RawMessage) {
		var pages []struct {
			ID    string
			Git   *pageGit
			Pages json.RawMessage
		}
		if err := json.Unmarshal(raw, &pages); err != nil {
			t.Fatal(err)
		}
		for _, p := range pages {
			if p.Git != nil {
				out[p.ID] = *p.Git
			}
			walk(p.Pages)
		}
	}
	list := f.get(t, f.admin, suffix+"/pages")
	if err := json.Unmarshal(list.Body, &tr); err != nil {
		t.Fatal(err)
	}
	walk(tr.Pages)
	alone := suffix + "/page/"
	if suffix == "/content" {
		alone = "/content/page/"
	}
	for id, want := range out {
		var p struct{ Git *pageGit }
		f.get(t, f.admin, alone+id+"?format=markdown").JSON(t, &p)
		if p.Git == nil || *p.Git != want {
			t.Errorf("page %s alone: git %v, in the tree %v", id, p.Git, want)
		}
	}
	return out
}

// checkBlobs checks that every document page has the blob of its file in the branch's head, as
// git hash-object computes it from the file's bytes.
func (f *gitFixture) checkBlobs(t *testing.T, got map[string]pageGit) {
	t.Helper()
	files := gitrepo.Files(t, f.url)
	if len(got) != len(f.pages) {
		t.Errorf("%d pages have a git blob, want %d: %v", len(got), len(f.pages), got)
	}
	for id, g := range got {
		data, ok := files[g.Path]
		if !ok {
			t.Errorf("page %s: %s is not in the branch's head", id, g.Path)
			continue
		}
		if want := plumbing.ComputeHash(plumbing.BlobObject, []byte(data)).String(); g.Oid != want {
			t.Errorf("page %s (%s): oid %s, git hash-object gives %s", id, g.Path, g.Oid, want)
		}
	}
}

// changedPages are the pages whose blob differs between two readings.
func changedPages(before, after map[string]pageGit) []string {
	var out []string
	for id, b := range after {
		if before[id] != b {
			out = append(out, id)
		}
	}
	for id := range before {
		if _, ok := after[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// TestGitSyncPagesKnowTheirFiles: after an export and after an import every page of the synced
// revision names its Markdown file and that file's blob in the commit; a one-page change changes
// that page's blob only; a former revision keeps the blobs of its own commit.
func TestGitSyncPagesKnowTheirFiles(t *testing.T) {
	f := newGitFixture(t)
	exported, _ := f.revision(t)
	first := f.pagesGit(t, "/content")
	f.checkBlobs(t, first)
	if first[f.pages["api"]].Path != "api.md" || first[f.pages["guides"]].Path != "README.md" {
		t.Fatalf("paths %v", first)
	}

	// A reader of the space reads them too.
	var read struct{ Git *pageGit }
	f.get(t, f.reader, "/content/page/"+f.pages["api"]).JSON(t, &read)
	if read.Git == nil || *read.Git != first[f.pages["api"]] {
		t.Fatalf("the reader's api page: git %v", read.Git)
	}

	// metadata=false leaves them out.
	var lean struct{ Pages []struct{ Git *pageGit } }
	f.get(t, f.admin, "/content/pages?metadata=false").JSON(t, &lean)
	for _, p := range lean.Pages {
		if p.Git != nil {
			t.Fatalf("metadata=false answered git %v", p.Git)
		}
	}

	// A merge changing one page exports one file (format.Delta): that page's blob changes, the
	// others keep theirs.
	mergeContent(t, f.e, f.admin, f.space, map[string]any{"operation": "update_page", "page": f.pages["api"],
		"document": map[string]any{"markdown": "# API\n\nEndpoints, all of them.\n"}})
	f.e.RunDueJobs()
	second := f.pagesGit(t, "/content")
	f.checkBlobs(t, second)
	if ch := changedPages(first, second); len(ch) != 1 || ch[0] != f.pages["api"] {
		t.Fatalf("a one-page export changed the blobs of %v", ch)
	}

	// A person's one-file push, imported: that page's blob is the pushed file's.
	files := gitrepo.Files(t, f.url)
	cafe := second[f.pages["guides/café"]].Path
	gitrepo.Push(t, f.url, map[string]string{cafe: files[cafe] + "\nFrom git.\n"}, "Café from git")
	f.sync(t)
	third := f.pagesGit(t, "/content")
	f.checkBlobs(t, third)
	if ch := changedPages(second, third); len(ch) != 1 || ch[0] != f.pages["guides/café"] {
		t.Fatalf("a one-file import changed the blobs of %v", ch)
	}

	// The first export's revision still names the blobs of its commit.
	if old := f.pagesGit(t, "/revisions/"+exported); !maps.Equal(old, first) {
		t.Fatalf("the exported revision's blobs now %v, were %v", old, first)
	}

	// GraphQL's ContentPage.git says the same.
	g := f.e.GraphQL(f.admin, `query($id: ID!) { space(id: $id) { revision { pages { id git { oid path } children { id git { oid path } } } } } }`,
		map[string]any{"id": f.space})
	var got struct {
		Space struct {
			Revision struct {
				Pages []struct {
					ID       string
					Git      *pageGit
					Children []struct {
						ID  string
						Git *pageGit
					}
				}
			}
		}
	}
	if err := json.Unmarshal(g.Data, &got); err != nil || len(g.Errors) > 0 {
		t.Fatalf("graphql: %s %v", g.Data, g.Errors)
	}
	gql := map[string]pageGit{}
	for _, p := range got.Space.Revision.Pages {
		if p.Git != nil {
			gql[p.ID] = *p.Git
		}
		for _, c := range p.Children {
			if c.Git != nil {
				gql[c.ID] = *c.Git
			}
		}
	}
	if !maps.Equal(gql, third) {
		t.Fatalf("GraphQL %v, REST %v", gql, third)
	}
}

// TestGitSyncBigTreeBlobs: a page tree big enough to be kept encoded answers its pages' blobs,
// read again from the kept encoding, and none with metadata=false.
func TestGitSyncBigTreeBlobs(t *testing.T) {
	f := &gitFixture{contentFixture: newContentFixture(t, allowLocalGit)}
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests"), map[string]any{"subject": "Many"}), http.StatusCreated)
	for batch := range 20 {
		var changes []any
		for i := range 50 {
			changes = append(changes, map[string]any{"operation": "insert_page", "slug": fmt.Sprintf("p%d", batch*50+i),
				"document": map[string]any{"markdown": fmt.Sprintf("# Page %d\n\nText.\n", batch*50+i)}})
		}
		crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests/2/content"), map[string]any{"changes": changes}), http.StatusOK)
	}
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/change-requests/2/merge"), nil), http.StatusOK)
	f.url, _ = gitrepo.Bare(t)
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/git/export"), map[string]any{"url": f.url, "ref": "refs/heads/main", "commitMessage": "Link"}), http.StatusNoContent)
	f.e.RunDueJobs()

	files := gitrepo.Files(t, f.url)
	for round := range 2 { // the second reads the kept encoding
		var tr struct{ Pages []struct{ Git *pageGit } }
		f.get(t, f.admin, "/content/pages").JSON(t, &tr)
		if len(tr.Pages) != 1002 {
			t.Fatalf("%d top-level pages", len(tr.Pages))
		}
		for _, p := range tr.Pages {
			if p.Git == nil || plumbing.ComputeHash(plumbing.BlobObject, []byte(files[p.Git.Path])).String() != p.Git.Oid {
				t.Fatalf("round %d: git %v", round, p.Git)
			}
		}
	}
	var lean struct{ Pages []struct{ Git *pageGit } }
	f.get(t, f.admin, "/content/pages?metadata=false").JSON(t, &lean)
	for _, p := range lean.Pages {
		if p.Git != nil {
			t.Fatalf("metadata=false answered git %v", p.Git)
		}
	}
}
