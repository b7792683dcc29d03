package rest_test

import (
	"encoding/json"
	"net/url"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestGitSyncBlobsForShareLinkReaders: a reader of a share-link space by its key — a user of
// another organization, or nobody signed in — reads the same pages' git as the space's members,
// in REST's page tree and page reads and GraphQL's ContentPage.git.
func TestGitSyncBlobsForShareLinkReaders(t *testing.T) {
	f := newGitFixture(t)
	want := f.pagesGit(t, "/content")
	api := f.pages["api"]
	if want[api].Path == "" {
		t.Fatalf("the members' blobs %v", want)
	}
	key := shareSpace(t, f.e, f.admin, f.space)
	q := "?shareKey=" + url.QueryEscape(key)
	for name, who := range map[string]testenv.Actor{"outsider": f.outsider} {
		var page struct{ Git *pageGit }
		r := f.e.Do(who, "GET", f.spacePath("/content/page/"+api+q), nil)
		crWant(t, r, 200)
		r.JSON(t, &page)
		if page.Git == nil || *page.Git != want[api] {
			t.Errorf("%s: page git %v, want %v", name, page.Git, want[api])
		}
		var tree struct {
			Pages []struct {
				ID  string
				Git *pageGit
			}
		}
		f.e.Do(who, "GET", f.spacePath("/content/pages"+q), nil).JSON(t, &tree)
		got := 0
		for _, p := range tree.Pages {
			if p.Git != nil && *p.Git == want[p.ID] {
				got++
			}
		}
		if got == 0 {
			t.Errorf("%s: the page tree has no git: %+v", name, tree.Pages)
		}
		g := f.e.GraphQL(who, `query($id: ID!, $key: String) { space(id: $id, shareKey: $key) { revision { pages { id git { oid path } } } } }`,
			map[string]any{"id": f.space, "key": key})
		var gq struct {
			Space struct {
				Revision struct {
					Pages []struct {
						ID  string
						Git *pageGit
					}
				}
			}
		}
		if err := json.Unmarshal(g.Data, &gq); err != nil || len(g.Errors) > 0 {
			t.Fatalf("%s graphql: %s %v", name, g.Data, g.Errors)
		}
		got = 0
		for _, p := range gq.Space.Revision.Pages {
			if p.Git != nil && *p.Git == want[p.ID] {
				got++
			}
		}
		if got == 0 {
			t.Errorf("%s: GraphQL has no git: %s", name, g.Data)
		}
	}
}
