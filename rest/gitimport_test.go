package rest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// gitFixture is the content fixture's space linked to a bare repository by an export.
type gitFixture struct {
	*contentFixture
	url string
}

func newGitFixture(t *testing.T) *gitFixture {
	t.Helper()
	f := &gitFixture{contentFixture: newContentFixture(t, allowLocalGit)}
	f.url, _ = gitrepo.Bare(t)
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/git/export"), map[string]any{"url": f.url, "ref": "refs/heads/main", "commitMessage": "Link"}), http.StatusNoContent)
	f.e.RunDueJobs()
	return f
}

// markdown is the Markdown of the main content's page at path.
func (f *gitFixture) markdown(t *testing.T, suffix string) string {
	t.Helper()
	var p struct{ ID, Markdown string }
	f.get(t, f.admin, suffix+"?format=markdown").JSON(t, &p)
	return p.Markdown
}

// revision is the main content's revision: its id and git commit.
func (f *gitFixture) revision(t *testing.T) (string, map[string]any) {
	t.Helper()
	m := f.get(t, f.admin, "/content").Map(t)
	git, _ := m["git"].(map[string]any)
	return m["id"].(string), git
}

func (f *gitFixture) sync(t *testing.T) {
	t.Helper()
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/git/import"), map[string]any{"url": f.url, "ref": "refs/heads/main"}), http.StatusNoContent)
	f.e.RunDueJobs()
}

func TestGitImportOfAPushChangesOnePage(t *testing.T) {
	f := newGitFixture(t)
	exported := gitrepo.Files(t, f.url)
	before, git := f.revision(t)
	if git == nil || git["createdByGitBook"] != true {
		t.Fatalf("the export's revision names no commit: %v", git)
	}

	// Importing Bindery's own export changes nothing: no ping-pong.
	f.sync(t)
	if now, _ := f.revision(t); now != before {
		t.Fatal("importing the space's own export made a revision")
	}

	// A person's one-file commit becomes one revision that changes that page only.
	md := strings.Replace(exported["api.md"], "Endpoints.", "Endpoints, from git.", 1)
	pushed := gitrepo.Push(t, f.url, map[string]string{"api.md": md}, "Document the endpoints\n\nMore text.")
	f.sync(t)
	rev, git := f.revision(t)
	if rev == before || git["oid"] != pushed || git["createdByGitBook"] != false || git["message"] != "Document the endpoints\n\nMore text." {
		t.Fatalf("revision %s git %v", rev, git)
	}
	if got := f.markdown(t, "/content/page/"+f.pages["api"]); !strings.Contains(got, "Endpoints, from git.") {
		t.Fatalf("api page %q", got)
	}
	var diff struct{ Changes []struct{ Type string } }
	f.get(t, f.admin, "/revisions/"+rev+"/changes").JSON(t, &diff)
	if len(diff.Changes) != 1 {
		t.Fatalf("the import changed %d pages: %+v", len(diff.Changes), diff.Changes)
	}
	// The import is not exported back.
	if f.e.RunDueJobs(); gitrepo.Files(t, f.url)["api.md"] != md || headOf(t, f.url) != pushed {
		t.Fatal("the import was exported back")
	}
	for _, p := range []string{"guides/getting-started", "guides/café"} {
		if f.pages[p] == "" || f.e.Do(f.admin, "GET", f.spacePath("/content/page/"+f.pages[p]), nil).Status != http.StatusOK {
			t.Fatalf("page %s lost its id", p)
		}
	}
}

func headOf(t *testing.T, url string) string {
	t.Helper()
	_, repo := openBare(t, url)
	return gitrepo.Head(t, repo)
}

