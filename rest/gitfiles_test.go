package rest_test

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/binderyhq/bindery/internal/testkit/gitrepo"
)

// filesGit reads the git blobs of the main content's files, by file id, from the revision, the
// files list, each file alone and GraphQL's RevisionFile.git, which must all agree.
func (f *gitFixture) filesGit(t *testing.T) map[string]pageGit {
	t.Helper()
	type file struct {
		ID  string
		Git *pageGit
	}
	collect := func(files []file) map[string]pageGit {
		out := map[string]pageGit{}
		for _, fl := range files {
			if fl.Git != nil {
				out[fl.ID] = *fl.Git
			}
		}
		return out
	}
	var rev struct{ Files []file }
	f.get(t, f.admin, "/content").JSON(t, &rev)
	out := collect(rev.Files)
	var list struct{ Items []file }
	f.get(t, f.admin, "/content/files").JSON(t, &list)
	var gq struct {
		Space struct {
			Revision struct {
				Files struct{ Edges []struct{ Node file } }
			}
		}
	}
	g := f.e.GraphQL(f.admin, `query($id: ID!) { space(id: $id) { revision { files { edges { node { id git { oid path } } } } } } }`,
		map[string]any{"id": f.space})
	if err := json.Unmarshal(g.Data, &gq); err != nil || len(g.Errors) > 0 {
		t.Fatalf("graphql: %s %v", g.Data, g.Errors)
	}
	var nodes []file
	for _, e := range gq.Space.Revision.Files.Edges {
		nodes = append(nodes, e.Node)
	}
	for name, other := range map[string]map[string]pageGit{"list": collect(list.Items), "GraphQL": collect(nodes)} {
		if !maps.Equal(other, out) {
			t.Fatalf("files' git: %s %v, the revision %v", name, other, out)
		}
	}
	for id, want := range out {
		var alone file
		f.get(t, f.admin, "/content/files/"+id).JSON(t, &alone)
		if alone.Git == nil || *alone.Git != want {
			t.Fatalf("file %s alone: %v, want %v", id, alone.Git, want)
		}
	}
	return out
}

// TestGitSyncFilesKnowTheirAssets: after an export every file of the synced revision names its
// asset under .gitbook/assets/ and that asset's blob (REST's revision, files list and file, and
// GraphQL's RevisionFile.git); metadata=false leaves them out; a push changing one asset,
// imported, changes that file's blob only.
func TestGitSyncFilesKnowTheirAssets(t *testing.T) {
	f := newGitFixture(t)
	first := f.filesGit(t)
	if len(first) != len(f.files) || len(first) == 0 {
		t.Fatalf("%d files have git, want %d: %v", len(first), len(f.files), first)
	}
	files := gitrepo.Files(t, f.url)
	for id, g := range first {
		data, ok := files[g.Path]
		if !strings.HasPrefix(g.Path, ".gitbook/assets/") || !ok {
			t.Fatalf("file %s: %s is not an asset of the branch's head", id, g.Path)
		}
		if want := plumbing.ComputeHash(plumbing.BlobObject, []byte(data)).String(); g.Oid != want {
			t.Fatalf("file %s: oid %s, git hash-object gives %s", id, g.Oid, want)
		}
	}
	var lean struct{ Items []struct{ Git *pageGit } }
	f.get(t, f.admin, "/content/files?metadata=false").JSON(t, &lean)
	for _, fl := range lean.Items {
		if fl.Git != nil {
			t.Fatalf("metadata=false answered git %v", fl.Git)
		}
	}

	logo := first[f.files["logo.png"]]
	gitrepo.Push(t, f.url, map[string]string{logo.Path: "\x89PNG\r\n\x1a\nanother logo"}, "Another logo")
	f.sync(t)
	second := f.filesGit(t)
	if ch := changedPages(first, second); len(ch) != 1 || ch[0] != f.files["logo.png"] {
		t.Fatalf("a one-asset push changed the blobs of %v: %v → %v", ch, first, second)
	}
	if second[f.files["logo.png"]].Oid != plumbing.ComputeHash(plumbing.BlobObject, []byte("\x89PNG\r\n\x1a\nanother logo")).String() {
		t.Fatalf("the logo's blob %v", second[f.files["logo.png"]])
	}
}
