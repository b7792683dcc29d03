package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/gitsync"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/gitsync/format"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/serverkey"
	"github.com/binderyhq/bindery/internal/txn"
)

// ExportJob is the kind of the background job that exports a linked space's main content (its
// key is the space's id): every move of the main content asks for it, so merges export on their
// own, one at a time per space whichever server runs it.
const ExportJob = "gitsync-export"

// syncTimeout bounds one export.
const syncTimeout = 2 * time.Minute

// Service is the Git Sync of one server, as the viewer of a context uses it.
type Service struct {
	Client   *ent.Client
	Now      func(context.Context) time.Time
	Keys     *serverkey.Keys
	Contents *revisions.Contents
	Blobs    blobs.Store
	// AllowLocal lets repositories be file:// URLs and absolute paths (--git-allow-local).
	AllowLocal bool
	// Jobs is this process's job runner, woken when a write asks for an export (nil: the export
	// waits for a runner's next look at the jobs table).
	Jobs *jobs.Runner
	// SpaceTarget finds a live space the viewer may read (NOT_FOUND otherwise) whose role on it
	// is at least min (FORBIDDEN otherwise, saying what for).
	SpaceTarget func(ctx context.Context, spaceID string, min viewer.Role, what string) (*ent.Space, error)
}

// Request is an importGitRepository or exportToGitRepository call.
type Request struct {
	URL           string // may hold credentials ("https://user:token@host/repo.git"): the token is sealed apart
	Ref           string // "refs/heads/main"
	Root          string // the folder of the repository the content is in
	CommitMessage string
	Standalone    bool // a one-off: the space is not linked
}

// maxCommitMessage is the longest commit message a call may give.
const maxCommitMessage = 4096

// triggerRole is the role that links a space and triggers its syncs (Space.permissions'
// triggerGitSync).
const triggerRole = viewer.RoleAdmin

// Export exports the space's main content to the repository of the request. A linked call links
// the space to the repository's branch (replacing a former link) and queues the export, which
// every later merge repeats; a standalone one exports at once, once, and links nothing. Returns
// NOT_FOUND, FORBIDDEN, INVALID (a refused URL, a bad ref or root), and for a standalone export
// what the repository answered.
func (svc *Service) Export(ctx context.Context, spaceID string, req Request) error {
	s, err := svc.SpaceTarget(ctx, spaceID, triggerRole, "export the space to a git repository")
	if err != nil {
		return err
	}
	remote, root, err := svc.checkRequest(req)
	if err != nil {
		return err
	}
	if req.Standalone {
		_, err := svc.publish(ctx, s, remote, root, identity{}, req.CommitMessage)
		if err != nil {
			return apperr.Invalidf("%s", err.Error())
		}
		return nil
	}
	return svc.link(ctx, s, remote, root, req.CommitMessage)
}

// checkRequest checks a request and splits its URL's credentials off into the remote's token.
func (svc *Service) checkRequest(req Request) (Remote, string, error) {
	raw, token := splitCredentials(req.URL)
	if err := CheckURL(raw, svc.AllowLocal); err != nil {
		return Remote{}, "", apperr.Invalidf("url: %s", strings.TrimPrefix(err.Error(), ErrRefused.Error()+": "))
	}
	if len(raw) > 2048 {
		return Remote{}, "", apperr.Invalidf("url: at most 2048 characters")
	}
	branch, ok := strings.CutPrefix(req.Ref, "refs/heads/")
	if !ok || CheckBranch(branch) != nil {
		return Remote{}, "", apperr.Invalidf("ref: a branch, as \"refs/heads/main\"")
	}
	root, err := cleanRoot(req.Root)
	if err != nil {
		return Remote{}, "", err
	}
	if len(req.CommitMessage) > maxCommitMessage {
		return Remote{}, "", apperr.Invalidf("commitMessage: at most %d bytes", maxCommitMessage)
	}
	return Remote{URL: raw, Branch: branch, Token: token}, root, nil
}

// splitCredentials takes the credentials out of an https URL: the password (else the user name,
// as a token alone is often written) becomes the token.
func splitCredentials(raw string) (string, string) {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil || u.Scheme != "https" {
		return raw, ""
	}
	token, ok := u.User.Password()
	if !ok {
		token = u.User.Username()
	}
	u.User = nil
	return u.String(), token
}

// cleanRoot checks the repository's folder the content goes in: a relative path inside it.
func cleanRoot(root string) (string, error) {
	root = strings.Trim(root, "/")
	for _, seg := range strings.Split(root, "/") {
		if root != "" && (seg == "" || seg == "." || seg == ".." || strings.HasPrefix(seg, ".")) {
			return "", apperr.Invalidf("repoProjectDirectory: a folder inside the repository")
		}
	}
	if len(root) > 1024 {
		return "", apperr.Invalidf("repoProjectDirectory: at most 1024 characters")
	}
	return root, nil
}

