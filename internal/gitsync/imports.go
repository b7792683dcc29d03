package gitsync

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/gitsync"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/changerequests"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/importer"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/gitsync/format"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/mergerules"
	"github.com/binderyhq/bindery/internal/txn"
)

// importLimits bound what an import reads of a branch's head.
var importLimits = Limits{MaxFiles: format.MaxFiles, MaxFileBytes: edit.MaxFileSize, MaxBytes: format.MaxBytes}

// Import imports the head of the request's branch into the space. A linked call links the space
// to the branch (replacing a former link) and queues its sync, which imports the head into the
// main content, and then every push the poll or a later call finds; a standalone one reads the
// head at once into a new change request of the viewer's (a revision that is not the main
// content, as the reference has it) and links nothing. Returns NOT_FOUND, FORBIDDEN, INVALID (a
// refused URL, a bad ref or root), and for a standalone import what the repository answered.
func (svc *Service) Import(ctx context.Context, spaceID string, req Request) error {
	s, err := svc.SpaceTarget(ctx, spaceID, triggerRole, "import a git repository into the space")
	if err != nil {
		return err
	}
	remote, root, err := svc.checkRequest(req)
	if err != nil {
		return err
	}
	if req.Standalone {
		return svc.importStandalone(ctx, s, remote, root)
	}
	return svc.link(ctx, s, remote, root, req.CommitMessage, gitsync.OperationDirectionImport)
}

// importStandalone reads the branch's head into a new change request by the viewer.
func (svc *Service) importStandalone(ctx context.Context, s *ent.Space, r Remote, root string) error {
	by := viewer.FromContext(ctx).UserID
	if by == "" {
		return apperr.Invalidf("standalone: a standalone import opens a change request, which takes a user's token")
	}
	runCtx, cancel := context.WithTimeout(ctx, syncTimeout)
	defer cancel()
	snap, err := Read(runCtx, r, importLimits)
	if err != nil {
		return apperr.Invalidf("%s", err.Error())
	}
	sys := system(ctx)
	base, laid, err := svc.lay(sys, *s.RevisionID, root, snap)
	if err != nil {
		return apperr.Invalidf("%s", err.Error())
	}
	return txn.Run(sys, svc.Client, func(tx *ent.Tx) error {
		locked, err := lockLive(sys, tx, s.ID)
		if err != nil {
			return err
		}
		_, rev, err := svc.intoChangeRequest(sys, tx, locked, nil, base, laid, subjectOf(snap), by)
		if err != nil {
			return err
		}
		link := &ent.GitSync{SpaceID: s.ID, OrganizationID: s.OrganizationID, URL: r.URL, Branch: r.Branch}
		more := map[string]any{"standalone": true}
		if len(laid.Warnings) > 0 {
			more["warnings"] = laid.Warnings
		}
		entry := syncEntry(audit.GitSyncImported, link, snap.Commit, rev.ID, more)
		if err := audit.Record(ctx, tx.Client(), entry); err != nil {
			return err
		}
		return recordCommit(sys, tx, link, rev.ID, outcome{direction: gitsync.OperationDirectionImport, commit: snap.Commit,
			message: snap.Message, pages: pageBlobs(laid.Paths, snap.Blobs)})
	})
}

// importHead imports the head of the linked branch (the job holding the space's lease). When the
// main content is what the last sync left (or the link's first import) and no merge rules are in
// force, the head's content becomes a revision of the main content, changing only what the
// commits changed. Otherwise the head's content arrives as a change request by the user who
// linked the space, laid over what the last sync left, which is merged at once, as that user,
// when the merge rules let it (the merge gate, never a bypass) and the three-way merge finds no
// conflict; otherwise it is updated from the main content (the conflicts marked in its pages) and
// waits for a person — a review, a resolution — as it does when the branch was force-pushed. A
// change request that waits takes the pushes that follow. Nothing of either side is overwritten,
// and nothing reaches the main content that the space's merge rules would keep out.
func (svc *Service) importHead(ctx, sys context.Context, j *jobs.Job, g *ent.GitSync, s *ent.Space, r Remote) error {
	if err := svc.markRunning(sys, g, gitsync.OperationDirectionImport); err != nil {
		return err
	}
	failed := func(err error) error {
		return svc.recordOutcome(sys, j, g, outcome{direction: gitsync.OperationDirectionImport, failure: err})
	}
	since := ""
	if g.Commit != nil {
		since = *g.Commit
	}
	snap, err := ReadSince(ctx, r, importLimits, since)
	if err != nil {
		return failed(err)
	}
	waiting, err := svc.waitingChangeRequest(sys, g)
	if err != nil {
		return err
	}
	baseID := *s.RevisionID
	if g.RevisionID != nil {
		baseID = *g.RevisionID
	}
	base, laid, err := svc.lay(sys, baseID, g.Root, snap)
	if err != nil {
		return failed(err)
	}
	forced := !snap.Follows
	o := outcome{direction: gitsync.OperationDirectionImport, commit: snap.Commit, message: snap.Message,
		pages: pageBlobs(laid.Paths, snap.Blobs), warnings: laid.Warnings}
	var cr *ent.ChangeRequest
	err = txn.Run(sys, svc.Client, func(tx *ent.Tx) error {
		if err := j.Hold(sys, tx); err != nil {
			return err
		}
		s, err := lockLive(sys, tx, s.ID)
		if err != nil {
			return err
		}
		direct, err := svc.direct(sys, tx, s, base, laid, waiting == nil && !forced)
		if err != nil {
			return err
		}
		if direct {
			rev, err := svc.intoMain(sys, tx, s, base, laid) // base itself when the commits change nothing
			if err != nil {
				return err
			}
			o.revision = rev.ID
			return svc.writeOutcome(sys, tx, g, o)
		}
		var rev *ent.Revision
		cr, rev, err = svc.intoChangeRequest(sys, tx, s, waiting, base, laid, subjectOf(snap), linker(g))
		if err == nil {
			o.revision = rev.ID
		}
		return err
	})
	if cr != nil && err == nil { // the change request's content is written: merge it, or mark its conflicts
		err = txn.Run(sys, svc.Client, func(tx *ent.Tx) error {
			if err := j.Hold(sys, tx); err != nil {
				return err
			}
			merged, unmet, err := svc.settle(asUser(sys, linker(g)), tx, s.ID, cr.ID, waiting == nil && !forced)
			if err != nil {
				return err
			}
			if !merged {
				o.waiting, o.unmet = cr.ID, unmet
			}
			return svc.writeOutcome(sys, tx, g, o)
		})
	}
	if e := apperr.As(err); e != nil && e.Kind != apperr.Internal {
		return failed(err) // the space is locked, nobody to author a change request
	}
	return err
}

