package revisions

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/txn"
)

// ChangeRequestBase is the space revision a change request's content was last based on: the
// revision it last pulled in by an update, else the one it was created from.
func ChangeRequestBase(cr *ent.ChangeRequest) string {
	if cr.RevisionMergedAncestorID != nil {
		return *cr.RevisionMergedAncestorID
	}
	return cr.RevisionInitialID
}

// inLockedContent runs fn in a transaction on a change request the viewer may work on with role
// min (ChangeRequestTarget), the change request and its space re-read and locked first (lockContent), and
// returns the change request as it was found.
func (svc *Service) inLockedContent(ctx context.Context, spaceID, crRef string, min viewer.Role, what string,
	fn func(tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) error) (*ent.ChangeRequest, error) {
	s, cr, err := svc.ChangeRequestTarget(ctx, spaceID, crRef, min, what)
	if err != nil {
		return nil, err
	}
	return cr, txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		locked, lockedCR, err := lockContent(ctx, tx, s.ID, cr.ID)
		if err != nil {
			return err
		}
		return fn(tx, locked, lockedCR)
	})
}

// LockSpace reads a live space in tx, its row locked until tx ends on PostgreSQL (SQLite's one
// writer serializes write transactions already). Writes that lock a change request too lock
// its space first, like lockContent, so they cannot deadlock. Returns NOT_FOUND.
func LockSpace(ctx context.Context, tx *ent.Tx, id string) (*ent.Space, error) {
	s, err := tx.Space.Query().Where(space.ID(id), space.DeletedAtIsNil()).Modify(txn.ForUpdate).Only(ctx)
	return s, rule.NotFound(err, "space")
}

// lockContent re-reads a space and one of its change requests in tx, locking both rows on
// PostgreSQL (SQLite's one writer already serializes), so that concurrent batches, updates and
// merges on them queue and each sees the others' results. It refuses a locked space (403) and a
// change request that is merged or archived (400).
func lockContent(ctx context.Context, tx *ent.Tx, spaceID, crID string) (*ent.Space, *ent.ChangeRequest, error) {
	s, err := LockSpace(ctx, tx, spaceID)
	if err != nil {
		return nil, nil, err
	}
	cr, err := tx.ChangeRequest.Query().Where(changerequest.ID(crID)).Modify(txn.ForUpdate).Only(ctx)
	if err != nil {
		return nil, nil, rule.NotFound(err, "change request")
	}
	return s, cr, editable(s, cr)
}

// editable refuses content changes to a locked space (403) and to a change request that is
// merged or archived (400); cr is nil for the space's main content.
func editable(s *ent.Space, cr *ent.ChangeRequest) error {
	if s.EditMode == space.EditModeLocked {
		return apperr.Forbiddenf("the space is locked: its content cannot change until an admin sets editMode to live")
	}
	if cr != nil && (cr.Status == changerequest.StatusMerged || cr.Status == changerequest.StatusArchived) {
		return apperr.Invalidf("change request #%d is %s: its content can no longer change", cr.Number, cr.Status)
	}
	return nil
}

// AdjustChangeRequestCounts keeps a space's change request counters exact when one of its
// change requests moves from one status to another in tx; from is "" for a new change request.
// The counters are incremented by the database, so concurrent writes add up.
func AdjustChangeRequestCounts(ctx context.Context, tx *ent.Tx, spaceID string, from, to changerequest.Status) error {
	upd := tx.Space.UpdateOneID(spaceID)
	if from == "" {
		upd.AddChangeRequestsCount(1)
	}
	if d := statusDelta(from, to, changerequest.StatusOpen); d != 0 {
		upd.AddChangeRequestsOpenCount(d)
	}
	if d := statusDelta(from, to, changerequest.StatusDraft); d != 0 {
		upd.AddChangeRequestsDraftCount(d)
	}
	if len(upd.Mutation().AddedFields()) == 0 {
		return nil // e.g. archived to merged: no counter follows either
	}
	return upd.Exec(ctx)
}

// statusDelta is how the count of change requests in status counted changes when one moves
// from one status to another.
func statusDelta(from, to, counted changerequest.Status) int {
	d := 0
	if from == counted {
		d--
	}
	if to == counted {
		d++
	}
	return d
}
