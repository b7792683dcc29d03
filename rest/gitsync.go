package rest

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/gitsync"
)

// gitRepositoryFields are the fields of the bodies of importGitRepository and
// exportToGitRepository alike (the reference's; repoCacheID, repoTreeURL, repoCommitURL,
// timestamp, force and gitInfo are accepted and unused).
type gitRepositoryFields struct {
	URL                  *string `json:"url" doc:"An https URL (file:// and absolute paths only with --git-allow-local); credentials in it are sealed as the link's token and never shown."`
	Ref                  *string `json:"ref" doc:"The branch, as refs/heads/<name>."`
	RepoProjectDirectory *string `json:"repoProjectDirectory"`
	RepoCacheID          *string `json:"repoCacheID"`
	RepoTreeURL          *string `json:"repoTreeURL"`
	RepoCommitURL        *string `json:"repoCommitURL"`
	Timestamp            *string `json:"timestamp"`
	Force                *bool   `json:"force"`
	GitInfo              any     `json:"gitInfo"`
}

// input is the input of an import or export, refused without its url and ref.
func (f gitRepositoryFields) input(message *string, standalone *bool) (model.GitRepositoryInput, error) {
	switch {
	case f.URL == nil:
		return model.GitRepositoryInput{}, missing("url")
	case f.Ref == nil:
		return model.GitRepositoryInput{}, missing("ref")
	}
	return model.GitRepositoryInput{URL: *f.URL, Ref: *f.Ref, RepoProjectDirectory: f.RepoProjectDirectory,
		CommitMessage: message, Standalone: standalone}, nil
}

// gitRepositoryBody is the body of exportToGitRepository (the reference's ExportToGitRepository).
type gitRepositoryBody struct {
	gitRepositoryFields
	CommitMessage *string `json:"commitMessage"`
	Standalone    *bool   `json:"standalone" doc:"A one-off export, run before the answer, that links nothing. Otherwise the space is linked to the branch and every merge exports on its own."`
}

func (b gitRepositoryBody) input() (model.GitRepositoryInput, error) {
	if b.CommitMessage == nil {
		return model.GitRepositoryInput{}, missing("commitMessage")
	}
	return b.gitRepositoryFields.input(b.CommitMessage, b.Standalone)
}

// importGitBody is the body of importGitRepository (the reference's ImportGitRepository: the
// export's without commitMessage).
type importGitBody struct {
	gitRepositoryFields
	Standalone *bool `json:"standalone" doc:"A one-off import, run before the answer, into a new change request; links nothing. Otherwise the space is linked to the branch, its head imported, and every push the poll or a call finds imported on its own."`
}

func (b importGitBody) input() (model.GitRepositoryInput, error) {
	return b.gitRepositoryFields.input(nil, b.Standalone)
}

