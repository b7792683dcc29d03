package rest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
)

// reusableOf is a reusable content as REST answers it.
type reusableOf struct {
	ID, Title, Document string
	Git                 *pageGit
}

// reusables reads the reusable contents of a space's main content by title, from the revision
// and each one alone, which must agree.
func reusables(t *testing.T, f *contentFixture, space string) map[string]reusableOf {
	t.Helper()
	var rev struct {
		ID               string
		ReusableContents []reusableOf
	}
	r := f.e.Do(f.admin, "GET", "/v1/spaces/"+space+"/content", nil)
	crWant(t, r, http.StatusOK)
	r.JSON(t, &rev)
	out := map[string]reusableOf{}
	for _, rc := range rev.ReusableContents {
		var alone reusableOf
		f.e.Do(f.admin, "GET", "/v1/spaces/"+space+"/content/reusable-contents/"+rc.ID, nil).JSON(t, &alone)
		if alone.ID != rc.ID || (alone.Git == nil) != (rc.Git == nil) || alone.Git != nil && *alone.Git != *rc.Git {
			t.Fatalf("reusable content %s alone %+v, in the revision %+v", rc.ID, alone, rc)
		}
		doc := f.e.Do(f.admin, "GET", "/v1/spaces/"+space+"/revisions/"+rev.ID+"/reusable-contents/"+rc.ID+"/document", nil)
		crWant(t, doc, http.StatusOK)
		rc.Document = string(doc.Body) // its text, to compare
		out[rc.Title] = rc
	}
	return out
}

// pageMarkdownIn is the Markdown of the page id of a space's main content.
func pageMarkdownIn(t *testing.T, f *contentFixture, space, id string) string {
	t.Helper()
	var p struct{ Markdown string }
	f.e.Do(f.admin, "GET", "/v1/spaces/"+space+"/content/page/"+id+"?format=markdown", nil).JSON(t, &p)
	return p.Markdown
}