// system is ctx with the system's decision: the service checked the viewer's role already.
func system(ctx context.Context) context.Context {
	return privacy.DecisionContext(ctx, privacy.Allow)
}

// link links the space to the remote (a new token replaces the former; none keeps it when the
// repository is the same) and queues its export.
func (svc *Service) link(ctx context.Context, s *ent.Space, r Remote, root, message string) error {
	sys := system(ctx)
	var sealed []byte
	if r.Token != "" {
		var err error
		if sealed, err = svc.Keys.Seal(sys, svc.Client, tokenLabel(s.ID), []byte(r.Token)); err != nil {
			return err
		}
	}
	create := svc.Client.GitSync.Create().SetSpaceID(s.ID).SetOrganizationID(s.OrganizationID).
		SetURL(r.URL).SetBranch(r.Branch).SetRoot(root).SetCommitMessage(message)
	if sealed != nil {
		create.SetSealedToken(sealed)
	}
	err := create.OnConflictColumns(gitsync.FieldSpaceID).Update(func(u *ent.GitSyncUpsert) {
		u.SetURL(r.URL).SetBranch(r.Branch).SetRoot(root).SetCommitMessage(message).UpdateUpdatedAt().ClearCommit().ClearRevisionID()
		if sealed != nil {
			u.SetSealedToken(sealed)
		}
	}).Exec(sys)
	if err != nil {
		return err
	}
	return svc.queueExport(sys, svc.Client, s.ID)
}

// tokenLabel binds a sealed token to its space: copied to another row it does not open.
func tokenLabel(spaceID string) string { return "gitsync-token:" + spaceID }

// queueExport asks for the space's export now, in client's transaction when it is one.
func (svc *Service) queueExport(ctx context.Context, client *ent.Client, spaceID string) error {
	if err := jobs.Enqueue(ctx, client, ExportJob, spaceID, svc.Now(ctx)); err != nil {
		return err
	}
	if svc.Jobs != nil {
		svc.Jobs.Wake()
	}
	return nil
}

// ContentMoved queues the export of a linked space whose main content moved (a merge, an
// import), in the transaction that moved it. A space with no link is left alone.
func (svc *Service) ContentMoved(ctx context.Context, tx *ent.Tx, s *ent.Space) error {
	linked, err := tx.GitSync.Query().Where(gitsync.SpaceID(s.ID)).Exist(system(ctx))
	if err != nil || !linked {
		return err
	}
	return svc.queueExport(system(ctx), tx.Client(), s.ID)
}

// Info is the space's link and its last operation, nil when it has none.
func (svc *Service) Info(ctx context.Context, spaceID string) (*ent.GitSync, error) {
	if _, err := svc.SpaceTarget(ctx, spaceID, triggerRole, "see the space's Git Sync"); err != nil {
		return nil, err
	}
	g, err := svc.linkOf(ctx, spaceID)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return g, err
}

func (svc *Service) linkOf(ctx context.Context, spaceID string) (*ent.GitSync, error) {
	return svc.Client.GitSync.Query().Where(gitsync.SpaceID(spaceID)).Only(system(ctx))
}

// RunExport is the handler of ExportJob: it exports the space's main content to its linked
// branch, unless the branch already mirrors that revision, and records the operation. What the
// repository answers (unreachable, refused) is recorded as the operation's failure, not retried.
func (svc *Service) RunExport(ctx context.Context, j *jobs.Job) (time.Time, error) {
	ctx = viewer.NewContext(ctx, viewer.System())
	sys := system(ctx)
	g, err := svc.linkOf(sys, j.Key)
	if ent.IsNotFound(err) {
		return time.Time{}, nil // unlinked since
	}
	if err != nil {
		return time.Time{}, err
	}
	s, err := svc.Client.Space.Get(sys, g.SpaceID)
	if ent.IsNotFound(err) || (err == nil && s.RevisionID == nil) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	if g.RevisionID != nil && *g.RevisionID == *s.RevisionID {
		return time.Time{}, nil
	}
	remote, err := svc.remoteOf(sys, g)
	if err != nil {
		return time.Time{}, err
	}
	started := svc.Now(ctx)
	if err := svc.Client.GitSync.UpdateOne(g).SetOperationDirection(gitsync.OperationDirectionExport).
		SetOperationState(gitsync.OperationStateRunning).SetOperationStartedAt(started).ClearOperationEndedAt().
		ClearOperationError().Exec(sys); err != nil {
		return time.Time{}, err
	}
	who, message := svc.authorOf(sys, s, g)
	runCtx, cancel := context.WithTimeout(ctx, syncTimeout)
	defer cancel()
	commit, err := svc.publish(runCtx, s, remote, g.Root, who, message)
	return time.Time{}, svc.recordOutcome(sys, j, g, *s.RevisionID, commit, err)
}

