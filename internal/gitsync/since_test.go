package gitsync

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
)

// TestReadSinceFollows reads a branch pushed on from a commit and then force-pushed: the same
// files either way, and Follows tells the two apart.
func TestReadSinceFollows(t *testing.T) {
	url, _ := gitrepo.Bare(t)
	files := map[string]string{"README.md": "# Home\n", "guides/café.md": "# Café\n", ".gitbook/assets/résumé -final-.txt": "notes"}
	first := gitrepo.Push(t, url, files, "First")
	gitrepo.Push(t, url, map[string]string{"README.md": "# Home, edited\n"}, "Second")
	r := Remote{URL: url, Branch: "main"}
	paths := func(s *Snapshot) []string {
		var out []string
		for _, f := range s.Files {
			out = append(out, f.Path)
		}
		slices.Sort(out)
		return out
	}
	head, err := Read(context.Background(), r, DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	since, err := ReadSince(context.Background(), r, DefaultLimits, first)
	if err != nil {
		t.Fatal(err)
	}
	if !since.Follows || !slices.Equal(paths(head), paths(since)) {
		t.Fatalf("follows %v: %v, %v", since.Follows, paths(head), paths(since))
	}
	gitrepo.ForcePush(t, url, files, "Rewritten")
	if forced, err := ReadSince(context.Background(), r, DefaultLimits, first); err != nil || forced.Follows {
		t.Fatalf("a force-push follows: %v", err)
	}
}

// TestLocalRepositoryOverTheBoundIsRefused puts a 1 GiB pack (sparse: no disk is used) in a
// local repository: it is refused before any object is read, saying why.
func TestLocalRepositoryOverTheBoundIsRefused(t *testing.T) {
	url, _ := gitrepo.Bare(t)
	gitrepo.Push(t, url, map[string]string{"README.md": "# Home\n"}, "First")
	big, err := os.Create(filepath.Join(strings.TrimPrefix(url, "file://"), "objects", "pack", "pack-big.pack"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	big.Close()
	r := Remote{URL: url, Branch: "main"}
	for _, err := range []error{func() error { _, err := Head(context.Background(), r); return err }(),
		func() error { _, err := Read(context.Background(), r, DefaultLimits); return err }(),
		func() error { _, err := Publish(context.Background(), r, "", "", nil, author, "x"); return err }()} {
		if err == nil || !strings.Contains(err.Error(), "more than 256 MiB") {
			t.Fatalf("error %v", err)
		}
	}
}
