package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/gitsync"
	"github.com/binderyhq/bindery/internal/jobs"
)

// gitSyncService is Git Sync as this resolver's viewer uses it.
func (r *Resolver) gitSyncService() *gitsync.Service {
	return &gitsync.Service{Client: r.Client, Now: r.now, Keys: &r.keys, Contents: r.content(), Blobs: r.Blobs,
		AllowLocal: r.GitAllowLocal, Jobs: r.Jobs, SpaceTarget: r.spaceTarget}
}

// HandleGitSyncJobs registers the handler of the exports of linked spaces with the runner.
func (r *Resolver) HandleGitSyncJobs(runner *jobs.Runner) {
	runner.Handle(gitsync.ExportJob, r.gitSyncService().RunExport)
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
