package rule

import (
	"context"
	"slices"

	entgo "entgo.io/ent"
	"entgo.io/ent/entql"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
)

// FilterSpaceRows limits reads of rows that belong to a space (revisions, change requests) to
// those of spaces the viewer may read: by role in their organizations, or by visibility (public,
// unlisted, share-link with a presented key) wherever the space is.
func FilterSpaceRows() privacy.QueryRule {
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		ids, err := contentIDs(ctx, viewer.RoleRead, true)
		if err != nil {
			return err
		}
		f.Where(entql.Or(fieldIn("space_id", ids),
			entql.HasEdgeWith("space", readableByAnyone(viewer.FromContext(ctx)))))
		return privacy.Allow
	})
}

// SpaceFieldWrites lets viewers whose role on a space is at least min update only the given
// fields of it (a merge moves the space's revision, a new change request bumps its counters),
// without the admin role other space updates take. Other mutations are skipped.
func SpaceFieldWrites(min viewer.Role, fields ...string) privacy.MutationRule {
	return fieldWrites("id", min, fields)
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