// linker is the user who linked the space, "" for none.
func linker(g *ent.GitSync) string {
	if g.LinkedBy == nil {
		return ""
	}
	return *g.LinkedBy
}

// direct reports whether laid, an import's content, goes straight into the main content
// (intoMain): when may says it can (no change request waits, no force-push) and it changes
// nothing, or the main content is its base and no merge rules are in force on the space — rules
// keep out of the main content whatever nobody reviewed.
func (svc *Service) direct(ctx context.Context, tx *ent.Tx, s *ent.Space, base *ent.Revision, laid *format.Imported, may bool) (bool, error) {
	switch {
	case !may:
		return false, nil
	case len(laid.Changed) == 0:
		return true, nil
	case *s.RevisionID != base.ID:
		return false, nil
	}
	rules, err := changerequests.MergeRules(ctx, tx.Client(), s)
	return rules.Type != mergerules.TypeRules, err
}

// asUser is ctx (the sync job's: the system's decision, source integration) acting as the user
// userID: the merger of the change requests an import opens, by the user who linked the space.
func asUser(ctx context.Context, userID string) context.Context {
	return viewer.NewContext(ctx, viewer.NewUser(userID, "", nil))
}

// settle merges the change request an import wrote when merge says so, the merge rules let the
// viewer (the user who linked the space) merge it and the three-way merge finds no conflict;
// otherwise it updates it from the main content, the conflicts marked in its pages, and merges
// it then if the merge rules alone refused it and, brought up to date, it meets them. It reports
// whether it merged, and else the merge rules the change request does not meet yet.
func (svc *Service) settle(ctx context.Context, tx *ent.Tx, spaceID, crID string, merge bool) (bool, []string, error) {
	s, err := lockLive(ctx, tx, spaceID)
	if err != nil {
		return false, nil, err
	}
	cr, err := tx.ChangeRequest.Get(ctx, crID)
	if err != nil {
		return false, nil, err
	}
	rv := svc.Revisions()
	if merge {
		if merged, err := tryMerge(ctx, rv, tx, s, cr); merged || err != nil {
			return merged, nil, err
		}
	}
	up, err := rv.UpdateLocked(ctx, tx, s, cr)
	if err != nil {
		return false, nil, err
	}
	if cr, err = tx.ChangeRequest.Get(ctx, crID); err != nil {
		return false, nil, err
	}
	unmet, err := refusedRules(rv.MergeGate(ctx, tx, s, cr)) // no side effect: an integration never bypasses
	if merge && err == nil && len(unmet) == 0 && len(up.Conflicts) == 0 {
		merged, err := tryMerge(ctx, rv, tx, s, cr)
		return merged, nil, err
	}
	return false, unmet, err
}

// tryMerge merges cr through the merge gate (revisions.Service.MergeLocked) and reports whether it
// did; a change request the merge rules refuse, or whose merge conflicts, is not merged and is no
// error.
func tryMerge(ctx context.Context, rv *revisions.Service, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) (bool, error) {
	_, err := rv.MergeLocked(ctx, tx, s, cr)
	if _, rerr := refusedRules(err); rerr == nil {
		return err == nil, nil
	}
	if e := apperr.As(err); e != nil && e.Kind == apperr.Conflict {
		return false, nil
	}
	return false, err
}

