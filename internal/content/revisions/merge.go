package revisions

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/content/merge"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/events"
)

// MergeResult is what a merge or an update made: the revision, merge.ResultMerge,
// merge.ResultUpdate or merge.ResultConflicts, and the conflicts an update wrote into pages.
type MergeResult struct {
	Revision  string
	Result    string
	Conflicts []tree.Conflict
}

// Merge merges a change request into its space's content: a three-way merge of the change
// request's revision onto the space's active revision, from the change request's base. It takes
// the review role, and the space's merge rules must let the viewer merge it (MergeGate: 409 or
// 403 naming the rules). When both sides changed the same thing differently it answers 409 naming
// the conflicts and changes nothing. Merges on one space serialize (inLockedContent), so a second
// merge merges atop the first.
func (svc *Service) Merge(ctx context.Context, spaceID, crRef string) (*MergeResult, error) {
	var out *MergeResult
	_, err := svc.inLockedContent(ctx, spaceID, crRef, viewer.RoleReview, "merge change requests", func(tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) (err error) {
		out, err = svc.MergeLocked(ctx, tx, s, cr)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// MergeLocked merges a change request into its space's content in tx, the space and the change
// request locked already (LockSpace), when the merge rules in force let the viewer merge it
// (MergeGate, which every merge passes: a person's, a Git Sync import's). Returns the gate's
// refusal (a *mergerules.RefusedError), merge.ConflictError when both sides changed the same
// thing differently.
func (svc *Service) MergeLocked(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) (*MergeResult, error) {
	if err := svc.MergeGate(ctx, tx, s, cr); err != nil {
		return nil, err
	}
	m, err := svc.threeWay(ctx, ChangeRequestBase(cr), *s.RevisionID, cr.RevisionID, "main content", "change request")
	if err != nil {
		return nil, err
	}
	if len(m.result.Conflicts) > 0 {
		return nil, merge.ConflictError(cr.Number, m.result.Conflicts)
	}
	rev, err := svc.writeRevision(ctx, tx, m.revision(s, nil, revision.TypeMerge))
	if err != nil {
		return nil, err
	}
	return &MergeResult{Revision: rev.ID, Result: merge.ResultMerge}, svc.recordMerge(ctx, tx, s, cr, m.ours, rev)
}

// recordMerge points the space at the merged revision (from its active revision old) and marks
// the change request merged, keeping the space's counters, its search index and its moved pages
// exact.
func (svc *Service) recordMerge(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest, old, rev *ent.Revision) error {
	if err := svc.MoveMain(ctx, tx, s, old, rev); err != nil {
		return err
	}
	upd := tx.ChangeRequest.UpdateOneID(cr.ID).SetStatus(changerequest.StatusMerged).
		SetRevisionMergedID(rev.ID).SetMergedAt(svc.Now(ctx))
	if v := viewer.FromContext(ctx); v.UserID != "" {
		upd.SetMergedBy(v.UserID)
	}
	if err := upd.Exec(ctx); err != nil {
		return err
	}
	if err := AdjustChangeRequestCounts(ctx, tx, s.ID, cr.Status, changerequest.StatusMerged); err != nil {
		return err
	}
	return events.Record(ctx, tx.Client(), events.Event{Type: events.ChangeRequestMerged, Organization: cr.OrganizationID,
		ObjectKind: "change-request", ObjectID: cr.ID, Space: s.ID,
		Details: map[string]any{"number": cr.Number, "revision": rev.ID}})
}

// UpdateFromMain brings the space's current content into a change request by a three-way merge
// from the change request's base. Conflicting lines are written into the pages between conflict
// markers (the change request's version first) and the result is merge.ResultConflicts, listing
// them, so a person can resolve them with a content batch. It takes the edit role.
func (svc *Service) UpdateFromMain(ctx context.Context, spaceID, crRef string) (*MergeResult, error) {
	var out *MergeResult
	_, err := svc.inLockedContent(ctx, spaceID, crRef, viewer.RoleEdit, "update change requests", func(tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) (err error) {
		out, err = svc.UpdateLocked(ctx, tx, s, cr)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// UpdateLocked brings the space's current content into a change request in tx, as
// UpdateFromMain does, the space and the change request locked already.
func (svc *Service) UpdateLocked(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) (*MergeResult, error) {
	if ChangeRequestBase(cr) == *s.RevisionID {
		return &MergeResult{Revision: cr.RevisionID, Result: merge.ResultUpdate}, nil // up to date already
	}
	m, err := svc.threeWay(ctx, ChangeRequestBase(cr), cr.RevisionID, *s.RevisionID, "change request", "main content")
	if err != nil {
		return nil, err
	}
	rev, err := svc.writeRevision(ctx, tx, m.revision(s, &cr.ID, revision.TypeUpdate))
	if err != nil {
		return nil, err
	}
	out := &MergeResult{Revision: rev.ID, Result: merge.ResultUpdate, Conflicts: m.result.Conflicts}
	if len(out.Conflicts) > 0 {
		out.Result = merge.ResultConflicts
	}
	return out, tx.ChangeRequest.UpdateOneID(cr.ID).SetRevisionID(rev.ID).SetRevisionMergedAncestorID(*s.RevisionID).Exec(ctx)
}

// merged is a three-way merge of two revisions, ready to be written as a revision.
type merged struct {
	ours, theirs *ent.Revision
	result       merge.Result
}

// threeWay merges the tree of revision theirs into the tree of revision ours, from base
// (merge.ThreeWay).
func (svc *Service) threeWay(ctx context.Context, baseID, oursID, theirsID, oursLabel, theirsLabel string) (*merged, error) {
	c := svc.Contents
	base, baseTree, err := c.RevisionAndTree(ctx, baseID)
	if err != nil {
		return nil, err
	}
	ours, oursTree, err := c.RevisionAndTree(ctx, oursID)
	if err != nil {
		return nil, err
	}
	theirs, theirsTree, err := c.RevisionAndTree(ctx, theirsID)
	if err != nil {
		return nil, err
	}
	res, err := merge.ThreeWay(ctx, c, merge.Side{Root: base.RootTree, Tree: baseTree},
		merge.Side{Root: ours.RootTree, Tree: oursTree, Label: oursLabel}, merge.Side{Root: theirs.RootTree, Tree: theirsTree, Label: theirsLabel})
	if err != nil {
		return nil, err
	}
	return &merged{ours: ours, theirs: theirs, result: res}, nil
}

// revision is the new revision the merge makes: over ours, after theirs.
func (m *merged) revision(s *ent.Space, changeRequest *string, kind revision.Type) newRevision {
	return newRevision{space: s, changeRequest: changeRequest, kind: kind,
		parents: []string{m.ours.ID, m.theirs.ID}, baseRoot: m.ours.RootTree, tree: m.result.Tree,
		changed: m.result.Changed, bodies: m.result.Bodies}
}