func TestGitImportConcurrentEdits(t *testing.T) {
	f := newGitFixture(t)
	exported := gitrepo.Files(t, f.url)

	// Both sides change other pages: the commit arrives as a change request merged at once, and
	// the merge is exported on top of the commit.
	mergeContent(t, f.e, f.admin, f.space, map[string]any{"operation": "update_page", "page": f.pages["guides/café"],
		"document": map[string]any{"markdown": "# Café\n\nCrème brûlée, in Bindery.\n"}})
	pushed := gitrepo.Push(t, f.url, map[string]string{"api.md": strings.Replace(exported["api.md"], "Endpoints.", "Endpoints, in git.", 1)}, "API from git")
	f.e.RunDueJobs()
	if got := f.markdown(t, "/content/page/"+f.pages["api"]); !strings.Contains(got, "in git") {
		t.Fatalf("api page %q; %s", got, f.get(t, f.admin, "/git/info").Body)
	}
	if got := f.markdown(t, "/content/page/"+f.pages["guides/café"]); !strings.Contains(got, "in Bindery") {
		t.Fatalf("café page %q", got)
	}
	files := gitrepo.Files(t, f.url)
	if !strings.Contains(files["api.md"], "in git") || !strings.Contains(files["guides/café.md"], "in Bindery") {
		t.Fatalf("branch: %q %q", files["api.md"], files["guides/café.md"])
	}
	_, repo := openBare(t, f.url)
	head := gitrepo.Head(t, repo)
	if c := commitOf(t, repo, head); head == pushed || c.ParentHashes[0].String() != pushed {
		t.Fatal("the merge was not exported on top of the commit")
	}

	// Both sides change the same lines differently: a change request marked conflicted, the
	// main content and the branch each keep their side.
	mergeContent(t, f.e, f.admin, f.space, map[string]any{"operation": "update_page", "page": f.pages["api"],
		"document": map[string]any{"markdown": "# API\n\nEndpoints, edited in Bindery.\n"}})
	conflicting := strings.Replace(files["api.md"], "Endpoints, in git.", "Endpoints, edited in git.", 1)
	pushed = gitrepo.Push(t, f.url, map[string]string{"api.md": conflicting}, "Conflicting edit")
	f.e.RunDueJobs()
	if got := f.markdown(t, "/content/page/"+f.pages["api"]); !strings.Contains(got, "edited in Bindery") {
		t.Fatalf("the main content lost its side: %q", got)
	}
	if headOf(t, f.url) != pushed || gitrepo.Files(t, f.url)["api.md"] != conflicting {
		t.Fatal("the export overwrote the branch's side")
	}
	g := f.e.GraphQL(f.admin, `query($id: ID!) { space(id: $id) { gitSync { changeRequest operation { state direction error } } } }`,
		map[string]any{"id": f.space})
	var data struct {
		Space struct {
			GitSync struct{ ChangeRequest *string }
		}
	}
	if err := json.Unmarshal(g.Data, &data); err != nil {
		t.Fatal(err)
	}
	if data.Space.GitSync.ChangeRequest == nil {
		t.Fatalf("no change request waits: %s", g.Data)
	}
	cr := f.get(t, f.admin, "/change-requests/"+*data.Space.GitSync.ChangeRequest).Map(t)
	if cr["status"] != "open" || !strings.HasPrefix(cr["subject"].(string), "Git: Conflicting edit") {
		t.Fatalf("change request %v", cr)
	}
	crMD := f.markdown(t, "/change-requests/"+cr["id"].(string)+"/content/page/"+f.pages["api"])
	if !strings.Contains(crMD, "<<<<<<<") || !strings.Contains(crMD, "edited in git") || !strings.Contains(crMD, "edited in Bindery") {
		t.Fatalf("change request's page %q", crMD)
	}
}

func TestGitImportForcePushIsAChangeRequest(t *testing.T) {
	f := newGitFixture(t)
	before, _ := f.revision(t)
	exported := gitrepo.Files(t, f.url)
	rewritten := map[string]string{}
	for p, data := range exported {
		rewritten[p] = data
	}
	rewritten["api.md"] = strings.Replace(exported["api.md"], "Endpoints.", "Endpoints, rewritten.", 1)
	gitrepo.ForcePush(t, f.url, rewritten, "Rewrite history")
	f.sync(t)
	if now, _ := f.revision(t); now != before {
		t.Fatal("a force-push changed the main content")
	}
	var list struct{ Items []map[string]any }
	f.get(t, f.admin, "/change-requests").JSON(t, &list)
	var found map[string]any
	for _, cr := range list.Items {
		if strings.HasPrefix(cr["subject"].(string), "Git: Rewrite history") {
			found = cr
		}
	}
	if found == nil || found["status"] != "open" {
		t.Fatalf("change requests %v", list.Items)
	}
	md := f.markdown(t, "/change-requests/"+found["id"].(string)+"/content/page/"+f.pages["api"])
	if !strings.Contains(md, "rewritten") {
		t.Fatalf("the change request's page %q", md)
	}
}

