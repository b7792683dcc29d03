package rest_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// headCommit is the head commit of a bare repository's main branch and the paths it changed
// from its parent (every path of a first commit).
func headCommit(t *testing.T, repo *git.Repository) (*object.Commit, []string) {
	t.Helper()
	ref, err := repo.Reference("refs/heads/main", true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := repo.CommitObject(ref.Hash())
	if err != nil {
		t.Fatal(err)
	}
	tree, _ := c.Tree()
	var before *object.Tree
	if p, err := c.Parent(0); err == nil {
		before, _ = p.Tree()
	}
	changes, err := object.DiffTree(before, tree)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, ch := range changes {
		paths = append(paths, ch.To.Name)
	}
	slices.Sort(paths)
	return c, paths
}

func allowLocalGit(o *server.Options) { o.GitAllowLocal = true }

func TestGitSyncExportsEveryMerge(t *testing.T) {
	f := newContentFixture(t, allowLocalGit)
	dir := t.TempDir()
	bare, err := git.PlainInit(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	body := map[string]any{"url": "file://" + dir, "ref": "refs/heads/main", "commitMessage": "Link the docs"}

	crWantError(t, f.e.Do(f.admin, "GET", f.spacePath("/git/info"), nil), http.StatusNotFound, "not linked")
	crWantError(t, f.e.Do(f.reader, "POST", f.spacePath("/git/export"), body), http.StatusForbidden)
	crWantError(t, f.e.Do(f.outsider, "POST", f.spacePath("/git/export"), body), http.StatusNotFound)
	for _, bad := range []map[string]any{{"ref": "refs/heads/main", "commitMessage": "m"}, {"url": "file://" + dir, "commitMessage": "m"},
		{"url": "file://" + dir, "ref": "refs/heads/main"}, {"url": "ssh://h/r", "ref": "refs/heads/main", "commitMessage": "m"},
		{"url": "file://" + dir, "ref": "main", "commitMessage": "m"}, {"url": "file://" + dir, "ref": "refs/heads/a..b", "commitMessage": "m"},
		{"url": "file://" + dir, "ref": "refs/heads/main", "commitMessage": "m", "repoProjectDirectory": "../up"}} {
		crWantError(t, f.e.Do(f.admin, "POST", f.spacePath("/git/export"), bad), http.StatusBadRequest)
	}
	if f.e.RunDueJobs(); f.e.Do(f.admin, "GET", f.spacePath("/git/info"), nil).Status != http.StatusNotFound {
		t.Fatal("a refused call linked the space")
	}

	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/git/export"), body), http.StatusNoContent)
	f.e.RunDueJobs()
	first, paths := headCommit(t, bare)
	want := ".gitbook.yaml .gitbook/assets/logo.png .gitbook/assets/résumé -final-.txt README.md SUMMARY.md api.md guides/café.md guides/getting-started.md"
	if got := strings.Join(paths, " "); got != want || first.Message != "First pages" {
		t.Fatalf("first export %q: %s\nwant %s", first.Message, got, want)
	}
	var info struct {
		InstallationID string
		RepoName       string
		Operation      struct{ State, Direction string }
	}
	f.get(t, f.admin, "/git/info").JSON(t, &info)
	if info.Operation.State != "success" || info.Operation.Direction != "export" || info.InstallationID == "" {
		t.Fatalf("info %+v", info)
	}

	// A merge exports on its own: one commit, the changed page only, by the change request's
	// author with its subject.
	mergeContent(t, f.e, f.admin, f.space, map[string]any{"operation": "update_page", "page": f.pages["api"],
		"document": map[string]any{"markdown": "# API\n\nEndpoints, all of them.\n"}})
	f.e.RunDueJobs()
	second, paths := headCommit(t, bare)
	if strings.Join(paths, " ") != "api.md" || second.Message != "Pages" || second.Author.Email != "ada@example.com" ||
		second.ParentHashes[0] != first.Hash {
		t.Fatalf("merge export: %v %q %v", paths, second.Message, second.Author)
	}
	if f.e.RunDueJobs(); mustHead(t, bare) != second.Hash.String() {
		t.Fatal("an export ran again with nothing new")
	}
}

func mustHead(t *testing.T, repo *git.Repository) string {
	c, _ := headCommit(t, repo)
	return c.Hash.String()
}

// TestGitSyncTokenStaysSecret links a space with credentials in the URL: they are sealed, never
// shown, and the failure of an unreachable repository does not name them.
func TestGitSyncTokenStaysSecret(t *testing.T) {
	logs := testenv.CaptureLog(t)
	f := newContentFixture(t)
	const token = "ghp_s3cretT0ken"
	crWantError(t, f.e.Do(f.admin, "POST", f.spacePath("/git/export"), map[string]any{"url": "file:///tmp/x", "ref": "refs/heads/main", "commitMessage": "m"}),
		http.StatusBadRequest, "--git-allow-local")
	crWant(t, f.e.Do(f.admin, "POST", f.spacePath("/git/export"),
		map[string]any{"url": "https://bot:" + token + "@127.0.0.1:9/org/docs.git", "ref": "refs/heads/main", "commitMessage": "m"}), http.StatusNoContent)
	f.e.RunDueJobs()
	info := f.get(t, f.admin, "/git/info")
	g := f.e.GraphQL(f.admin, `query($id: ID!) { space(id: $id) { gitSync { url ref hasToken operation { state error } } } }`,
		map[string]any{"id": f.space})
	for _, answer := range []string{string(info.Body), string(g.Data)} {
		if strings.Contains(answer, token) || !strings.Contains(answer, "failure") || !strings.Contains(answer, "https://127.0.0.1:9/org/docs.git") {
			t.Fatalf("answer %s", answer)
		}
	}
	if !strings.Contains(string(g.Data), `"hasToken":true`) {
		t.Fatalf("gitSync %s", g.Data)
	}
	if strings.Contains(logs.String(), token) {
		t.Fatal("the token was logged")
	}
	reader := f.e.GraphQL(f.reader, `query($id: ID!) { space(id: $id) { gitSync { url } } }`, map[string]any{"id": f.space})
	if reader.Code() != "FORBIDDEN" {
		t.Fatalf("a reader read the link: %s", reader.Data)
	}
}
