package rule

import (
	"context"

	entgo "entgo.io/ent"
	"entgo.io/ent/entql"

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
		commenter, err := contentIDs(ctx, viewer.RoleComment, true)
		if err != nil {
			return err
		}
		onCommented := fieldIn("space_id", commenter)
		byViewer := entql.FieldEQ(author, viewer.FromContext(ctx).UserID)
		switch {
		case m.Op().Is(entgo.OpDelete | entgo.OpDeleteOne):
			administered, err := contentIDs(ctx, viewer.RoleAdmin, true)
			if err != nil {
				return err
			}
			return narrow(ctx, m, entql.Or(entql.And(onCommented, byViewer), fieldIn("space_id", administered)))
		case onlyFields(m, shared):
			return narrow(ctx, m, onCommented)
		default:
			return narrow(ctx, m, entql.And(onCommented, byViewer))
		}
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
	if spaceID, _ := sc.SpaceID(); hasContentRole(ctx, spaceID, viewer.RoleComment) {
		return privacy.Allow
	}
	return privacy.Denyf("commenting takes the comment role on the space")
}

// SpaceRowFieldWrites lets viewers whose role on a row's space is at least min update only the
// given fields of rows that belong to a space (a change request's comment counter, which
// commenters move though the rest of the change request takes the edit role). Other mutations
// are skipped, so the entity's next rule decides them.
func SpaceRowFieldWrites(min viewer.Role, fields ...string) privacy.MutationRule {
	return fieldWrites("space_id", min, fields)
}

// fieldWrites allows updates of only the given fields of the rows whose column names a space on
// which the viewer's role is at least min, and skips every other mutation.
func fieldWrites(column string, min viewer.Role, fields []string) privacy.MutationRule {
	return privacy.MutationRuleFunc(func(ctx context.Context, m entgo.Mutation) error {
		if !m.Op().Is(entgo.OpUpdateOne|entgo.OpUpdate) || !onlyFields(m, fields) {
			return privacy.Skip
		}
		ids, err := contentIDs(ctx, min, true)
		if err != nil {
			return err
		}
		return narrow(ctx, m, fieldIn(column, ids))
	})
}

// narrow limits a write to the rows p matches, and allows it there.
func narrow(ctx context.Context, m entgo.Mutation, p entql.P) error {
	return privacy.FilterFunc(func(_ context.Context, f privacy.Filter) error {
		f.Where(p)
		return privacy.Allow
	}).EvalMutation(ctx, m)
}