func TestGitImportIntoAnEmptySpaceAndStandalone(t *testing.T) {
	f := newContentFixture(t, allowLocalGit)
	url, _ := gitrepo.Bare(t)
	gitrepo.Push(t, url, map[string]string{
		"README.md":                "# Welcome\n\nHello.\n",
		"SUMMARY.md":               "# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n",
		"guide/README.md":          "# Guide\n\nRead on: [install](install.md).\n",
		"guide/install.md":         "# Install\n\n![shot](../.gitbook/assets/shot.png)\n",
		".gitbook/assets/shot.png": "PNG",
	}, "First docs")
	s := createSpace(t, f.e, f.admin, f.org, map[string]any{"title": "Empty"})
	path := "/v1/spaces/" + s["id"].(string)
	body := map[string]any{"url": url, "ref": "refs/heads/main"}

	crWantError(t, f.e.Do(f.reader, "POST", path+"/git/import", body), http.StatusForbidden)
	crWantError(t, f.e.Do(f.outsider, "POST", path+"/git/import", body), http.StatusNotFound)
	crWantError(t, f.e.Do(f.admin, "POST", path+"/git/import", map[string]any{"url": url}), http.StatusBadRequest, "ref")
	crWantError(t, f.e.Do(f.admin, "POST", path+"/git/import", map[string]any{"url": "http://example.com/r.git", "ref": "refs/heads/main"}), http.StatusBadRequest, "https")

	// Standalone: a change request, the main content untouched, no link.
	crWant(t, f.e.Do(f.admin, "POST", path+"/git/import", map[string]any{"url": url, "ref": "refs/heads/main", "standalone": true}), http.StatusNoContent)
	crWantError(t, f.e.Do(f.admin, "GET", path+"/git/info", nil), http.StatusNotFound)
	var crs struct{ Items []map[string]any }
	crWant(t, f.e.Do(f.admin, "GET", path+"/change-requests", nil), http.StatusOK)
	f.e.Do(f.admin, "GET", path+"/change-requests", nil).JSON(t, &crs)
	if len(crs.Items) != 1 || crs.Items[0]["subject"] != "Git: First docs" {
		t.Fatalf("change requests %v", crs.Items)
	}

	// Linked: the head becomes the main content.
	crWant(t, f.e.Do(f.admin, "POST", path+"/git/import", body), http.StatusNoContent)
	f.e.RunDueJobs()
	var tr struct{ Pages []wirePage }
	f.e.Do(f.admin, "GET", path+"/content/pages", nil).JSON(t, &tr)
	var titles []string
	walkPages(tr.Pages, func(p wirePage) { titles = append(titles, p.Path+"="+p.Title) })
	if got := strings.Join(titles[1:], " "); titles[0] != "page=Welcome" || got != "guide=Guide guide/install=Install" {
		t.Fatalf("pages %s", got)
	}
	var info struct {
		Operation struct{ State, Direction string }
	}
	f.e.Do(f.admin, "GET", path+"/git/info", nil).JSON(t, &info)
	if info.Operation.State != "success" || info.Operation.Direction != "import" {
		t.Fatalf("info %+v", info)
	}
}

func TestGitImportHostileRepository(t *testing.T) {
	f := newContentFixture(t, allowLocalGit)
	url, repo := gitrepo.Bare(t)
	gitrepo.Hostile(t, repo, 20<<20)
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/git/import"), map[string]any{"url": url, "ref": "refs/heads/main"}), http.StatusNoContent)
	f.e.RunDueJobs()
	var tr struct{ Pages []wirePage }
	f.get(t, f.admin, "/content/pages").JSON(t, &tr)
	if len(tr.Pages) != 1 || tr.Pages[0].Title != "Home" {
		t.Fatalf("pages %+v", tr.Pages)
	}
	var files struct{ Items []wireFile }
	if f.get(t, f.admin, "/content/files").JSON(t, &files); len(files.Items) != 0 {
		t.Fatalf("files %+v", files.Items)
	}
}

