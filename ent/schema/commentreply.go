package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
)

// CommentReply is a reply to a comment. It repeats the comment's space_id so access to replies
// is decided on one column, like access to comments.
type CommentReply struct{ ent.Schema }

// Mixin of CommentReply. created_at is the reply's postedAt.
func (CommentReply) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of CommentReply.
func (CommentReply) Fields() []ent.Field {
	return []ent.Field{
		field.String("comment_id").Immutable().NotEmpty(),
		field.String("space_id").Immutable().NotEmpty(),
		field.String("posted_by").Immutable().NotEmpty(),
		field.Text("body_markdown"),
		field.Time("edited_at").Optional().Nillable(),
	}
}

// Edges of CommentReply.
func (CommentReply) Edges() []ent.Edge {
	cascade := entsql.OnDelete(entsql.Cascade)
	return []ent.Edge{
		edge.To("comment", Comment.Type).Field("comment_id").Unique().Required().Immutable().Annotations(cascade),
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().Annotations(cascade),
		edge.To("author", User.Type).Field("posted_by").Unique().Required().Immutable(),
		edge.From("reactions", Reaction.Type).Ref("reply"),
	}
}

// Indexes of CommentReply.
func (CommentReply) Indexes() []ent.Index {
	return []ent.Index{index.Fields("comment_id", "created_at")}
}

// Policy of CommentReply: whoever reads the space reads the replies; the comment role and up
// reply; only the author edits one; the author or an admin of the space deletes one.
func (CommentReply) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{rule.DiscussionWrites("posted_by"), privacy.AlwaysDenyRule()},
	}
}
