package graph

import (
	"context"
	"net/url"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/gitsync"
	"github.com/binderyhq/bindery/internal/jobs"
)

// gitSyncService is Git Sync as this resolver's viewer uses it.
func (r *Resolver) gitSyncService() *gitsync.Service {
	return &gitsync.Service{Client: r.Client, Now: r.now, Keys: &r.keys, Contents: r.content(), Blobs: r.Blobs,
		AllowLocal: r.GitAllowLocal, Jobs: r.Jobs, SpaceTarget: r.spaceTarget, Revisions: r.revisions, PollInterval: r.GitPoll}
}

// HandleGitSyncJobs registers the handlers of the syncs of linked spaces and of the backfill of
// their old commits' pages with the runner, and of their poll when the server polls.
func (r *Resolver) HandleGitSyncJobs(runner *jobs.Runner) {
	runner.Handle(gitsync.SyncJob, r.gitSyncService().RunSync)
	runner.Handle(gitsync.BackfillJob, r.gitSyncService().RunBackfill)
	if r.GitPoll > 0 {
		runner.Handle(gitsync.PollJob, r.gitSyncService().RunPoll)
	}
}

// gitRequest converts the input of exportToGitRepository.
func gitRequest(in model.GitRepositoryInput) gitsync.Request {
	return gitsync.Request{URL: in.URL, Ref: in.Ref, Root: derefOr(in.RepoProjectDirectory, ""),
		CommitMessage: derefOr(in.CommitMessage, ""), Standalone: derefOr(in.Standalone, false)}
}

// SpaceGitSync is Space.gitSync and getSpaceGitInfo: the space's link, nil when it has none.
func (r *Resolver) SpaceGitSync(ctx context.Context, spaceID string) (*ent.GitSync, error) {
	return r.gitSyncService().Info(ctx, spaceID)
}

// gitSyncOperation is a link's last operation, nil before the first.
func gitSyncOperation(g *ent.GitSync) *model.GitSyncOperation {
	if g.OperationState == nil || g.OperationDirection == nil || g.OperationStartedAt == nil {
		return nil
	}
	return &model.GitSyncOperation{State: model.GitSyncOperationState(*g.OperationState),
		Direction: model.GitSyncOperationDirection(*g.OperationDirection), StartedAt: *g.OperationStartedAt,
		EndedAt: g.OperationEndedAt, Error: g.OperationError}
}

// RevisionCommit is the git commit a revision the viewer read went with (Revision.git), nil for
// none; those of a level's revisions are read together.
func (r *Resolver) RevisionCommit(ctx context.Context, rev *ent.Revision) (*ent.GitCommit, error) {
	return loader.Get(ctx, r.Client, revisionCommits, rev, func(rev *ent.Revision) string { return rev.ID })
}

// revisionCommits reads the git commits of revisions by id (gitsync.CommitsOf).
var revisionCommits = loader.NewBatch("revision commits", gitsync.CommitsOf)

// GitWebhookURL is the URL of the push webhook of the space's link (POST, no token: the host
// signs with the link's secret).
func (r *Resolver) GitWebhookURL(spaceID string) string {
	return strings.TrimRight(r.BaseURL, "/") + "/v1/spaces/" + url.PathEscape(spaceID) + "/git/webhook"
}

// entryKey names a page or a file of a revision.
type entryKey struct{ revision, id string }

// PageGit is where a page the viewer read is in the git commit of its revision
// (ContentPage.git), nil for none; those of a level's pages are read together.
func (r *Resolver) PageGit(ctx context.Context, p *model.ContentPage) (*gitsync.Blob, error) {
	if p.Type == tree.TypeGroup || p.RevisionID == "" {
		return nil, nil
	}
	return loader.Get(ctx, r.Client, entryBlobs, p, func(p *model.ContentPage) entryKey { return entryKey{p.RevisionID, p.ID} })
}

// FileGit is where the asset of a file the viewer read is in the git commit of its revision
// (RevisionFile.git), nil for none; those of a level's files are read together.
func (r *Resolver) FileGit(ctx context.Context, f *model.RevisionFile) (*gitsync.Blob, error) {
	return loader.Get(ctx, r.Client, entryBlobs, f, func(f *model.RevisionFile) entryKey { return entryKey{f.RevisionID, f.ID} })
}

// ReusableGit is where the file of a reusable content the viewer read is in the git commit of its
// revision (ReusableContent.git), nil for none; those of a revision's contents are read together.
func (r *Resolver) ReusableGit(ctx context.Context, c *model.ReusableContent) (*gitsync.Blob, error) {
	if c.RevisionID == "" {
		return nil, nil
	}
	return loader.Get(ctx, r.Client, entryBlobs, c, func(c *model.ReusableContent) entryKey { return entryKey{c.RevisionID, c.ID} })
}

// pageGit is a blob as GraphQL answers it, nil for none.
func pageGit(b *gitsync.Blob, err error) (*model.PageGit, error) {
	if b == nil || err != nil {
		return nil, err
	}
	return &model.PageGit{Oid: b.Oid, Path: b.Path}, nil
}

// entryBlobs reads the git blobs of pages and files, a statement per revision (gitsync.PagesOf).
var entryBlobs = loader.NewBatch("git blobs", func(ctx context.Context, client *ent.Client, keys []entryKey) (map[entryKey]*gitsync.Blob, error) {
	byRevision := map[string][]string{}
	for _, k := range keys {
		byRevision[k.revision] = append(byRevision[k.revision], k.id)
	}
	out := make(map[entryKey]*gitsync.Blob, len(keys))
	for rev, ids := range byRevision {
		blobs, err := gitsync.PagesOf(ctx, client, rev, ids)
		if err != nil {
			return nil, err
		}
		for id, b := range blobs {
			out[entryKey{rev, id}] = &b
		}
	}
	return out, nil
})

// PagesGit is where the pages and files of ids (nil: every one) of a revision the viewer read
// are in the git commit it went with, by id (gitsync.PagesOf).
func (r *Resolver) PagesGit(ctx context.Context, rev *ent.Revision, ids []string) (map[string]gitsync.Blob, error) {
	return gitsync.PagesOf(ctx, r.Client, rev.ID, ids)
}

// ReceiveGitPush is the push webhook of a space's link (no viewer: the host's signature is the
// authority).
func (r *Resolver) ReceiveGitPush(ctx context.Context, spaceID string, p gitsync.Push) (gitsync.Received, error) {
	return r.gitSyncService().ReceivePush(ctx, spaceID, p)
}

// RotateGitWebhookSecret makes a new secret for the push webhook of the space's link.
func (r *Resolver) RotateGitWebhookSecret(ctx context.Context, spaceID string) (*model.GitSyncWebhook, error) {
	secret, err := r.gitSyncService().RotateWebhookSecret(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	return &model.GitSyncWebhook{URL: r.GitWebhookURL(spaceID), Secret: secret}, nil
}

// RevisionHasGit reports whether the pages of a revision the viewer read have git blobs
// (gitsync.HasPages).
func (r *Resolver) RevisionHasGit(ctx context.Context, rev *ent.Revision) (bool, error) {
	return gitsync.HasPages(ctx, r.Client, rev.ID)
}
