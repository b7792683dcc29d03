package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/gitcommit"
	"github.com/binderyhq/bindery/ent/gitpage"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/gitsync"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestMigrationNumbersGitCommits: git commits recorded before they were numbered (seq null) get
// the first numbers of their space in the order they were recorded; the space's numbered commits
// and its pages' runs move up by as many, so the pages' git of a numbered revision reads as
// before; another space's commits keep their numbers; the commits numbered are marked for the
// backfill of their pages, the others not; migrating again changes nothing.
func TestMigrationNumbersGitCommits(t *testing.T) {
	ctx := context.Background()
	sys := accounts.System(ctx)
	o := store.Options{DataDir: t.TempDir(), DSN: testenv.PostgresDSN(t)}
	st, err := store.Open(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	org := st.Client.Organization.Create().SetTitle("Acme").SaveX(sys)
	old := st.Client.Space.Create().SetOrganizationID(org.ID).SetTitle("Old").SaveX(sys)
	other := st.Client.Space.Create().SetOrganizationID(org.ID).SetTitle("Other").SaveX(sys)
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	commit := func(space, revision string, minutes int, seq *int64) {
		c := st.Client.GitCommit.Create().SetOrganizationID(org.ID).SetSpaceID(space).SetRevisionID(revision).
			SetOid(revision + "-oid").SetRef("refs/heads/main").SetCreatedAt(at.Add(time.Duration(minutes) * time.Minute))
		if seq != nil {
			c.SetSeq(*seq)
		}
		c.ExecX(sys)
	}
	one, two := int64(1), int64(2)
	// Recorded second, first, third (ids out of time order), then numbered ones after them.
	commit(old.ID, "r-second", 2, nil)
	commit(old.ID, "r-first", 1, nil)
	commit(old.ID, "r-third", 3, nil)
	commit(old.ID, "r-numbered1", 4, &one)
	commit(old.ID, "r-numbered2", 5, &two)
	commit(other.ID, "o-numbered1", 1, &one)
	page := func(space, id, oid string, from int64, to *int64) {
		p := st.Client.GitPage.Create().SetOrganizationID(org.ID).SetSpaceID(space).SetPageID(id).
			SetPath(id + ".md").SetOid(oid).SetFromSeq(from)
		if to != nil {
			p.SetToSeq(*to)
		}
		p.ExecX(sys)
	}
	page(old.ID, "api", "api-1", 1, &two)
	page(old.ID, "api", "api-2", 2, nil)
	page(old.ID, "intro", "intro-1", 1, nil)
	page(other.ID, "api", "other-1", 1, nil)
	if _, err := st.Client.ExecContext(ctx, `UPDATE bindery_schema SET fingerprint = 'older'`); err != nil {
		t.Fatal(err)
	}
	st.Close()

	for range 2 { // migrating again changes nothing
		if st, err = store.Open(ctx, o); err != nil {
			t.Fatal(err)
		}
		seqs := map[string]int64{}
		for _, c := range st.Client.GitCommit.Query().AllX(sys) {
			if c.Seq == nil {
				t.Fatalf("commit %s has no number", c.RevisionID)
			}
			seqs[c.RevisionID] = *c.Seq
		}
		want := map[string]int64{"r-first": 1, "r-second": 2, "r-third": 3, "r-numbered1": 4, "r-numbered2": 5, "o-numbered1": 1}
		for rev, n := range want {
			if seqs[rev] != n {
				t.Fatalf("numbers %v, want %v", seqs, want)
			}
		}
		for rev, pages := range map[string]map[string]string{
			"r-numbered1": {"api": "api-1", "intro": "intro-1"}, "r-numbered2": {"api": "api-2", "intro": "intro-1"},
			"o-numbered1": {"api": "other-1"}, "r-third": {},
		} {
			got, err := gitsync.PagesOf(sys, st.Client, rev, nil)
			if err != nil || len(got) != len(pages) {
				t.Fatalf("%s: pages %v %v, want %v", rev, got, err, pages)
			}
			for id, oid := range pages {
				if got[id].Oid != oid {
					t.Fatalf("%s: pages %v, want %v", rev, got, pages)
				}
			}
		}
		if n := st.Client.GitPage.Query().Where(gitpage.SpaceID(old.ID), gitpage.FromSeqLTE(3)).CountX(sys); n != 0 {
			t.Fatalf("%d runs of the old space start within the unnumbered commits", n)
		}
		// The commits numbered by the migration wait for the backfill (decision 584); the others
		// had their pages recorded.
		for _, c := range st.Client.GitCommit.Query().AllX(sys) {
			if want := strings.HasPrefix(c.RevisionID, "r-") && *c.Seq <= 3; c.PagesPending != want {
				t.Fatalf("%s: pages pending %v", c.RevisionID, c.PagesPending)
			}
		}
		if ok, err := gitsync.HasPages(sys, st.Client, "r-third"); ok || err != nil {
			t.Fatalf("a pending commit reads as synced: %v %v", ok, err)
		}
		if n := st.Client.GitCommit.Query().Where(gitcommit.SeqIsNil()).CountX(sys); n != 0 {
			t.Fatalf("%d commits without a number", n)
		}
		if _, err := st.Client.ExecContext(ctx, `UPDATE bindery_schema SET fingerprint = 'older'`); err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
}
