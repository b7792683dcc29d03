package gitsync

import (
	"context"
	"io"
	"log/slog"
	"maps"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/gitcommit"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/gitsync/format"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/txn"
)

// BackfillJob is the kind of the leased job, keyed by space, that records where the pages of the
// space's commits synced before pages had git blobs are (git_commits.pages_pending, decision 584).
const BackfillJob = "gitsync-backfill"

// backfillCommits bounds the commits one run of the backfill reads; a space with more runs again.
const backfillCommits = 100

// ScheduleBackfills asks for the backfill of every space with commits whose pages are pending (a
// server calls it when it starts); a backfill asked for already keeps its time.
func ScheduleBackfills(ctx context.Context, client *ent.Client, now time.Time) error {
	sys := system(viewer.NewContext(ctx, viewer.System()))
	for after := ""; ; {
		ids, err := client.GitCommit.Query().Where(gitcommit.PagesPending(true), gitcommit.SpaceIDGT(after)).
			Order(ent.Asc(gitcommit.FieldSpaceID)).Unique(true).Limit(pollBatch).Select(gitcommit.FieldSpaceID).Strings(sys)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := jobs.Ensure(sys, client, BackfillJob, id, now); err != nil {
				return err
			}
		}
		if len(ids) < pollBatch {
			return nil
		}
		after = ids[len(ids)-1]
	}
}

// RunBackfill is the handler of BackfillJob: it reads the linked branch's history once (in
// memory, within the bounds of a clone) and, for each of the space's pending commits (at most
// backfillCommits a run, oldest first), where its revision's pages, files and reusable contents
// are in that commit (backfillPages), recorded as runs over the commits' numbers as a sync
// records them. A commit the branch does not have (force-pushed away, another branch) is no
// longer pending and has none. A space without a link, or whose repository does not answer,
// stays pending: the next start of a server asks again.
func (svc *Service) RunBackfill(ctx context.Context, j *jobs.Job) (time.Time, error) {
	ctx = viewer.WithSource(viewer.NewContext(ctx, viewer.System()), viewer.SourceIntegration, "Git Sync")
	sys := system(ctx)
	pending, err := svc.Client.GitCommit.Query().Where(gitcommit.SpaceID(j.Key), gitcommit.PagesPending(true), gitcommit.SeqNotNil()).
		Order(ent.Asc(gitcommit.FieldSeq)).Limit(backfillCommits + 1).All(sys)
	if err != nil || len(pending) == 0 {
		return time.Time{}, err
	}
	more := len(pending) > backfillCommits
	pending = pending[:min(len(pending), backfillCommits)]
	g, err := svc.linkOf(sys, j.Key)
	if ent.IsNotFound(err) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	remote, err := svc.remoteOf(sys, g)
	if err != nil {
		return time.Time{}, err
	}
	runCtx, cancel := context.WithTimeout(ctx, syncTimeout)
	defer cancel()
	repo, err := cloneHistory(runCtx, remote)
	if err != nil {
		slog.WarnContext(ctx, "gitsync: the pages of commits synced before pages had git blobs are not recorded: the repository did not answer",
			"space", j.Key, "error", err)
		return time.Time{}, nil
	}
	found := make(map[int64]map[string]Blob, len(pending))
	for _, c := range pending {
		if found[*c.Seq], err = svc.backfillPages(sys, repo, g.Root, c); err != nil {
			return time.Time{}, err
		}
	}
	err = txn.Run(sys, svc.Client, func(tx *ent.Tx) error {
		if err := j.Hold(sys, tx); err != nil {
			return err
		}
		if err := recordOldPages(sys, tx, g.SpaceID, g.OrganizationID, pending, found); err != nil {
			return err
		}
		ids := make([]string, len(pending))
		for i, c := range pending {
			ids[i] = c.ID
		}
		return tx.GitCommit.Update().Where(gitcommit.IDIn(ids...)).SetPagesPending(false).Exec(sys)
	})
	if err != nil || !more {
		return time.Time{}, err
	}
	return svc.Now(ctx), nil
}

