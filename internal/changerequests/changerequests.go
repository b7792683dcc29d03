// Package changerequests holds the rules of a space's change requests themselves: finding one by
// its id or its number in the space, opening one on the space's active revision numbered next in
// the space, changing its subject and status, and whether it is outdated. Readers of the space
// read its change requests; the edit role opens them (none while the space is locked) and changes
// them. Their content (edits, merge, update from the space) is internal/content/revisions', their
// comments internal/comments'. It knows nothing of the surfaces: graph and rest translate, and
// graph keeps the lists and fields it batches.
package changerequests

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/txn"
)

const (
	// subjectMax bounds a change request's subject, in characters.
	subjectMax = 100
	// maxNumberDigits bounds what reads as a change request's number rather than its id: ids are
	// 20 characters, and a space will not hold a billion change requests.
	maxNumberDigits = 9
)

// Service is the change requests of one server, as the viewer of a context reads and writes them.
type Service struct {
	Client *ent.Client
	// Space reads a live space the viewer reads. Returns NOT_FOUND otherwise, UNAUTHENTICATED
	// without a viewer.
	Space func(ctx context.Context, id string) (*ent.Space, error)
	// PostComment posts a comment (Markdown) in a change request of a space, as
	// internal/comments does, naming the review it is posted with, and runs then in its
	// transaction: the comment of a review, with the review.
	PostComment func(ctx context.Context, spaceID, crID, reviewID, body string, then func(tx *ent.Tx, commentID string) error) error
}

// Get returns a change request of the space by its id or by its number in the space (spec/02
// convention 1). Returns NOT_FOUND when there is none the viewer can read.
func (svc *Service) Get(ctx context.Context, spaceID, ref string) (*ent.ChangeRequest, error) {
	cr, err := svc.Client.ChangeRequest.Query().Where(changerequest.SpaceID(spaceID), byRef(ref)).Only(sqlplan.ByKey(ctx))
	return cr, rule.NotFound(err, "change request")
}

// byRef matches a change request by number when ref reads as one, else by id.
func byRef(ref string) predicate.ChangeRequest {
	if n, ok := numberOf(ref); ok {
		return changerequest.Number(n)
	}
	return changerequest.ID(ref)
}