// TestGitSyncReusableContentsRoundTrip: a space's reusable contents, placed by its pages, export
// as GitBook's .gitbook/includes files with the pages' include tags relative to them, with their
// git blobs on REST's reads; another space importing the repository gets the same contents and
// placements; an edited include file updates the content (same id); hostile include paths stay
// as text with a warning in the audit log, and the import succeeds.
func TestGitSyncReusableContentsRoundTrip(t *testing.T) {
	f := newContentFixture(t, allowLocalGit)
	answer := mergeContent(t, f.e, f.admin, f.space, insertReusable("w", "Backup warning", "Back up **first**.\n"),
		insertReusable("h", "Need help", "Ask the team.\n"))
	ids := map[string]string{}
	for _, c := range answer["reusableContents"].([]any) {
		c := c.(map[string]any)
		ids[c["ref"].(string)] = c["reusableContent"].(string)
	}
	mergeContent(t, f.e, f.admin, f.space, map[string]any{"operation": "update_page", "page": f.pages["api"],
		"document": map[string]any{"markdown": "# API\n\nEndpoints.\n\n" + include(ids["w"]) + "\n"}},
		map[string]any{"operation": "update_page", "page": f.pages["guides/café"],
			"document": map[string]any{"markdown": "# Café\n\n" + include(ids["w"]) + "\n\nThen:\n\n" + include(ids["h"]) + "\n"}})

	url, _ := gitrepo.Bare(t)
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/git/export"), map[string]any{"url": url, "ref": "refs/heads/main", "commitMessage": "Link"}), http.StatusNoContent)
	f.e.RunDueJobs()
	files := gitrepo.Files(t, url)
	if files[".gitbook/includes/backup-warning.md"] != "---\ntitle: Backup warning\n---\n\nBack up **first**.\n" || files[".gitbook/includes/need-help.md"] == "" {
		t.Fatalf("the repository's includes: %q", files)
	}
	if !strings.Contains(files["api.md"], `{% include ".gitbook/includes/backup-warning.md" %}`) ||
		!strings.Contains(files["guides/café.md"], `{% include "../.gitbook/includes/backup-warning.md" %}`) ||
		!strings.Contains(files["guides/café.md"], `{% include "../.gitbook/includes/need-help.md" %}`) {
		t.Fatalf("the pages' includes:\n%s\n%s", files["api.md"], files["guides/café.md"])
	}
	exported := reusables(t, f, f.space)
	for title, rc := range exported {
		if rc.Git == nil || !strings.HasPrefix(rc.Git.Path, ".gitbook/includes/") {
			t.Fatalf("%s: git %v", title, rc.Git)
		}
		if want := plumbing.ComputeHash(plumbing.BlobObject, []byte(files[rc.Git.Path])).String(); rc.Git.Oid != want {
			t.Fatalf("%s: oid %s, git hash-object gives %s", title, rc.Git.Oid, want)
		}
	}
	var gq struct {
		Space struct {
			Revision struct{ ReusableContents []reusableOf }
		}
	}
	g := f.e.GraphQL(f.admin, `query($id: ID!) { space(id: $id) { revision { reusableContents { id title git { oid path } } } } }`,
		map[string]any{"id": f.space})
	if err := json.Unmarshal(g.Data, &gq); err != nil || len(g.Errors) > 0 || len(gq.Space.Revision.ReusableContents) != 2 {
		t.Fatalf("graphql: %s %v", g.Data, g.Errors)
	}
	for _, rc := range gq.Space.Revision.ReusableContents {
		if rc.Git == nil || *rc.Git != *exported[rc.Title].Git {
			t.Fatalf("GraphQL %s: git %v, REST %v", rc.Title, rc.Git, exported[rc.Title].Git)
		}
	}
	var lean struct{ ReusableContents []reusableOf }
	f.get(t, f.admin, "/content?metadata=false").JSON(t, &lean)
	if len(lean.ReusableContents) != 2 || lean.ReusableContents[0].Git != nil {
		t.Fatalf("metadata=false: %+v", lean.ReusableContents)
	}

	// Another space imports the repository: the same contents, placed by the same pages.
	other := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Mirror"})["id"].(string)
	crWant(t, f.e.Do(f.admin, "POST", "/v1/spaces/"+other+"/git/import", map[string]any{"url": url, "ref": "refs/heads/main"}), http.StatusNoContent)
	f.e.RunDueJobs()
	imported := reusables(t, f, other)
	if len(imported) != 2 {
		t.Fatalf("imported %+v", imported)
	}
	for title, rc := range exported {
		got := imported[title]
		if got.ID == "" || got.ID == rc.ID || got.Document != rc.Document || got.Git == nil || *got.Git != *rc.Git {
			t.Fatalf("%s imported %+v, exported %+v", title, got, rc)
		}
	}
	var tr struct{ Pages []wirePage }
	f.e.Do(f.admin, "GET", "/v1/spaces/"+other+"/content/pages", nil).JSON(t, &tr)
	pages := map[string]string{}
	walkPages(tr.Pages, func(p wirePage) { pages[p.Slug] = p.ID }) // the first page's slug is the importer's
	if md := pageMarkdownIn(t, f, other, pages["café"]); !strings.Contains(md, include(imported["Backup warning"].ID)) ||
		!strings.Contains(md, include(imported["Need help"].ID)) {
		t.Fatalf("the imported café page (pages %v): %s", pages, md)
	}
	if md := pageMarkdownIn(t, f, other, pages["api"]); !strings.Contains(md, include(imported["Backup warning"].ID)) {
		t.Fatalf("the imported api page: %s", md)
	}

	// An include file edited in the repository updates that reusable content, keeping its id.
	gitrepo.Push(t, url, map[string]string{".gitbook/includes/backup-warning.md": "---\ntitle: Backup warning\n---\n\nBack up **twice**.\n"}, "Twice")
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/git/import"), map[string]any{"url": url, "ref": "refs/heads/main"}), http.StatusNoContent)
	f.e.RunDueJobs()
	after := reusables(t, f, f.space)
	warn := after["Backup warning"]
	if warn.ID != ids["w"] || !strings.Contains(warn.Document, "twice") || *warn.Git == *exported["Backup warning"].Git ||
		after["Need help"].Document != exported["Need help"].Document {
		t.Fatalf("after the push %+v", after)
	}

	// Hostile include paths are left as text, with a warning; nothing outside the repository is read.
	hostile := "# API\n\n{% include \"../../etc/passwd\" %}\n\n{% include \"/etc/passwd\" %}\n\n{% include \"README.md\" %}\n"
	gitrepo.Push(t, url, map[string]string{"api.md": hostile, "SUMMARY.md": files["SUMMARY.md"] + "\n"}, "Hostile")
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/git/import"), map[string]any{"url": url, "ref": "refs/heads/main"}), http.StatusNoContent)
	f.e.RunDueJobs()
	var info struct{ Operation struct{ State string } }
	f.get(t, f.admin, "/git/info").JSON(t, &info)
	md := pageMarkdownIn(t, f, f.space, f.pages["api"])
	if info.Operation.State != "success" || !strings.Contains(md, `{% include "../../etc/passwd" %}`) || strings.Contains(md, "root:") {
		t.Fatalf("state %s, api page %s", info.Operation.State, md)
	}
	audit := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/audit-events?limit=100", nil)
	if body := string(audit.Body); !strings.Contains(body, `the include \"../../etc/passwd\" leaves the repository`) ||
		!strings.Contains(body, `the include \"README.md\" is not a Markdown file under .gitbook/includes`) {
		t.Fatalf("audit log %d %s", audit.Status, body)
	}
}