// refusedRules are the merge rules a refusal of the merge gate names; nil and no error when err
// is nil, err when it is no refusal.
func refusedRules(err error) ([]string, error) {
	var refused *mergerules.RefusedError
	if errors.As(err, &refused) {
		return refused.Rules, nil
	}
	return nil, err
}

// lockLive locks the space's row in tx and refuses a locked space.
func lockLive(ctx context.Context, tx *ent.Tx, spaceID string) (*ent.Space, error) {
	s, err := revisions.LockSpace(ctx, tx, spaceID)
	if err == nil && s.EditMode == space.EditModeLocked {
		err = apperr.Forbiddenf("the space is locked: its content cannot change until an admin sets editMode to live")
	}
	return s, err
}

// intoMain writes laid as a revision of the space's main content, which moves to it; base when
// it changes nothing.
func (svc *Service) intoMain(ctx context.Context, tx *ent.Tx, s *ent.Space, base *ent.Revision, laid *format.Imported) (*ent.Revision, error) {
	if len(laid.Changed) == 0 {
		return base, nil
	}
	rv := svc.Revisions()
	rev, err := rv.WriteLaid(ctx, tx, s, nil, base, written(laid))
	if err != nil {
		return nil, err
	}
	return rev, rv.MoveMain(ctx, tx, s, base, rev)
}

// intoChangeRequest writes laid, content laid over revision base, as the content of the change
// request cr, or of a new one by the user by on base when cr is nil (settle then merges it or
// marks its conflicts, in a transaction that reads what this one wrote). Returns the change
// request and the revision laid wrote.
func (svc *Service) intoChangeRequest(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest, base *ent.Revision,
	laid *format.Imported, subject, by string) (*ent.ChangeRequest, *ent.Revision, error) {
	if cr == nil {
		if by == "" {
			return nil, nil, apperr.Invalidf("the branch's commits need a change request, and the link names no user to open it: link the space again")
		}
		var err error
		if cr, err = changerequests.Open(ctx, tx, s.ID, subject, by, base.ID); err != nil {
			return nil, nil, err
		}
	}
	rev, err := svc.Revisions().WriteLaid(ctx, tx, s, &cr.ID, base, written(laid))
	if err != nil {
		return nil, nil, err
	}
	cr, err = tx.ChangeRequest.UpdateOneID(cr.ID).SetRevisionID(rev.ID).ClearRevisionMergedAncestorID().Save(ctx)
	return cr, rev, err
}

// subjectOf is the subject of a change request an import opens: the first line of the head's
// message.
func subjectOf(snap *Snapshot) string {
	line, _, _ := strings.Cut(strings.TrimSpace(snap.Message), "\n")
	subject := "Git: " + strings.TrimSpace(line)
	if utf8.RuneCountInString(subject) > 100 {
		subject = string([]rune(subject)[:99]) + "…"
	}
	return subject
}

// lay lays a branch's head over revision baseID: only the files that changed since the commit
// the base mirrors, when format.Reimport can (the snapshot says them), else the whole head
// (format.Import); its content with the base's ids where the paths are the same — those the
// base's commit recorded (PagesOf), else the base's export's — and what differs.
func (svc *Service) lay(ctx context.Context, baseID, root string, snap *Snapshot) (*ent.Revision, *format.Imported, error) {
	base, t, err := svc.Contents.RevisionAndTree(ctx, baseID)
	if err != nil {
		return nil, nil, err
	}
	env := edit.Env{Now: svc.Now(ctx), NewID: id.New, Version: noVersions}
	if snap.Changed != nil {
		laid, ok, err := format.Reimport(format.Space{Tree: t, Root: root}, uploads(snap.Changed), env)
		if ok || err != nil {
			return base, laid, err
		}
	}
	bodies, err := svc.bodiesOf(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	known, err := PagesOf(ctx, svc.Client, baseID, nil)
	if err != nil {
		return nil, nil, err
	}
	space := format.Space{Tree: t, Bodies: bodies, Root: root, Known: make(map[string]string, len(known))}
	for id, b := range known {
		space.Known[id] = b.Path
	}
	laid, err := format.Import(space, uploads(snap.Files), env)
	if err == nil && len(laid.Warnings) > 0 {
		slog.WarnContext(ctx, "gitsync: the import left parts of the repository as they are", "revision", baseID,
			"commit", snap.Commit, "warnings", laid.Warnings)
	}
	return base, laid, err
}

// written is what of laid a revision writes.
func written(laid *format.Imported) revisions.Laid {
	return revisions.Laid{Tree: laid.Tree, Changed: laid.Changed, Bodies: laid.Bodies, Blobs: laid.Blobs}
}

// uploads are files as the importer reads them.
func uploads(files []File) []importer.Upload {
	out := make([]importer.Upload, len(files))
	for i, f := range files {
		out[i] = importer.Upload{Path: f.Path, Data: f.Data}
	}
	return out
}

// noVersions is the revision lookup of an import's batches, which revert nothing.
func noVersions(string) (*tree.Tree, error) { return nil, errors.New("an import reverts no page") }
