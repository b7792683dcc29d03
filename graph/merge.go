package graph

import (
	"context"
	"fmt"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/content/diff3"
	"github.com/binderyhq/bindery/graph/content/tree"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
)

// Results of merge and update, as the reference client names them.
const (
	ResultMerge     = "merge"
	ResultUpdate    = "update"
	ResultConflicts = "conflicts"
)

// mergeChangeRequest merges a change request into its space's content: a three-way merge of the
// change request's revision onto the space's active revision, from the change request's base. It
// takes the review role. When both sides changed the same thing differently it answers 409
// naming the conflicts and changes nothing. Merges on one space serialize (inLockedContent), so a
// second merge merges atop the first.
func (r *Resolver) mergeChangeRequest(ctx context.Context, spaceID, crRef string) (*model.MergeResult, error) {
	var out model.MergeResult
	_, err := r.inLockedContent(ctx, spaceID, crRef, viewer.RoleReview, "merge change requests", func(tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) error {
		m, err := r.threeWay(ctx, changeRequestBase(cr), *s.RevisionID, cr.RevisionID, "main content", "change request")
		if err != nil {
			return err
		}
		if len(m.result.Conflicts) > 0 {
			return apperr.Conflictf("change request #%d conflicts with the space's content: %s; update it from the main content, resolve the conflicts and merge again",
				cr.Number, describe(m.result.Conflicts))
		}
		rev, err := r.writeRevision(ctx, tx, m.revision(s, nil, revision.TypeMerge))
		if err != nil {
			return err
		}
		out = model.MergeResult{Revision: rev.ID, Result: ResultMerge}
		return r.recordMerge(ctx, tx, s, cr, m.ours, rev)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// recordMerge points the space at the merged revision (from its active revision old) and marks
// the change request merged, keeping the space's counters, its search index and its moved pages
// exact.
func (r *Resolver) recordMerge(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest, old, rev *ent.Revision) error {
	if err := tx.Space.UpdateOneID(s.ID).SetRevisionID(rev.ID).Exec(ctx); err != nil {
		return err
	}
	if err := r.mainContentMoved(ctx, tx, s, old.RootTree, rev.RootTree); err != nil {
		return err
	}
	upd := tx.ChangeRequest.UpdateOneID(cr.ID).SetStatus(changerequest.StatusMerged).
		SetRevisionMergedID(rev.ID).SetMergedAt(r.now(ctx))
	if v := viewer.FromContext(ctx); v.UserID != "" {
		upd.SetMergedBy(v.UserID)
	}
	if err := upd.Exec(ctx); err != nil {
		return err
	}
	return adjustChangeRequestCounts(ctx, tx, s.ID, cr.Status, changerequest.StatusMerged)
}

// updateChangeRequestFromMain brings the space's current content into a change request by a three-way
// merge from the change request's base. Conflicting lines are written into the pages between
// conflict markers (the change request's version first) and the result is "conflicts", listing
// them, so a person can resolve them with a content batch. It takes the edit role.
func (r *Resolver) updateChangeRequestFromMain(ctx context.Context, spaceID, crRef string) (*model.MergeResult, error) {
	var out model.MergeResult
	_, err := r.inLockedContent(ctx, spaceID, crRef, viewer.RoleEdit, "update change requests", func(tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) error {
		if changeRequestBase(cr) == *s.RevisionID {
			out = model.MergeResult{Revision: cr.RevisionID, Result: ResultUpdate} // up to date already
			return nil
		}
		m, err := r.threeWay(ctx, changeRequestBase(cr), cr.RevisionID, *s.RevisionID, "change request", "main content")
		if err != nil {
			return err
		}
		rev, err := r.writeRevision(ctx, tx, m.revision(s, &cr.ID, revision.TypeUpdate))
		if err != nil {
			return err
		}
		out = model.MergeResult{Revision: rev.ID, Result: ResultUpdate, Conflicts: conflictsOf(m.result.Conflicts)}
		if len(out.Conflicts) > 0 {
			out.Result = ResultConflicts
		}
		return tx.ChangeRequest.UpdateOneID(cr.ID).SetRevisionID(rev.ID).SetRevisionMergedAncestorID(*s.RevisionID).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// merged is a three-way merge of two revisions, ready to be written as a revision.
type merged struct {
	ours, theirs *ent.Revision
	result       tree.Result
	bodies       map[string]string // bodies the merge made by merging lines
}

// threeWay merges the tree of revision theirs into the tree of revision ours, from base. Only the
// entries either side changed are looked at, so the cost follows the size of the changes.
func (r *Resolver) threeWay(ctx context.Context, baseID, oursID, theirsID, oursLabel, theirsLabel string) (*merged, error) {
	base, baseTree, err := r.revisionAndTree(ctx, baseID)
	if err != nil {
		return nil, err
	}
	ours, oursTree, err := r.revisionAndTree(ctx, oursID)
	if err != nil {
		return nil, err
	}
	theirs, theirsTree, err := r.revisionAndTree(ctx, theirsID)
	if err != nil {
		return nil, err
	}
	changed, err := r.changedKeys(ctx, base.RootTree, ours.RootTree, theirs.RootTree)
	if err != nil {
		return nil, err
	}
	m := &merged{ours: ours, theirs: theirs, bodies: map[string]string{}}
	m.result, err = tree.Merge{Base: baseTree, Ours: oursTree, Theirs: theirsTree, Changed: changed,
		Bodies: r.bodyMerger(ctx, m.bodies, diff3.Labels{Ours: oursLabel, Theirs: theirsLabel})}.Run()
	if err != nil {
		return nil, err
	}
	return m, nil
}

// changedKeys lists the entries that differ between base and either side.
func (r *Resolver) changedKeys(ctx context.Context, base, ours, theirs string) ([]string, error) {
	trees := r.content().trees
	a, err := trees.Diff(ctx, base, ours)
	if err != nil {
		return nil, err
	}
	b, err := trees.Diff(ctx, base, theirs)
	return append(a, b...), err
}

// bodyMerger merges page bodies line by line, keeping each merged body in made.
func (r *Resolver) bodyMerger(ctx context.Context, made map[string]string, labels diff3.Labels) func(b, o, t string) (string, bool, error) {
	return func(b, o, t string) (string, bool, error) {
		texts, err := r.pageBodies(ctx, []string{b, o, t})
		if err != nil {
			return "", false, err
		}
		res := diff3.Merge(texts[b], texts[o], texts[t], labels)
		if res.Text == "" {
			return "", res.Conflicts > 0, nil
		}
		hash := tree.Hash([]byte(res.Text))
		made[hash] = res.Text
		return hash, res.Conflicts > 0, nil
	}
}

// revision is the new revision the merge makes: over ours, after theirs.
func (m *merged) revision(s *ent.Space, changeRequest *string, kind revision.Type) newRevision {
	return newRevision{space: s, changeRequest: changeRequest, kind: kind,
		parents: []string{m.ours.ID, m.theirs.ID}, baseRoot: m.ours.RootTree, tree: m.result.Tree,
		changed: m.result.Changed, bodies: m.bodies}
}

func conflictsOf(conflicts []tree.Conflict) []*model.MergeConflict {
	out := make([]*model.MergeConflict, len(conflicts))
	for i, c := range conflicts {
		out[i] = &model.MergeConflict{Title: c.Title, Reason: c.Reason}
		if c.Page != "" {
			out[i].Page = &c.Page
		}
		if c.File != "" {
			out[i].File = &c.File
		}
	}
	return out
}

// describe lists conflicts for a message, the first few in full.
func describe(conflicts []tree.Conflict) string {
	const shown = 5
	var parts []string
	for i, c := range conflicts {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more", len(conflicts)-shown))
			break
		}
		parts = append(parts, c.String())
	}
	return strings.Join(parts, "; ")
}
