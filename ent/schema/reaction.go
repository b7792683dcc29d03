package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
)

// Reaction is one user's emoji on a comment or on a reply: exactly one target is set (a check
// constraint holds that), and a user reacts with an emoji once per target. It repeats the
// target's space_id so access to reactions is decided on one column.
type Reaction struct{ ent.Schema }

// Mixin of Reaction.
func (Reaction) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, OrgMixin{}} }

// Fields of Reaction.
func (Reaction) Fields() []ent.Field {
	return []ent.Field{
		field.String("target_comment_id").Optional().Nillable().Immutable(),
		field.String("target_reply_id").Optional().Nillable().Immutable(),
		field.String("space_id").Immutable().NotEmpty(),
		field.String("user_id").Immutable().NotEmpty(),
		field.String("emoji").Immutable().NotEmpty().MaxRuneLen(32),
		field.Time("created_at").Default(now).Immutable(),
	}
}

// Edges of Reaction.
func (Reaction) Edges() []ent.Edge {
	cascade := entsql.OnDelete(entsql.Cascade)
	return []ent.Edge{
		edge.To("comment", Comment.Type).Field("target_comment_id").Unique().Immutable().Annotations(cascade),
		edge.To("reply", CommentReply.Type).Field("target_reply_id").Unique().Immutable().Annotations(cascade),
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().Annotations(cascade),
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of Reaction: one reaction per target, user and emoji. A NULL never collides, so each
// index binds the reactions of its own kind of target only.
func (Reaction) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("target_comment_id", "user_id", "emoji").Unique(),
		index.Fields("target_reply_id", "user_id", "emoji").Unique(),
	}
}

// Annotations of Reaction: the check constraint of exactly one target.
func (Reaction) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Checks(map[string]string{
		"reaction_one_target": exactlyOne("target_comment_id", "target_reply_id"),
	})}
}

// Policy of Reaction: whoever reads the space reads the reactions; the comment role and up add
// and remove their own (an admin of the space may remove any, as deleting a comment does).
func (Reaction) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{rule.DiscussionWrites("user_id"), privacy.AlwaysDenyRule()},
	}
}
