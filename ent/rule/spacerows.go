package rule

import (
	"context"
	"slices"

	entgo "entgo.io/ent"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
)

// FilterSpaceRows limits reads of rows that belong to a space (revisions, change requests) to
// those of spaces the viewer may read: by role in their organizations, or by visibility (public,
// unlisted, share-link with a presented key) wherever the space is.
func FilterSpaceRows() privacy.QueryRule {
	return narrowing(func(v *viewer.Viewer, col columns) cond { return spaceWithRole(v, viewer.RoleRead, col("space_id")) })
}

// SpaceFieldWrites lets viewers whose role on a space is at least min update only the given
// fields of it (a merge moves the space's revision, a new change request bumps its counters),
// without the admin role other space updates take. Other mutations are skipped.
func SpaceFieldWrites(min viewer.Role, fields ...string) privacy.MutationRule {
	return fieldWrites(fields, func(v *viewer.Viewer, col columns) cond { return hasRole(v, min, true, col) })
}

// onlyFields reports whether the mutation sets, adds to or clears only the given fields (and the
// update time every update sets).
func onlyFields(m entgo.Mutation, fields []string) bool {
	changed := append(append(m.Fields(), m.AddedFields()...), m.ClearedFields()...)
	for _, f := range changed {
		if f != "updated_at" && !slices.Contains(fields, f) {
			return false
		}
	}
	return len(changed) > 0
}

// fieldWrites allows updates of only the given fields of the rows where the viewer's role on the
// space is at least min (the narrowing says which), and skips every other mutation.
func fieldWrites(fields []string, onSpace narrowing) privacy.MutationRule {
	return privacy.MutationRuleFunc(func(ctx context.Context, m entgo.Mutation) error {
		if !m.Op().Is(entgo.OpUpdateOne|entgo.OpUpdate) || !onlyFields(m, fields) {
			return privacy.Skip
		}
		return onSpace.EvalMutation(ctx, m)
	})
}
