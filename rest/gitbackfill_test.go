package rest_test

import (
	"maps"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/gitcommit"
	"github.com/binderyhq/bindery/ent/gitpage"
	"github.com/binderyhq/bindery/internal/gitsync"
)

// TestGitSyncBackfillsOldCommitsPages: commits synced before pages had git blobs (no runs,
// pages_pending, as the migration leaves them) answer no git; the backfill job reads the branch's
// history and gives their pages, files and reusable contents the blobs a sync records, a page
// unchanged between commits in one run; a commit the branch does not have is no longer pending
// and answers none.
func TestGitSyncBackfillsOldCommitsPages(t *testing.T) {
	f := newGitFixture(t)
	first, _ := f.revision(t)
	mergeContent(t, f.e, f.admin, f.space, map[string]any{"operation": "update_page", "page": f.pages["api"],
		"document": map[string]any{"markdown": "# API\n\nEndpoints, all of them.\n"}})
	f.e.RunDueJobs()
	second, _ := f.revision(t)
	want := map[string]map[string]pageGit{first: f.pagesGit(t, "/revisions/"+first), second: f.pagesGit(t, "/content")}
	wantFiles := f.filesGit(t)
	if len(want[first]) == 0 || len(wantFiles) == 0 || maps.Equal(want[first], want[second]) {
		t.Fatalf("recorded %v", want)
	}

	// The old shape: no runs, the commits pending; and a commit the branch never had.
	sys := system()
	client := f.e.Store.Client
	if _, err := client.GitPage.Delete().Where(gitpage.SpaceID(f.space)).Exec(sys); err != nil {
		t.Fatal(err)
	}
	if err := client.GitCommit.Update().Where(gitcommit.SpaceID(f.space)).SetPagesPending(true).Exec(sys); err != nil {
		t.Fatal(err)
	}
	stray := client.GitCommit.Create().SetOrganizationID(f.org).SetSpaceID(f.space).SetRevisionID(f.initial).
		SetOid("0123456789012345678901234567890123456789").SetRef("refs/heads/main").SetSeq(3).SetPagesPending(true).SaveX(sys)
	if got := f.pagesGit(t, "/content"); len(got) != 0 {
		t.Fatalf("pending commit's pages %v", got)
	}

	if err := gitsync.ScheduleBackfills(sys, client, time.Now()); err != nil {
		t.Fatal(err)
	}
	f.e.RunDueJobs()
	for rev, pages := range want {
		suffix := "/revisions/" + rev
		if rev == second {
			suffix = "/content"
		}
		if got := f.pagesGit(t, suffix); !maps.Equal(got, pages) {
			t.Fatalf("revision %s backfilled %v, recorded %v", rev, got, pages)
		}
	}
	if got := f.filesGit(t); !maps.Equal(got, wantFiles) {
		t.Fatalf("files backfilled %v, recorded %v", got, wantFiles)
	}
	// One run per page and file, and one more for the page the second commit changed.
	if n := client.GitPage.Query().Where(gitpage.SpaceID(f.space)).CountX(sys); n != len(want[first])+len(wantFiles)+1 {
		t.Fatalf("%d runs for %d pages and %d files", n, len(want[first]), len(wantFiles))
	}
	if n := client.GitCommit.Query().Where(gitcommit.SpaceID(f.space), gitcommit.PagesPending(true)).CountX(sys); n != 0 {
		t.Fatalf("%d commits still pending", n)
	}
	if blobs, err := gitsync.PagesOf(sys, client, stray.RevisionID, nil); err != nil || len(blobs) != 0 {
		t.Fatalf("the stray commit's pages %v %v", blobs, err)
	}
}