func (a *api) exportToGitRepository(w http.ResponseWriter, r *http.Request) {
	in, err := decodeInput[model.GitRepositoryInput, gitRepositoryBody](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	_, err = a.r.Mutation().ExportToGitRepository(r.Context(), chi.URLParam(r, "spaceId"), in)
	respondEmpty(w, r, http.StatusNoContent, err)
}

func (a *api) importGitRepository(w http.ResponseWriter, r *http.Request) {
	in, err := decodeInput[model.GitRepositoryInput, importGitBody](r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	_, err = a.r.Mutation().ImportGitRepository(r.Context(), chi.URLParam(r, "spaceId"), in)
	respondEmpty(w, r, http.StatusNoContent, err)
}

// gitSyncState is the reference's GitSyncState of a space's link.
type gitSyncState struct {
	InstallationID       string            `json:"installationId"`
	InstallationProvider string            `json:"installationProvider" doc:"gitlab for a host whose name says so, else github: the reference knows no other provider."`
	InstallationStatus   string            `json:"installationStatus"`
	RepoName             string            `json:"repoName"`
	URL                  string            `json:"url"`
	Operation            *gitSyncOperation `json:"operation,omitempty"`
	UpdatedAt            time.Time         `json:"updatedAt"`
	// Waiting is Bindery's extension: the change request of an import that waits for a person.
	Waiting *gitSyncWaiting `json:"waiting,omitempty"`
}

// gitSyncWaiting is the change request of an import that waits for a person, and why.
type gitSyncWaiting struct {
	ChangeRequest   string   `json:"changeRequest" doc:"The id of the change request the import opened. Exports wait until it is merged or archived."`
	UnmetMergeRules []string `json:"unmetMergeRules" doc:"The merge rules it does not meet yet: it waits for review, then merges as any change request. Empty when only its conflicts or a force-push keep it waiting."`
}

type gitSyncOperation struct {
	State     string     `json:"state"`
	Direction string     `json:"direction"`
	StartedAt time.Time  `json:"startedAt"`
	EndedAt   *time.Time `json:"endedAt,omitempty"`
	Error     *string    `json:"error,omitempty"`
}

func (a *api) getSpaceGitInfo(w http.ResponseWriter, r *http.Request) {
	g, err := a.r.SpaceGitSync(r.Context(), chi.URLParam(r, "spaceId"))
	if err == nil && g == nil {
		err = apperr.NotFoundf("the space is not linked to a git repository")
	}
	respond(w, r, http.StatusOK, gitState(g), err)
}

// gitState is the wire shape of a link.
func gitState(g *ent.GitSync) *gitSyncState {
	if g == nil {
		return nil
	}
	u, err := url.Parse(g.URL)
	if err != nil {
		u = &url.URL{}
	}
	provider := "github"
	if u != nil && strings.Contains(strings.ToLower(u.Hostname()), "gitlab") {
		provider = "gitlab"
	}
	state := &gitSyncState{InstallationID: g.ID, InstallationProvider: provider, InstallationStatus: "active",
		RepoName: strings.TrimSuffix(strings.Trim(u.Path, "/"), ".git"), URL: g.URL, UpdatedAt: g.UpdatedAt}
	if g.OperationState != nil && g.OperationDirection != nil && g.OperationStartedAt != nil {
		state.Operation = &gitSyncOperation{State: g.OperationState.String(), Direction: g.OperationDirection.String(),
			StartedAt: *g.OperationStartedAt, EndedAt: g.OperationEndedAt, Error: g.OperationError}
	}
	if g.ChangeRequestID != nil {
		state.Waiting = &gitSyncWaiting{ChangeRequest: *g.ChangeRequestID, UnmetMergeRules: gitsync.UnmetRules(g)}
	}
	return state
}

// gitWebhook is the push webhook of a space's link, made by rotateGitSyncWebhookSecret: the
// secret is in this answer only.
type gitWebhook struct {
	URL    string `json:"url" doc:"The URL the git host posts its push events to (content type application/json, or GitHub's application/x-www-form-urlencoded)."`
	Secret string `json:"secret" doc:"The webhook's secret: GitHub's, Gitea's and Forgejo's secret, GitLab's secret token. Shown once."`
}

func (a *api) rotateGitSyncWebhookSecret(w http.ResponseWriter, r *http.Request) {
	hook, err := a.r.RotateGitWebhookSecret(r.Context(), chi.URLParam(r, "spaceId"))
	var out gitWebhook
	if hook != nil {
		out = gitWebhook(*hook)
	}
	respond(w, r, http.StatusOK, out, err)
}

// gitPushAnswer says what a push webhook did.
type gitPushAnswer struct {
	Queued bool   `json:"queued" doc:"Whether the push queued the link's sync, which imports it."`
	Reason string `json:"reason,omitempty" doc:"Why nothing was queued: another branch, not a push, the commit of the last sync."`
}

// receiveGitPush is the push webhook a git host calls, without a token: the request is checked
// with the link's secret as the host signs it. 202 when the sync is queued, 200 when the event
// asks for nothing.
func (a *api) receiveGitPush(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body) // bounded and read already by limitBody
	var got gitsync.Received
	if err == nil {
		got, err = a.r.ReceiveGitPush(r.Context(), chi.URLParam(r, "spaceId"), gitsync.Push{Header: r.Header, Body: body})
	}
	status := http.StatusOK
	if got.Queued {
		status = http.StatusAccepted
	}
	respond(w, r, status, gitPushAnswer(got), err)
}
