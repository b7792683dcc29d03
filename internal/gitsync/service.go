package gitsync

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/gitcommit"
	"github.com/binderyhq/bindery/ent/gitsync"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/gitsync/format"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/serverkey"
	"github.com/binderyhq/bindery/internal/txn"
)

// SyncJob is the kind of the background job that syncs a linked space with its branch (its key
// is the space's id): it imports the branch's head when it moved since the last sync, else
// exports the main content when that moved. Every move of the main content and every poll ask
// for it, so merges export and pushes import on their own, one at a time per space whichever
// server runs it.
const SyncJob = "gitsync-sync"

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
	// Revisions builds the content writes an import makes (a function: they ask this service
	// for ContentMoved).
	Revisions func() *revisions.Service
	// PollInterval is how often every linked branch is looked at for pushes (--git-poll); 0 for
	// never: imports then come from calls only.
	PollInterval time.Duration
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
		commit, _, err := svc.publish(ctx, s, remote, "", root, "", identity{}, req.CommitMessage)
		if err != nil {
			return apperr.Invalidf("%s", err.Error())
		}
		link := &ent.GitSync{SpaceID: s.ID, OrganizationID: s.OrganizationID, URL: remote.URL, Branch: remote.Branch}
		return audit.Record(ctx, svc.Client, syncEntry(audit.GitSyncExported, link, commit, *s.RevisionID, map[string]any{"standalone": true}))
	}
	return svc.link(ctx, s, remote, root, req.CommitMessage, gitsync.OperationDirectionExport)
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
// repository is the same) and queues its sync. A link to another branch (or folder) starts over:
// its first sync goes in direction, the branch's head imported into the space or the space
// exported onto the branch; a call naming the linked branch again only asks for a sync now.
func (svc *Service) link(ctx context.Context, s *ent.Space, r Remote, root, message string, direction gitsync.OperationDirection) error {
	by := viewer.FromContext(ctx).UserID
	sys := system(ctx)
	var sealed []byte
	if r.Token != "" {
		var err error
		if sealed, err = svc.Keys.Seal(sys, svc.Client, tokenLabel(s.ID), []byte(r.Token)); err != nil {
			return err
		}
	}
	same, err := svc.Client.GitSync.Query().Where(gitsync.SpaceID(s.ID), gitsync.URL(r.URL), gitsync.Branch(r.Branch),
		gitsync.Root(root)).Exist(sys)
	if err != nil {
		return err
	}
	return txn.Run(sys, svc.Client, func(tx *ent.Tx) error {
		create := tx.GitSync.Create().SetSpaceID(s.ID).SetOrganizationID(s.OrganizationID).
			SetURL(r.URL).SetBranch(r.Branch).SetRoot(root).SetCommitMessage(message).SetOperationDirection(direction)
		if sealed != nil {
			create.SetSealedToken(sealed)
		}
		if by != "" {
			create.SetLinkedBy(by)
		}
		err := create.OnConflictColumns(gitsync.FieldSpaceID).Update(func(u *ent.GitSyncUpsert) {
			u.SetCommitMessage(message).UpdateUpdatedAt()
			if !same { // another branch: its first sync goes in the call's direction
				u.SetURL(r.URL).SetBranch(r.Branch).SetRoot(root).ClearCommit().ClearRevisionID().ClearChangeRequestID().
					SetOperationDirection(direction).ClearOperationState().ClearOperationStartedAt().ClearOperationEndedAt().
					ClearOperationError()
			}
			if sealed != nil {
				u.SetSealedToken(sealed)
			}
			if by != "" {
				u.SetLinkedBy(by)
			}
		}).Exec(sys)
		if err != nil {
			return err
		}
		link := &ent.GitSync{SpaceID: s.ID, OrganizationID: s.OrganizationID, URL: r.URL, Branch: r.Branch}
		entry := syncEntry(audit.GitSyncLinked, link, "", "", map[string]any{"direction": direction.String(),
			"repoProjectDirectory": root, "token": r.Token != ""})
		if err := audit.Record(sys, tx.Client(), entry); err != nil {
			return err
		}
		return svc.queueSync(sys, tx.Client(), s.ID)
	})
}

