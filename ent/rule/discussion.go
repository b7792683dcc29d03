package rule

import (
	"context"

	entgo "entgo.io/ent"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
)

// DiscussionWrites decides writes to the discussion rows of a space (comments, their replies,
// reactions), whose author's user id is in the column author:
//   - posting takes the comment role on the row's space, with the viewer as the author;
//   - an update that changes only shared fields (a comment's status, its reply count) takes the
//     comment role on the space, whoever wrote the row;
//   - any other update (the body) takes the comment role and being the author;
//   - deleting takes being the author with the comment role, or the admin role on the space.
//
// It is one rule because its update and delete cases narrow differently: listed one after the
// other, the first narrowing rule would hide the rows the second allows.
func DiscussionWrites(author string, shared ...string) privacy.MutationRule {
	return privacy.MutationRuleFunc(func(ctx context.Context, m entgo.Mutation) error {
		if m.Op().Is(entgo.OpCreate) {
			return discussionCreate(ctx, m, author)
		}
		return narrowing(func(v *viewer.Viewer, col columns) cond {
			onCommented := spaceWithRole(v, viewer.RoleComment, col("space_id"))
			byViewer := in(col(author), []string{v.UserID})
			switch {
			case m.Op().Is(entgo.OpDelete | entgo.OpDeleteOne):
				return or(and(onCommented, byViewer), spaceWithRole(v, viewer.RoleAdmin, col("space_id")))
			case onlyFields(m, shared):
				return onCommented
			default:
				return and(onCommented, byViewer)
			}
		}).EvalMutation(ctx, m)
	})
}

// discussionCreate allows posting a discussion row on a space where the viewer's role is at least
// comment, in their own name.
func discussionCreate(ctx context.Context, m entgo.Mutation, author string) error {
	sc, ok := m.(spaceRowCreate)
	if !ok {
		return privacy.Denyf("%T does not belong to a space", m)
	}
	by, _ := m.Field(author)
	if by != viewer.FromContext(ctx).UserID {
		return privacy.Denyf("a comment, reply or reaction is posted in its author's own name")
	}
	spaceID, _ := sc.SpaceID()
	if ok, err := hasSpaceRole(ctx, m, spaceID, viewer.RoleComment); err != nil || ok {
		return firstErr(err, privacy.Allow)
	}
	return privacy.Denyf("commenting takes the comment role on the space")
}

// SpaceRowFieldWrites lets viewers whose role on a row's space is at least min update only the
// given fields of rows that belong to a space (a change request's comment counter, which
// commenters move though the rest of the change request takes the edit role). Other mutations
// are skipped, so the entity's next rule decides them.
func SpaceRowFieldWrites(min viewer.Role, fields ...string) privacy.MutationRule {
	return fieldWrites(fields, func(v *viewer.Viewer, col columns) cond { return spaceWithRole(v, min, col("space_id")) })
}