// numberOf reads ref as a change request's number: a short run of digits.
func numberOf(ref string) (int, bool) {
	if len(ref) > maxNumberDigits || strings.Trim(ref, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(ref)
	return n, err == nil
}

// InSpace returns a change request (by id or number) of a space the viewer can read, with the
// space as its edge. Returns NOT_FOUND when either is not there for the viewer.
func (svc *Service) InSpace(ctx context.Context, spaceID, ref string) (*ent.ChangeRequest, error) {
	s, err := svc.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	cr, err := svc.Get(ctx, s.ID, ref)
	if err != nil {
		return nil, err
	}
	cr.Edges.Space = s
	return cr, nil
}

// Target finds a change request (by id or number) to change: the space must be readable, and the
// change request one of its (else NOT_FOUND), and the viewer's role on the space at least min
// (else FORBIDDEN, saying what for).
func (svc *Service) Target(ctx context.Context, spaceID, ref string, min viewer.Role, what string) (*ent.Space, *ent.ChangeRequest, error) {
	s, err := svc.Space(ctx, spaceID)
	if err != nil {
		return nil, nil, err
	}
	cr, err := svc.Get(ctx, s.ID, ref)
	if err != nil {
		return nil, nil, err
	}
	return s, cr, rule.RequireSpaceRole(ctx, s, min, what)
}

// SpaceOf is the space of a change request: the one it was listed or read with, else read now.
func (svc *Service) SpaceOf(ctx context.Context, cr *ent.ChangeRequest) (*ent.Space, error) {
	if s := cr.Edges.Space; s != nil {
		return s, nil
	}
	return svc.Space(ctx, cr.SpaceID)
}

// Outdated reports whether the space's active revision moved since the change request's base (the
// revision it was created from or last updated from). A merged change request is never outdated:
// there is nothing left to bring into it.
func (svc *Service) Outdated(ctx context.Context, cr *ent.ChangeRequest) (bool, error) {
	if cr.Status == changerequest.StatusMerged {
		return false, nil
	}
	s, err := svc.SpaceOf(ctx, cr)
	if err != nil {
		return false, err
	}
	return behind(cr, s), nil
}

// behind reports whether the space's active revision is other than the change request's base.
func behind(cr *ent.ChangeRequest, s *ent.Space) bool {
	return s.RevisionID != nil && *s.RevisionID != revisions.ChangeRequestBase(cr)
}

// Create opens a change request on the space's active revision, numbered next in the space, with
// subject (trimmed; "" for none). It takes the edit role on the space (NOT_FOUND when the viewer
// cannot read it, FORBIDDEN below edit or while the space is locked); INVALID for a subject over
// 100 characters.
//
// Numbers have no gaps or duplicates, also when several servers share one PostgreSQL database:
// the space's row is locked for the transaction, so creations in one space queue, and each takes
// the largest number + 1 (the unique (space_id, number) index backs it).
func (svc *Service) Create(ctx context.Context, spaceID, subject string) (*ent.ChangeRequest, error) {
	s, err := svc.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	if err := rule.RequireSpaceRole(ctx, s, viewer.RoleEdit, "create change requests"); err != nil {
		return nil, err
	}
	subject, err = checkSubject(subject)
	if err != nil {
		return nil, err
	}
	var id string
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) (err error) {
		cr, err := Open(ctx, tx, s.ID, subject, viewer.FromContext(ctx).UserID, "")
		if err == nil {
			id = cr.ID
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return svc.Read(ctx, id)
}

// Open adds, in tx, a change request of the space numbered next, under the space's row lock, by
// the user creator, on revision base of the space ("" for its active revision). The caller
// decided the right to (Create checks the viewer's; a Git Sync import opens one for the user who
// linked the space). FORBIDDEN while the space is locked.
func Open(ctx context.Context, tx *ent.Tx, spaceID, subject, creator, base string) (*ent.ChangeRequest, error) {
	s, err := revisions.LockSpace(ctx, tx, spaceID)
	if err != nil {
		return nil, err
	}
	if s.EditMode == space.EditModeLocked {
		return nil, apperr.Forbiddenf("the space is locked: no change request can be opened until an admin sets editMode to live")
	}
	if s.RevisionID == nil {
		return nil, fmt.Errorf("space %s has no active revision", s.ID)
	}
	if base == "" {
		base = *s.RevisionID
	}
	number, err := nextNumber(ctx, tx, s.ID)
	if err != nil {
		return nil, err
	}
	cr, err := tx.ChangeRequest.Create().SetSpaceID(s.ID).SetOrganizationID(s.OrganizationID).
		SetNumber(number).SetSubject(subject).SetCreatedBy(creator).
		SetRevisionID(base).SetRevisionInitialID(base).Save(ctx)
	if err != nil {
		return nil, err
	}
	if err := revisions.AdjustChangeRequestCounts(ctx, tx, s.ID, "", cr.Status); err != nil {
		return nil, err
	}
	return cr, recordChangeRequest(ctx, tx, events.ChangeRequestCreated, cr, map[string]any{"number": cr.Number})
}

// recordChangeRequest records an event about a change request in the transaction that changes it.
func recordChangeRequest(ctx context.Context, tx *ent.Tx, typ string, cr *ent.ChangeRequest, details map[string]any) error {
	return events.Record(ctx, tx.Client(), events.Event{Type: typ, Organization: cr.OrganizationID,
		ObjectKind: "change-request", ObjectID: cr.ID, Space: cr.SpaceID, Details: details})
}

// nextNumber is the number of the next change request of a space, read in the transaction that
// holds the space's lock.
func nextNumber(ctx context.Context, tx *ent.Tx, spaceID string) (int, error) {
	last, err := tx.ChangeRequest.Query().Where(changerequest.SpaceID(spaceID)).
		Order(ent.Desc(changerequest.FieldNumber)).Limit(1).Select(changerequest.FieldNumber).Ints(ctx)
	if err != nil || len(last) == 0 {
		return 1, err
	}
	return last[0] + 1, nil
}

// Change is what an update changes of a change request; nil leaves a field as it is.
type Change struct {
	Subject *string
	Status  *changerequest.Status
}

// Update changes the subject and/or status of a change request (by id or number). It takes the
// edit role on the space. Returns INVALID for a subject over 100 characters, for the status
// merged (only merging sets it) and for any status change of a merged change request; updatedAt
// changes with every update.
func (svc *Service) Update(ctx context.Context, spaceID, ref string, in Change) (*ent.ChangeRequest, error) {
	s, cr, err := svc.Target(ctx, spaceID, ref, viewer.RoleEdit, "change its change requests")
	if err != nil {
		return nil, err
	}
	if in.Subject, err = checkNewSubject(in.Subject); err != nil {
		return nil, err
	}
	if in.Status != nil {
		if err := checkStatus(*in.Status); err != nil {
			return nil, err
		}
	}
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error { return update(ctx, tx, s.ID, cr.ID, in) })
	if err != nil {
		return nil, err
	}
	return svc.Read(ctx, cr.ID)
}

// update applies a checked change in tx, under the space's row lock, keeping the space's counts
// of change requests by status. Returns INVALID for a status change of a merged change request.
func update(ctx context.Context, tx *ent.Tx, spaceID, id string, in Change) error {
	if _, err := revisions.LockSpace(ctx, tx, spaceID); err != nil {
		return err
	}
	current, err := tx.ChangeRequest.Query().Where(changerequest.ID(id)).Modify(txn.ForUpdate).Only(ctx)
	if err != nil {
		return rule.NotFound(err, "change request")
	}
	upd := tx.ChangeRequest.UpdateOne(current).SetNillableSubject(in.Subject)
	if in.Status != nil {
		if err := checkStatusChangeOf(current); err != nil {
			return err
		}
		upd.SetStatus(*in.Status)
		if err := revisions.AdjustChangeRequestCounts(ctx, tx, spaceID, current.Status, *in.Status); err != nil {
			return err
		}
	}
	if err := upd.Exec(ctx); err != nil {
		return err
	}
	if in.Status != nil && *in.Status != current.Status {
		details := map[string]any{"from": current.Status, "to": *in.Status}
		if err := recordChangeRequest(ctx, tx, events.ChangeRequestStatusChanged, current, details); err != nil {
			return err
		}
	}
	if in.Subject == nil {
		return nil
	}
	return recordChangeRequest(ctx, tx, events.ChangeRequestUpdated, current, map[string]any{"fields": []string{"subject"}})
}

// Read reads a change request by id, as after a write committed. Returns NOT_FOUND when the
// viewer cannot read it.
func (svc *Service) Read(ctx context.Context, id string) (*ent.ChangeRequest, error) {
	cr, err := svc.Client.ChangeRequest.Get(ctx, id)
	return cr, rule.NotFound(err, "change request")
}

// checkSubject is a subject trimmed, checked against its bound. Returns INVALID over 100
// characters.
func checkSubject(subject string) (string, error) {
	return check.Trimmed("subject", subject, 0, subjectMax)
}

// checkNewSubject is a subject a change sets (nil: none), trimmed and checked (checkSubject).
func checkNewSubject(subject *string) (*string, error) {
	if subject == nil {
		return nil, nil
	}
	trimmed, err := checkSubject(*subject)
	return &trimmed, err
}

// checkStatus refuses the status an update may not set: merged, which only merging sets.
func checkStatus(status changerequest.Status) error {
	if status == changerequest.StatusMerged {
		return apperr.Invalidf("status: merged is set by merging the change request, not by an update (use draft, open or archived)")
	}
	return nil
}

// checkStatusChangeOf refuses any status change of a merged change request.
func checkStatusChangeOf(cr *ent.ChangeRequest) error {
	if cr.Status == changerequest.StatusMerged {
		return apperr.Invalidf("status: change request #%d is merged; a merged change request cannot change status", cr.Number)
	}
	return nil
}