// TestGitImportLogsNoToken runs an import whose repository cannot be reached with a token: the
// failure is recorded without it, and nothing logs it.
func TestGitImportLogsNoToken(t *testing.T) {
	logs := testenv.CaptureLog(t)
	f := newContentFixture(t)
	const token = "glpat-s3cret"
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/git/import"),
		map[string]any{"url": "https://oauth2:" + token + "@127.0.0.1:9/org/docs.git", "ref": "refs/heads/main"}), http.StatusNoContent)
	f.e.RunDueJobs()
	info := f.get(t, f.admin, "/git/info")
	if strings.Contains(string(info.Body), token) || !strings.Contains(string(info.Body), "failure") || strings.Contains(logs.String(), token) {
		t.Fatalf("info %s", info.Body)
	}
}

func openBare(t *testing.T, url string) (string, *git.Repository) {
	t.Helper()
	repo, err := git.PlainOpen(strings.TrimPrefix(url, "file://"))
	if err != nil {
		t.Fatal(err)
	}
	return url, repo
}

func commitOf(t *testing.T, repo *git.Repository, hash string) *object.Commit {
	t.Helper()
	c, err := repo.CommitObject(plumbing.NewHash(hash))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGitRevisionCommitsReadTogether reads Revision.git of a history's revisions with one
// statement, however many revisions name a commit.
func TestGitRevisionCommitsReadTogether(t *testing.T) {
	f := newGitFixture(t)
	exported := gitrepo.Files(t, f.url)
	for i := range 2 {
		md := strings.Replace(exported["api.md"], "Endpoints.", fmt.Sprintf("Endpoints, push %d.", i), 1)
		gitrepo.Push(t, f.url, map[string]string{"api.md": md}, fmt.Sprintf("Push %d", i))
		f.sync(t)
	}
	var got struct {
		Space struct {
			History struct {
				Edges []struct {
					Node struct {
						ID  string
						Git *struct{ Oid string }
					}
				}
			}
		}
	}
	sent := f.e.StatementsSent(func() {
		g := f.e.GraphQL(f.admin, `query($s: ID!) { space(id: $s) { history(first: 10) { edges { node { id git { oid } } } } } }`,
			map[string]any{"s": f.space})
		if err := json.Unmarshal(g.Data, &got); err != nil || len(g.Errors) > 0 {
			t.Fatalf("history: %s %v", g.Data, g.Errors)
		}
	})
	reads, named := 0, 0
	for _, q := range sent {
		if strings.Contains(q, "git_commits") {
			reads++
		}
	}
	for _, e := range got.Space.History.Edges {
		if e.Node.Git != nil {
			named++
		}
	}
	if named != 3 || reads != 1 {
		t.Fatalf("%d revisions name a commit, read with %d statements: %+v", named, reads, got)
	}
}

// TestGitExportKeepsAPersonsFiles exports a merge after a person's push: the commit writes the
// merged page alone, and the page the person wrote keeps the person's bytes.
func TestGitExportKeepsAPersonsFiles(t *testing.T) {
	f := newGitFixture(t)
	exported := gitrepo.Files(t, f.url)
	mine := exported["guides/café.md"] + "\n\n\nA paragraph, spaced as a person spaces it.\n"
	gitrepo.Push(t, f.url, map[string]string{"guides/café.md": mine}, "Spacing")
	f.sync(t)
	mergeContent(t, f.e, f.admin, f.space, map[string]any{"operation": "update_page", "page": f.pages["api"],
		"document": map[string]any{"markdown": "# API\n\nEndpoints, merged.\n"}})
	f.e.RunDueJobs()
	files := gitrepo.Files(t, f.url)
	if files["guides/café.md"] != mine || !strings.Contains(files["api.md"], "Endpoints, merged.") {
		t.Fatalf("café.md %q, api.md %q", files["guides/café.md"], files["api.md"])
	}
	_, repo := openBare(t, f.url)
	if _, paths := headCommit(t, repo); strings.Join(paths, " ") != "api.md" {
		t.Fatalf("the export's commit changes %v", paths)
	}
}