// syncEntry is the audit entry of a Git Sync action on the link's space: the repository and
// branch, the commit and revision when there are, and more.
func syncEntry(action string, g *ent.GitSync, commit, revision string, more map[string]any) audit.Entry {
	payload := map[string]any{"url": g.URL, "ref": "refs/heads/" + g.Branch}
	if commit != "" {
		payload["commit"], payload["revision"] = commit, revision
	}
	maps.Copy(payload, more)
	return audit.Entry{Organization: g.OrganizationID, Action: action, TargetType: "space", TargetID: g.SpaceID, Payload: payload}
}

// tokenLabel binds a sealed token to its space: copied to another row it does not open.
func tokenLabel(spaceID string) string { return "gitsync-token:" + spaceID }

// queueSync asks for the space's sync now, in client's transaction when it is one.
func (svc *Service) queueSync(ctx context.Context, client *ent.Client, spaceID string) error {
	if err := jobs.Enqueue(ctx, client, SyncJob, spaceID, svc.Now(ctx)); err != nil {
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
	return svc.queueSync(system(ctx), tx.Client(), s.ID)
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

// RunSync is the handler of SyncJob. It looks at the head of the space's branch: when it moved
// since the last sync (or the link asks for a first import) it imports it (importHead);
// otherwise, when the main content moved since and no change request of an import waits for a
// person, it exports the main content onto the head it last synced. Either waits, recorded as
// the operation's failure, while the user who linked the space may not take it (heldBack). What
// the repository answers (unreachable, refused) is recorded as the operation's failure, not
// retried.
func (svc *Service) RunSync(ctx context.Context, j *jobs.Job) (time.Time, error) {
	ctx = viewer.WithSource(viewer.NewContext(ctx, viewer.System()), viewer.SourceIntegration, "Git Sync")
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
	remote, err := svc.remoteOf(sys, g)
	if err != nil {
		return time.Time{}, err
	}
	runCtx, cancel := context.WithTimeout(ctx, syncTimeout)
	defer cancel()
	head, err := Head(runCtx, remote)
	if err != nil {
		if err := svc.markRunning(sys, g, svc.nextDirection(g)); err != nil {
			return time.Time{}, err
		}
		return time.Time{}, svc.recordOutcome(sys, j, g, outcome{direction: svc.nextDirection(g), failure: err})
	}
	direction := gitsync.OperationDirectionImport
	if !wantsImport(g, head) {
		direction = gitsync.OperationDirectionExport
		if export, err := svc.wantsExport(sys, g, s); err != nil || !export {
			return time.Time{}, err
		}
	}
	switch why, err := svc.heldBack(sys, g, s, direction); {
	case err != nil:
		return time.Time{}, err
	case why != "":
		return time.Time{}, svc.recordHeld(sys, j, g, direction, head, why)
	}
	if direction == gitsync.OperationDirectionImport {
		return time.Time{}, svc.importHead(runCtx, sys, j, g, s, remote)
	}
	if err := svc.markRunning(sys, g, gitsync.OperationDirectionExport); err != nil {
		return time.Time{}, err
	}
	parent, since := "", ""
	if g.Commit != nil && head != "" {
		parent = *g.Commit
		if g.RevisionID != nil {
			since = *g.RevisionID
		}
	}
	who, message := svc.authorOf(sys, s, g)
	commit, pages, err := svc.publish(runCtx, s, remote, parent, g.Root, since, who, message)
	again := time.Time{}
	if errors.Is(err, ErrMoved) {
		again = svc.Now(ctx) // the push comes first: it is imported at once
	}
	return again, svc.recordOutcome(sys, j, g, outcome{direction: gitsync.OperationDirectionExport,
		revision: *s.RevisionID, commit: commit, message: message, failure: err, pages: pages})
}

// nextDirection is the direction of the link's next sync: a first import asked for and not
// done yet, else an export.
func (svc *Service) nextDirection(g *ent.GitSync) gitsync.OperationDirection {
	if g.Commit == nil && g.OperationDirection != nil && *g.OperationDirection == gitsync.OperationDirectionImport {
		return gitsync.OperationDirectionImport
	}
	return gitsync.OperationDirectionExport
}

// wantsImport reports whether the branch's head is to be imported: it is not the commit of the
// last sync, or the link asked for a first import. An empty branch has nothing to import.
func wantsImport(g *ent.GitSync, head string) bool {
	if head == "" {
		return false
	}
	if g.Commit == nil {
		return g.OperationDirection != nil && *g.OperationDirection == gitsync.OperationDirectionImport
	}
	return head != *g.Commit
}

// wantsExport reports whether the main content is to be exported: it is not what the branch
// mirrors, and no change request of an import waits for a person (an export would then undo on
// the branch what that change request brings).
func (svc *Service) wantsExport(ctx context.Context, g *ent.GitSync, s *ent.Space) (bool, error) {
	if g.RevisionID != nil && *g.RevisionID == *s.RevisionID {
		return false, nil
	}
	if g.Commit == nil && svc.nextDirection(g) == gitsync.OperationDirectionImport {
		return false, nil
	}
	waiting, err := svc.waitingChangeRequest(ctx, g)
	return waiting == nil, err
}

// waitingChangeRequest is the change request of an import that waits for a person, nil when
// none does (merged or archived since).
func (svc *Service) waitingChangeRequest(ctx context.Context, g *ent.GitSync) (*ent.ChangeRequest, error) {
	if g.ChangeRequestID == nil {
		return nil, nil
	}
	cr, err := svc.Client.ChangeRequest.Query().Where(changerequest.ID(*g.ChangeRequestID),
		changerequest.StatusIn(changerequest.StatusOpen, changerequest.StatusDraft)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return cr, err
}

// markRunning records that an operation started.
func (svc *Service) markRunning(ctx context.Context, g *ent.GitSync, direction gitsync.OperationDirection) error {
	return svc.Client.GitSync.UpdateOne(g).SetOperationDirection(direction).
		SetOperationState(gitsync.OperationStateRunning).SetOperationStartedAt(svc.Now(ctx)).ClearOperationEndedAt().
		ClearOperationError().Exec(ctx)
}

// outcome is how an operation ended: the revision and commit it left in sync, or its failure.
type outcome struct {
	direction gitsync.OperationDirection
	revision  string // the revision the commit mirrors
	commit    string
	message   string
	failure   error
	// waiting is the change request of an import that waits for a person, "" for none; unmet
	// the merge rules it does not meet yet.
	waiting string
	unmet   []string
	// pages are where the revision's pages are in the commit, by page id.
	pages map[string]Blob
	// warnings say what an import left as it is (format.Imported.Warnings).
	warnings []string
}

// recordOutcome writes how an operation ended, holding the job's lease.
func (svc *Service) recordOutcome(ctx context.Context, j *jobs.Job, g *ent.GitSync, o outcome) error {
	return txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if err := j.Hold(ctx, tx); err != nil {
			return err
		}
		return svc.writeOutcome(ctx, tx, g, o)
	})
}

// writeOutcome writes how an operation ended in tx: the link's state, and on success the
// commit of the revision (Revision.git).
func (svc *Service) writeOutcome(ctx context.Context, tx *ent.Tx, g *ent.GitSync, o outcome) error {
	upd := tx.GitSync.UpdateOne(g).SetOperationDirection(o.direction).SetOperationEndedAt(svc.Now(ctx))
	switch {
	case errors.Is(o.failure, context.DeadlineExceeded):
		return upd.SetOperationState(gitsync.OperationStateTimeout).SetOperationError("the " + o.direction.String() + " took longer than " + syncTimeout.String()).Exec(ctx)
	case o.failure != nil:
		return upd.SetOperationState(gitsync.OperationStateFailure).SetOperationError(clip(o.failure.Error(), 1200)).Exec(ctx)
	}
	upd.SetOperationState(gitsync.OperationStateSuccess).SetCommit(o.commit).SetRevisionID(o.revision).ClearOperationError()
	if o.waiting != "" {
		upd.SetChangeRequestID(o.waiting)
	} else {
		upd.ClearChangeRequestID()
	}
	if len(o.unmet) > 0 {
		upd.SetUnmetRules(o.unmet)
	} else {
		upd.ClearUnmetRules()
	}
	if err := upd.Exec(ctx); err != nil {
		return err
	}
	action, more := audit.GitSyncExported, map[string]any{}
	if o.direction == gitsync.OperationDirectionImport {
		action = audit.GitSyncImported
		if o.waiting != "" {
			more["changeRequest"] = o.waiting
		}
		if len(o.unmet) > 0 {
			more["unmetMergeRules"] = o.unmet
		}
		if len(o.warnings) > 0 {
			more["warnings"] = o.warnings
		}
	}
	if err := audit.Record(ctx, tx.Client(), syncEntry(action, g, o.commit, o.revision, more)); err != nil {
		return err
	}
	return recordCommit(ctx, tx, g, o.revision, o)
}

// recordCommit records the commit a revision went with, numbered after the space's last, and
// where its pages are in it (o.pages), unless the revision has one already (an export of content
// an import brought).
func recordCommit(ctx context.Context, tx *ent.Tx, g *ent.GitSync, revisionID string, o outcome) error {
	seq, err := nextSeq(ctx, tx, g.SpaceID)
	if err != nil {
		return err
	}
	err = tx.GitCommit.Create().SetSpaceID(g.SpaceID).SetOrganizationID(g.OrganizationID).SetRevisionID(revisionID).
		SetOid(o.commit).SetMessage(clip(o.message, 4000)).SetRef("refs/heads/" + g.Branch).
		SetCreatedByBindery(o.direction == gitsync.OperationDirectionExport).SetSeq(seq).
		OnConflictColumns(gitcommit.FieldRevisionID).DoNothing().Exec(ctx)
	switch {
	case txn.SkippedUpsert(err):
		return nil
	case err != nil:
		return err
	}
	return recordPages(ctx, tx, g.SpaceID, g.OrganizationID, seq, o.pages)
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

// UnmetRules are the merge rules the change request of an import that waits does not meet yet
// (GitSync.unmetMergeRules); empty, never nil, when none waits.
func UnmetRules(g *ent.GitSync) []string {
	if g.ChangeRequestID == nil || g.UnmetRules == nil {
		return []string{}
	}
	return g.UnmetRules
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

// publish exports the space's main content and commits it onto the remote's branch: as what
// changed since revision since (the one the branch mirrors; "" for none) where that can be said
// without laying out every page (exportPlan), else whole. Returns the branch's head and where
// the pages are in it.
func (svc *Service) publish(ctx context.Context, s *ent.Space, r Remote, parent, root, since string, who identity, message string) (string, map[string]Blob, error) {
	if s.RevisionID == nil {
		return "", nil, errors.New("the space has no content yet")
	}
	rev, t, err := svc.Contents.RevisionAndTree(ctx, *s.RevisionID)
	if err != nil {
		return "", nil, err
	}
	if who == (identity{}) {
		who = identity{"Bindery", "bindery@localhost"}
	}
	if message == "" {
		message = "Update from Bindery"
	}
	plan := svc.exportPlan(ctx, rev, t, root, since)
	pushed, err := Commit(ctx, r, parent, root, plan, Signature{Name: who.name, Email: who.email, When: svc.Now(ctx)}, message)
	if err != nil {
		return "", nil, err
	}
	return pushed.Hash, pageBlobs(format.Paths(t, root), pushed.Blobs), nil
}

// exportPlan is the commit of an export of revision rev (its tree t): the files that differ from
// the export of revision since when format.Delta can say them and the branch's head has the
// files of their pages (it mirrors since with Bindery's layout); otherwise the whole export.
func (svc *Service) exportPlan(ctx context.Context, rev *ent.Revision, t *tree.Tree, root, since string) Plan {
	return func(has func(string) bool) (Changes, error) {
		if since != "" {
			entries, ok, err := svc.delta(ctx, rev, t, root, since)
			if err != nil {
				return Changes{}, err
			}
			if ok && !slices.ContainsFunc(entries, func(e format.Entry) bool { return e.Page != "" && !has(e.Path) }) {
				files, err := svc.entryFiles(ctx, t, entries)
				return Changes{Files: files}, err
			}
		}
		files, err := svc.exportFiles(ctx, t, root)
		return Changes{Files: files, Whole: true}, err
	}
}

// delta is format.Delta from revision since to rev: the entries of rev's export that differ.
func (svc *Service) delta(ctx context.Context, rev *ent.Revision, t *tree.Tree, root, since string) ([]format.Entry, bool, error) {
	was, before, err := svc.Contents.RevisionAndTree(ctx, since)
	if err != nil {
		return nil, false, err
	}
	changed, err := svc.Contents.Diff(ctx, was.RootTree, rev.RootTree)
	if err != nil {
		return nil, false, err
	}
	var hashes []string
	for _, key := range changed {
		e, ok := t.Entry(key)
		switch {
		case ok && e.Page != nil && e.Page.Body != "":
			hashes = append(hashes, e.Page.Body)
		case ok && e.Reusable != nil && e.Reusable.Body != "":
			hashes = append(hashes, e.Reusable.Body)
		}
	}
	bodies, err := svc.Contents.Bodies(ctx, hashes)
	if err != nil {
		return nil, false, err
	}
	entries, ok := format.Delta(format.Space{Tree: before, Root: root}, format.Space{Tree: t, Bodies: bodies, Root: root}, changed)
	return entries, ok, nil
}

// exportFiles lays the tree out (format.Export) with the bytes of its files.
func (svc *Service) exportFiles(ctx context.Context, t *tree.Tree, root string) ([]File, error) {
	bodies, err := svc.bodiesOf(ctx, t)
	if err != nil {
		return nil, err
	}
	entries, _ := format.Export(format.Space{Tree: t, Bodies: bodies, Root: root})
	return svc.entryFiles(ctx, t, entries)
}

// entryFiles are the files of an export's entries, the bytes of the space's files read.
func (svc *Service) entryFiles(ctx context.Context, t *tree.Tree, entries []format.Entry) ([]File, error) {
	files := make([]File, 0, len(entries))
	for _, e := range entries {
		data := e.Data
		if e.File != "" {
			var err error
			if data, err = svc.fileBytes(ctx, t.File(e.File)); err != nil {
				return nil, err
			}
		}
		files = append(files, File{Path: e.Path, Data: data})
	}
	return files, nil
}

// bodiesOf is the Markdown of the tree's pages and reusable contents by body hash.
func (svc *Service) bodiesOf(ctx context.Context, t *tree.Tree) (map[string]string, error) {
	var hashes []string
	t.Walk(func(p *tree.Page, _ string) {
		if p.Body != "" {
			hashes = append(hashes, p.Body)
		}
	})
	for _, r := range t.Reusables() {
		if r.Body != "" {
			hashes = append(hashes, r.Body)
		}
	}
	return svc.Contents.Bodies(ctx, hashes)
}

func (svc *Service) fileBytes(ctx context.Context, f *tree.File) ([]byte, error) {
	body, err := svc.Blobs.Open(ctx, f.Blob)
	if err != nil {
		return nil, fmt.Errorf("the bytes of file %s: %w", f.ID, err)
	}
	defer body.Close()
	return io.ReadAll(body)
}

// PollJob is the kind of the recurring job (key "all") that asks, every PollInterval, for the
// sync of every linked space, so pushes import without a call or a webhook.
const PollJob = "gitsync-poll"

// pollBatch is how many links the poll reads at a time.
const pollBatch = 1000

// RunPoll is the handler of PollJob: it asks for the sync of every linked space (a sync asked for
// already keeps its time) and runs again after PollInterval.
func (svc *Service) RunPoll(ctx context.Context, _ *jobs.Job) (time.Time, error) {
	sys := system(viewer.NewContext(ctx, viewer.System()))
	now := svc.Now(sys)
	for after := ""; ; {
		ids, err := svc.Client.GitSync.Query().Where(gitsync.SpaceIDGT(after)).Order(ent.Asc(gitsync.FieldSpaceID)).
			Limit(pollBatch).Select(gitsync.FieldSpaceID).Strings(sys)
		if err != nil {
			return time.Time{}, err
		}
		for _, id := range ids {
			if err := jobs.Ensure(sys, svc.Client, SyncJob, id, now); err != nil {
				return time.Time{}, err
			}
		}
		if len(ids) < pollBatch {
			break
		}
		after = ids[len(ids)-1]
	}
	if svc.Jobs != nil {
		svc.Jobs.Wake()
	}
	return now.Add(svc.PollInterval), nil
}

// SchedulePoll makes the poll's job exist, due at now when it is new (a server that polls calls
// it when it starts).
func SchedulePoll(ctx context.Context, client *ent.Client, now time.Time) error {
	return jobs.Ensure(ctx, client, PollJob, "all", now)
}

// CommitsOf are the git commits revisions went with (exported to or imported from), by revision
// id; a revision without one is absent. The viewer's read of the revisions decided the access
// already; the commits' policy repeats it.
func CommitsOf(ctx context.Context, client *ent.Client, revisionIDs []string) (map[string]*ent.GitCommit, error) {
	commits, err := client.GitCommit.Query().Where(gitcommit.RevisionIDIn(revisionIDs...)).All(ctx)
	out := make(map[string]*ent.GitCommit, len(commits))
	for _, c := range commits {
		out[c.RevisionID] = c
	}
	return out, err
}