// TestGitSyncImagesOnlyAnIncludeShows: a GitBook repository whose reusable content shows an
// image no page shows imports it — the file, its asset's git blob, the content's document naming
// it — and a whole export writes the include and the asset back byte for byte.
func TestGitSyncImagesOnlyAnIncludeShows(t *testing.T) {
	f := newContentFixture(t, allowLocalGit)
	png := "\x89PNG\r\n\x1a\nthe flow"
	repo := map[string]string{
		"README.md":                   "# Welcome\n\nStart here.\n",
		"SUMMARY.md":                  "# Table of contents\n\n* [Welcome](README.md)\n* [Setup](setup.md)\n",
		"setup.md":                    "# Setup\n\n{% include \".gitbook/includes/flow.md\" %}\n",
		".gitbook/includes/flow.md":   "---\ntitle: Flow\n---\n\n![The flow](../assets/flow.png)\n",
		".gitbook/assets/flow.png":    png,
		".gitbook/assets/unshown.png": "\x89PNG\r\n\x1a\nnobody shows it",
	}
	url, _ := gitrepo.Bare(t)
	gitrepo.Push(t, url, repo, "GitBook's repository")
	space := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "From GitBook"})["id"].(string)
	crWant(t, f.e.Do(f.admin, "POST", "/v1/spaces/"+space+"/git/import", map[string]any{"url": url, "ref": "refs/heads/main"}), http.StatusNoContent)
	f.e.RunDueJobs()

	var rev struct {
		Files []struct {
			ID, Name string
			Git      *pageGit
		}
	}
	f.e.Do(f.admin, "GET", "/v1/spaces/"+space+"/content", nil).JSON(t, &rev)
	if len(rev.Files) != 1 || rev.Files[0].Name != "flow.png" || rev.Files[0].Git == nil ||
		rev.Files[0].Git.Path != ".gitbook/assets/flow.png" ||
		rev.Files[0].Git.Oid != plumbing.ComputeHash(plumbing.BlobObject, []byte(png)).String() {
		t.Fatalf("the space's files %+v", rev.Files)
	}
	flow := reusables(t, f, space)["Flow"]
	if !strings.Contains(flow.Document, rev.Files[0].ID) {
		t.Fatalf("the reusable content's document names no file %s: %s", rev.Files[0].ID, flow.Document)
	}

	out, _ := gitrepo.Bare(t)
	crWant(t, f.e.Do(f.admin, "POST", "/v1/spaces/"+space+"/git/export", map[string]any{"url": out, "ref": "refs/heads/main",
		"commitMessage": "Back", "standalone": true}), http.StatusNoContent)
	back := gitrepo.Files(t, out)
	for _, p := range []string{".gitbook/includes/flow.md", ".gitbook/assets/flow.png", "setup.md"} {
		if back[p] != repo[p] {
			t.Fatalf("%s exported back as %q, the repository had %q", p, back[p], repo[p])
		}
	}
}
