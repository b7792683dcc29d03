package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// ChangeRequest is a proposed edit to a space: a branch of its content with its own revision,
// based on the space revision it was created from (revision_initial) or last updated from
// (revision_merged_ancestor). Its number is incremental within the space.
type ChangeRequest struct{ ent.Schema }

// Mixin of ChangeRequest.
func (ChangeRequest) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of ChangeRequest.
func (ChangeRequest) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		field.Int("number").Positive().Immutable(),
		field.String("subject").Default("").MaxRuneLen(100),
		field.Enum("status").Values("draft", "open", "archived", "merged").Default("open"),
		field.String("created_by").Immutable().NotEmpty(),
		// revision_id is the active revision of the change request.
		field.String("revision_id").NotEmpty(),
		// revision_initial_id is the space revision the change request was created from.
		field.String("revision_initial_id").Immutable().NotEmpty(),
		// revision_merged_ancestor_id is the space revision last pulled in by an update.
		field.String("revision_merged_ancestor_id").Optional().Nillable(),
		// revision_merged_id is the space revision the merge produced.
		field.String("revision_merged_id").Optional().Nillable(),
		field.String("merged_by").Optional().Nillable(),
		field.Time("merged_at").Optional().Nillable(),
		// comments_count counts the open comments, maintained by the writes that change it.
		field.Int("comments_count").Default(0),
	}
}

// Edges of ChangeRequest.
func (ChangeRequest) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("creator", User.Type).Field("created_by").Unique().Required().Immutable(),
		edge.To("revision", Revision.Type).Field("revision_id").Unique().Required(),
		edge.To("revision_initial", Revision.Type).Field("revision_initial_id").Unique().Required().Immutable(),
		edge.To("revision_merged_ancestor", Revision.Type).Field("revision_merged_ancestor_id").Unique(),
		edge.To("revision_merged", Revision.Type).Field("revision_merged_id").Unique(),
		edge.To("merger", User.Type).Field("merged_by").Unique(),
		edge.From("comments", Comment.Type).Ref("change_request"),
		edge.From("revisions", Revision.Type).Ref("change_request"),
		edge.From("reviews", ChangeRequestReview.Type).Ref("change_request"),
		edge.From("reviewers", ChangeRequestReviewer.Type).Ref("change_request"),
	}
}

// Indexes of ChangeRequest.
func (ChangeRequest) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "number").Unique(),
		index.Fields("space_id", "status", "updated_at"),
		// A page of each space's change requests walks one of these in its order (page.TopPerParent).
		index.Fields("space_id", "updated_at", "id"),
		index.Fields("space_id", "created_at", "id"),
	}
}

// Policy of ChangeRequest: whoever may read a space reads its change requests; editors of the
// space create and change them (merging, which also takes the review role, is checked by the
// resolver and by the space's policy on moving its revision); the open comment counter follows
// the writes of commenters.
func (ChangeRequest) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{
			rule.SpaceRowFieldWrites(viewer.RoleComment, "comments_count"),
			rule.SpaceRowWrites(viewer.RoleEdit),
			privacy.AlwaysDenyRule(),
		},
	}
}