// cloneHistory fetches the whole history of the remote's branch into memory (an old commit
// cannot be fetched shallow), within the bounds of every clone: a local repository measured
// first, an https answer bounded by the transport.
func cloneHistory(ctx context.Context, r Remote) (*git.Repository, error) {
	if err := checkLocalSize(r.URL); err != nil {
		return nil, err
	}
	repo, err := git.CloneContext(ctx, memory.NewStorage(), nil, &git.CloneOptions{URL: r.URL, Auth: r.auth(),
		ReferenceName: r.branch(), SingleBranch: true, NoCheckout: true, Tags: git.NoTags})
	if err != nil {
		return nil, remoteError("clone", r, err)
	}
	return repo, nil
}

// backfillPages is where the pages, files and reusable contents of commit c's revision are in
// the commit: the paths Git Sync's layout gives them (format.Paths) with the blobs the commit's
// tree has there — only when the commit's Markdown files under the root folder are exactly the
// layout's pages and reusable contents (SUMMARY.md aside), so that no page is given another
// page's file. Nil when the branch lacks the commit, its revision is gone, or its files are not
// in that layout (a repository a person wrote, a layout Git Sync wrote differently then): those
// pages keep no git, as before.
func (svc *Service) backfillPages(ctx context.Context, repo *git.Repository, root string, c *ent.GitCommit) (map[string]Blob, error) {
	commit, err := repo.CommitObject(plumbing.NewHash(c.Oid))
	if err != nil {
		return nil, nil
	}
	files, ok := commitBlobs(commit)
	if !ok {
		return nil, nil
	}
	_, t, err := svc.Contents.RevisionAndTree(ctx, c.RevisionID)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	paths := format.Paths(t, root)
	markdown := map[string]bool{} // the layout's Markdown files: pages' and reusable contents'
	for id, p := range paths {
		if t.File(id) != nil {
			continue
		}
		markdown[p] = true
		if _, ok := files[p]; !ok && t.Page(id) != nil {
			return nil, nil
		}
	}
	for p := range files {
		rel, under := cutRoot(root, p)
		if under && importer.IsMarkdown(p) && rel != format.Summary && !markdown[p] &&
			(!importer.Skipped(rel) || strings.HasPrefix(rel, format.IncludesDir+"/")) {
			return nil, nil
		}
	}
	return pageBlobs(paths, files), nil
}

// cutRoot is p relative to the folder root, false when it is not under it.
func cutRoot(root, p string) (string, bool) {
	if root == "" {
		return p, true
	}
	return strings.CutPrefix(p, root+"/")
}

// commitBlobs are the hashes of the files of a commit's tree by path (no blob is read); false
// when it has more files than an import reads.
func commitBlobs(c *object.Commit) (map[string]string, bool) {
	tree, err := c.Tree()
	if err != nil {
		return nil, false
	}
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	out := map[string]string{}
	for {
		name, entry, err := w.Next()
		if err == io.EOF {
			return out, true
		}
		if err != nil || len(out) >= format.MaxFiles {
			return nil, false
		}
		if entry.Mode.IsFile() {
			out[path.Clean(name)] = entry.Hash.String()
		}
	}
}

// recordOldPages writes the runs of the pages found in the pending commits (by number): a page
// with the same blob in commits numbered one after the other is one run, so a space of n pages
// synced k times with few changes writes about n rows, not n × k. The pending commits have no
// run (they were never recorded), so the runs written overlap none.
func recordOldPages(ctx context.Context, tx *ent.Tx, spaceID, orgID string, pending []*ent.GitCommit, found map[int64]map[string]Blob) error {
	type run struct {
		blob     Blob
		from, to int64 // to: the number after the last commit of the run
	}
	open := map[string]*run{}
	var creates []*ent.GitPageCreate
	end := func(id string) {
		r := open[id]
		creates = append(creates, tx.GitPage.Create().SetSpaceID(spaceID).SetOrganizationID(orgID).SetPageID(id).
			SetPath(r.blob.Path).SetOid(r.blob.Oid).SetFromSeq(r.from).SetToSeq(r.to))
		delete(open, id)
	}
	for _, c := range pending {
		seq, pages := *c.Seq, found[*c.Seq]
		for _, id := range slices.Sorted(maps.Keys(open)) {
			if r := open[id]; r.to != seq || pages[id] != r.blob {
				end(id)
			}
		}
		for id, b := range pages {
			if r, ok := open[id]; ok {
				r.to = seq + 1
				continue
			}
			open[id] = &run{blob: b, from: seq, to: seq + 1}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(open)) {
		end(id)
	}
	for chunk := range slices.Chunk(creates, pageBatch) {
		if err := tx.GitPage.CreateBulk(chunk...).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