// recordOutcome writes how an export ended, holding the job's lease.
func (svc *Service) recordOutcome(ctx context.Context, j *jobs.Job, g *ent.GitSync, revisionID, commit string, failure error) error {
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := j.Hold(ctx, tx); err != nil {
			return err
		}
		return outcomeUpdate(tx.GitSync.UpdateOne(g).SetOperationEndedAt(svc.Now(ctx)), revisionID, commit, failure).Exec(ctx)
	})
}

// outcomeUpdate sets the state, error, commit and revision an export's outcome leaves.
func outcomeUpdate(upd *ent.GitSyncUpdateOne, revisionID, commit string, failure error) *ent.GitSyncUpdateOne {
	switch {
	case errors.Is(failure, context.DeadlineExceeded):
		upd.SetOperationState(gitsync.OperationStateTimeout).SetOperationError("the export took longer than " + syncTimeout.String())
	case failure != nil:
		upd.SetOperationState(gitsync.OperationStateFailure).SetOperationError(clip(failure.Error(), 1200))
	default:
		upd.SetOperationState(gitsync.OperationStateSuccess).SetCommit(commit).SetRevisionID(revisionID)
	}
	return upd
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// remoteOf is the link's remote, its token unsealed.
func (svc *Service) remoteOf(ctx context.Context, g *ent.GitSync) (Remote, error) {
	r := Remote{URL: g.URL, Branch: g.Branch}
	if HasToken(g) {
		token, err := svc.Keys.Unseal(ctx, svc.Client, tokenLabel(g.SpaceID), *g.SealedToken)
		if err != nil {
			return r, fmt.Errorf("gitsync: the token of space %s does not open: %w", g.SpaceID, err)
		}
		r.Token = string(token)
	}
	return r, nil
}

// HasToken reports whether the link keeps a token.
func HasToken(g *ent.GitSync) bool { return g.SealedToken != nil && len(*g.SealedToken) > 0 }

// identity is who a commit is by; zero for the link's configured identity.
type identity struct{ name, email string }

// authorOf is who the export of the space's revision is by and its message: the author and
// subject of the change request whose merge made it, else the link's identity and the message of
// the call that linked it.
func (svc *Service) authorOf(ctx context.Context, s *ent.Space, g *ent.GitSync) (identity, string) {
	cr, err := svc.Client.ChangeRequest.Query().Where(changerequest.RevisionMergedID(*s.RevisionID)).
		WithCreator().Only(ctx)
	if err != nil || cr.Edges.Creator == nil {
		return identity{g.AuthorName, g.AuthorEmail}, g.CommitMessage
	}
	message := cr.Subject
	if message == "" {
		message = fmt.Sprintf("Change request #%d", cr.Number)
	}
	return identity{cr.Edges.Creator.DisplayName, cr.Edges.Creator.Email}, message
}

// publish exports the space's main content and commits it onto the remote's branch.
func (svc *Service) publish(ctx context.Context, s *ent.Space, r Remote, root string, who identity, message string) (string, error) {
	if s.RevisionID == nil {
		return "", errors.New("the space has no content yet")
	}
	_, t, err := svc.Contents.RevisionAndTree(ctx, *s.RevisionID)
	if err != nil {
		return "", err
	}
	files, err := svc.exportFiles(ctx, t, root)
	if err != nil {
		return "", err
	}
	if who == (identity{}) {
		who = identity{"Bindery", "bindery@localhost"}
	}
	if message == "" {
		message = "Update from Bindery"
	}
	return Publish(ctx, r, root, files, Signature{Name: who.name, Email: who.email, When: svc.Now(ctx)}, message)
}

// exportFiles lays the tree out (format.Export) with the bytes of its files.
func (svc *Service) exportFiles(ctx context.Context, t *tree.Tree, root string) ([]File, error) {
	var hashes []string
	t.Walk(func(p *tree.Page, _ string) {
		if p.Body != "" {
			hashes = append(hashes, p.Body)
		}
	})
	bodies, err := svc.Contents.Bodies(ctx, hashes)
	if err != nil {
		return nil, err
	}
	entries, _ := format.Export(format.Space{Tree: t, Bodies: bodies, Root: root})
	files := make([]File, 0, len(entries))
	for _, e := range entries {
		data := e.Data
		if e.File != "" {
			if data, err = svc.fileBytes(ctx, t.File(e.File)); err != nil {
				return nil, err
			}
		}
		files = append(files, File{Path: e.Path, Data: data})
	}
	return files, nil
}

func (svc *Service) fileBytes(ctx context.Context, f *tree.File) ([]byte, error) {
	body, err := svc.Blobs.Open(ctx, f.Blob)
	if err != nil {
		return nil, fmt.Errorf("the bytes of file %s: %w", f.ID, err)
	}
	defer body.Close()
	return io.ReadAll(body)
}
