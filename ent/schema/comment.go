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

// Comment is a discussion on a space or on one of its change requests, optionally on a page or
// a node of a page. revision_id is the revision it was made on, so it can be shown as outdated.
type Comment struct{ ent.Schema }

// Mixin of Comment. created_at is the comment's postedAt.
func (Comment) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of Comment.
func (Comment) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		field.String("change_request_id").Optional().Nillable().Immutable(),
		// page_id and node_id name a page and a node in the revision's page tree (not rows).
		field.String("page_id").Optional().Nillable().Immutable().MaxLen(64),
		field.String("node_id").Optional().Nillable().Immutable().MaxLen(64),
		field.String("revision_id").Optional().Nillable().Immutable(),
		// review_id is the review the comment was posted with (a review's comment), if any.
		field.String("review_id").Optional().Nillable().Immutable().MaxLen(64),
		field.String("posted_by").Immutable().NotEmpty(),
		field.Text("body_markdown"),
		field.Time("edited_at").Optional().Nillable(),
		field.Enum("status").Values("open", "resolved").Default("open"),
		field.Time("resolved_at").Optional().Nillable(),
		field.String("resolved_by").Optional().Nillable(),
		// replies_count is maintained by the writes of replies.
		field.Int("replies_count").Default(0),
	}
}

// Edges of Comment.
func (Comment) Edges() []ent.Edge {
	cascade := entsql.OnDelete(entsql.Cascade)
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().Annotations(cascade),
		edge.To("change_request", ChangeRequest.Type).Field("change_request_id").Unique().Immutable().
			Annotations(cascade),
		edge.To("revision", Revision.Type).Field("revision_id").Unique().Immutable(),
		edge.To("author", User.Type).Field("posted_by").Unique().Required().Immutable(),
		edge.To("resolver", User.Type).Field("resolved_by").Unique(),
		edge.From("replies", CommentReply.Type).Ref("comment"),
		edge.From("reactions", Reaction.Type).Ref("comment"),
	}
}

// Indexes of Comment.
func (Comment) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "change_request_id", "created_at"),
		index.Fields("change_request_id", "created_at", "id"), // a change request's comments in order
	}
}

// Policy of Comment: whoever reads the space reads its comments; the comment role and up post,
// resolve and reopen them (and count their replies); only the author edits the body; the author
// or an admin of the space deletes one.
func (Comment) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{
			rule.DiscussionWrites("posted_by", "status", "resolved_at", "resolved_by", "replies_count"),
			privacy.AlwaysDenyRule(),
		},
	}
}
