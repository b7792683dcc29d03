// Package gitrepo makes git repositories for tests with go-git: bare ones on the disk, commits
// pushed onto their branches the way a person's would be, force-pushes, and hostile trees.
package gitrepo

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-billy/v5/memfs"
	"github.com/go-git/go-billy/v5/util"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"
)

var when = time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)

// Bare makes a bare repository in a temporary folder: its file:// URL and the repository.
func Bare(t testing.TB) (string, *git.Repository) {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	return "file://" + dir, repo
}

// Push commits files onto the head of branch main of the repository at url, as a person's push:
// each path's new content, or its removal for "". Returns the commit's hash.
func Push(t testing.TB, url string, files map[string]string, message string) string {
	t.Helper()
	repo, err := git.Clone(memory.NewStorage(), memfs.New(), &git.CloneOptions{URL: url, ReferenceName: "refs/heads/main", SingleBranch: true})
	if errors.Is(err, transport.ErrEmptyRemoteRepository) {
		return ForcePush(t, url, files, message)
	}
	if err != nil {
		t.Fatal(err)
	}
	return commitAndPush(t, repo, files, message, false)
}

// ForcePush replaces branch main of the repository at url with one commit of files, which does
// not follow its former head. Returns the commit's hash.
func ForcePush(t testing.TB, url string, files map[string]string, message string) string {
	t.Helper()
	repo, err := git.Init(memory.NewStorage(), memfs.New())
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, "refs/heads/main")); err != nil {
		t.Fatal(err)
	}
	if _, err := repo.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{url}}); err != nil {
		t.Fatal(err)
	}
	return commitAndPush(t, repo, files, message, true)
}

func commitAndPush(t testing.TB, repo *git.Repository, files map[string]string, message string, force bool) string {
	t.Helper()
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for p, data := range files {
		if data == "" {
			if _, err := wt.Remove(p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := util.WriteFile(wt.Filesystem, p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "Grace", Email: "grace@example.com", When: when}
	h, err := wt.Commit(message, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		t.Fatal(err)
	}
	spec := config.RefSpec("refs/heads/main:refs/heads/main")
	if force {
		spec = "+" + spec
	}
	if err := repo.Push(&git.PushOptions{RefSpecs: []config.RefSpec{spec}}); err != nil {
		t.Fatal(err)
	}
	return h.String()
}

// Files reads the files of the head of branch main of the repository at url.
func Files(t testing.TB, url string) map[string]string {
	t.Helper()
	fs := memfs.New()
	if _, err := git.Clone(memory.NewStorage(), fs, &git.CloneOptions{URL: url, ReferenceName: "refs/heads/main", SingleBranch: true}); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	err := util.Walk(fs, "", func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := util.ReadFile(fs, p)
		out[strings.TrimPrefix(p, "/")] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Head is the hash of the head of branch main of repo.
func Head(t testing.TB, repo *git.Repository) string {
	t.Helper()
	ref, err := repo.Reference("refs/heads/main", true)
	if err != nil {
		t.Fatal(err)
	}
	return ref.Hash().String()
}

// Hostile writes a commit on branch main whose tree holds what a checkout must never write: a path
// through "..", a symbolic link, a name that is not UTF-8, and a file larger than allowed.
func Hostile(t testing.TB, repo *git.Repository, big int) {
	t.Helper()
	blob := func(data string) plumbing.Hash {
		o := repo.Storer.NewEncodedObject()
		o.SetType(plumbing.BlobObject)
		w, _ := o.Writer()
		_, _ = w.Write([]byte(data))
		_ = w.Close()
		h, err := repo.Storer.SetEncodedObject(o)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	tree := func(entries ...object.TreeEntry) plumbing.Hash {
		o := repo.Storer.NewEncodedObject()
		if err := (&object.Tree{Entries: entries}).Encode(o); err != nil {
			t.Fatal(err)
		}
		h, err := repo.Storer.SetEncodedObject(o)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	etc := tree(object.TreeEntry{Name: "passwd", Mode: filemode.Regular, Hash: blob("root:x:0:0")})
	up := tree(object.TreeEntry{Name: "etc", Mode: filemode.Dir, Hash: etc})
	root := tree(
		object.TreeEntry{Name: "..", Mode: filemode.Dir, Hash: up},
		object.TreeEntry{Name: "README.md", Mode: filemode.Regular, Hash: blob("# Home\n")},
		object.TreeEntry{Name: "big.png", Mode: filemode.Regular, Hash: blob(strings.Repeat("x", big))},
		object.TreeEntry{Name: "link.md", Mode: filemode.Symlink, Hash: blob("/etc/passwd")},
		object.TreeEntry{Name: "\xff\xfe.md", Mode: filemode.Regular, Hash: blob("bad name")},
	)
	c := &object.Commit{Author: object.Signature{Name: "Eve", When: when}, Committer: object.Signature{Name: "Eve", When: when},
		Message: "hostile", TreeHash: root}
	o := repo.Storer.NewEncodedObject()
	if err := c.Encode(o); err != nil {
		t.Fatal(err)
	}
	h, err := repo.Storer.SetEncodedObject(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewHashReference("refs/heads/main", h)); err != nil {
		t.Fatal(err)
	}
}
