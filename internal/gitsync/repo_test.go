package gitsync

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
)

func bareRepo(t *testing.T) (string, *git.Repository) {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + dir, repo
}

var author = Signature{Name: "Ada", Email: "ada@example.com", When: time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)}

// changedPaths lists the paths a commit of repo changes from its parent (all its files for a
// first commit).
func changedPaths(t *testing.T, repo *git.Repository, hash string) []string {
	t.Helper()
	c, err := repo.CommitObject(plumbing.NewHash(hash))
	if err != nil {
		t.Fatal(err)
	}
	tree, _ := c.Tree()
	var parentTree *object.Tree
	if p, err := c.Parent(0); err == nil {
		parentTree, _ = p.Tree()
	}
	changes, err := object.DiffTree(parentTree, tree)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ch := range changes {
		out = append(out, ch.From.Name+">"+ch.To.Name)
	}
	slices.Sort(out)
	return out
}

func TestPublishCommitsOnlyWhatChanged(t *testing.T) {
	ctx := context.Background()
	url, bare := bareRepo(t)
	r := Remote{URL: url, Branch: "main"}
	first := []File{{".gitbook.yaml", []byte("root: ./\n")}, {"README.md", []byte("# Home\n")}, {"guide.md", []byte("# Guide\n")},
		{".gitbook/assets/a.png", []byte("PNG")}, {"ci.yml", []byte("keep me")}}
	h1, err := Publish(ctx, r, "", "", first, author, "First")
	if err != nil {
		t.Fatal(err)
	}
	if got := changedPaths(t, bare, h1); len(got) != 5 {
		t.Fatalf("first commit %v", got)
	}
	// The guide changes, the asset goes, a page is added; ci.yml is not the export's and stays.
	second := []File{{".gitbook.yaml", []byte("root: ./\n")}, {"README.md", []byte("# Home\n")}, {"guide.md", []byte("# Guide, edited\n")},
		{"new.md", []byte("# New\n")}}
	h2, err := Publish(ctx, r, "", "", second, author, "Edit the guide")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(changedPaths(t, bare, h2), " "), ".gitbook/assets/a.png> >new.md guide.md>guide.md"; got != want {
		t.Fatalf("second commit changes %q, want %q", got, want)
	}
	c, _ := bare.CommitObject(plumbing.NewHash(h2))
	if c.Message != "Edit the guide" || c.Author.Name != "Ada" || c.Author.Email != "ada@example.com" {
		t.Fatalf("commit %+v", c)
	}
	if h3, err := Publish(ctx, r, "", "", second, author, "Nothing"); err != nil || h3 != h2 {
		t.Fatalf("an unchanged export made commit %s (%v), want none after %s", h3, err, h2)
	}
	snap, err := Read(ctx, r, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range snap.Files {
		paths = append(paths, f.Path)
	}
	if snap.Commit != h2 || strings.Join(paths, " ") != ".gitbook.yaml README.md ci.yml guide.md new.md" {
		t.Fatalf("read %s %v", snap.Commit, paths)
	}
}

func TestCheckURL(t *testing.T) {
	for raw, allowLocal := range map[string]bool{"https://git.example.com/a/b.git": false, "file:///srv/git/a": true, "/srv/git/a": true} {
		if err := CheckURL(raw, allowLocal); err != nil {
			t.Errorf("%s: %v", raw, err)
		}
	}
	for _, raw := range []string{"file:///etc", "/etc", "http://git.example.com/a", "ssh://git@example.com/a", "https://user:pw@example.com/a", "https:///a", "::"} {
		if err := CheckURL(raw, false); !errors.Is(err, ErrRefused) {
			t.Errorf("%s: %v, want refused", raw, err)
		}
	}
	for _, b := range []string{"", "a..b", "a b", "-x/.lock", "~x"} {
		if CheckBranch(b) == nil {
			t.Errorf("branch %q accepted", b)
		}
	}
}

// TestTokenNeverInErrors fails to reach a remote with a token in its path of errors.
func TestTokenNeverInErrors(t *testing.T) {
	r := Remote{URL: "https://127.0.0.1:1/repo.git", Branch: "main", Token: "s3cret-token"}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := Publish(ctx, r, "", "", nil, author, "x")
	if err == nil || strings.Contains(err.Error(), r.Token) {
		t.Fatalf("error %v", err)
	}
	_, err = Read(ctx, r, DefaultLimits)
	if err == nil || strings.Contains(err.Error(), r.Token) {
		t.Fatalf("error %v", err)
	}
}

func TestReadSkipsHostileEntries(t *testing.T) {
	url, bare := bareRepo(t)
	gitrepo.Hostile(t, bare, 2048)
	limits := Limits{MaxFiles: 10, MaxFileBytes: 1024, MaxBytes: 4096}
	snap, err := Read(context.Background(), Remote{URL: url, Branch: "main"}, limits)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Files) != 1 || snap.Files[0].Path != "README.md" {
		t.Fatalf("files %v", snap.Files)
	}
	skipped := strings.Join(snap.Skipped, "\n")
	for _, want := range []string{`"..": the path leaves the repository`, `"link.md": a symbolic link`,
		`"big.png": 2048 bytes`, `: the path is not valid UTF-8`} {
		if !strings.Contains(skipped, want) {
			t.Errorf("skipped:\n%s\nwant %s", skipped, want)
		}
	}
}

func TestReadRefusesTooLargeRepositories(t *testing.T) {
	url, bare := bareRepo(t)
	gitrepo.Hostile(t, bare, 2048)
	r := Remote{URL: url, Branch: "main"}
	if _, err := Read(context.Background(), r, Limits{MaxFiles: 10, MaxFileBytes: 4096, MaxBytes: 1024}); err == nil ||
		!strings.Contains(err.Error(), "more than 1024 bytes together") {
		t.Fatalf("error %v", err)
	}
	if _, err := Read(context.Background(), r, Limits{MaxFiles: 1, MaxFileBytes: 4096, MaxBytes: 1 << 20}); err == nil ||
		!strings.Contains(err.Error(), "more than 1 files") {
		t.Fatalf("error %v", err)
	}
}
