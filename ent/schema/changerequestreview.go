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

// ChangeRequestReview is a reviewer's verdict on a change request as its revision was
// (revision_id): approved or changes requested, with an optional comment posted in the change
// request. It is outdated once the change request's revision moves on, or once superseded by a
// newer review of the same reviewer or a new request of their review.
type ChangeRequestReview struct{ ent.Schema }

// Mixin of ChangeRequestReview.
func (ChangeRequestReview) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}}
}

// Fields of ChangeRequestReview.
func (ChangeRequestReview) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		field.String("change_request_id").Immutable().NotEmpty(),
		field.String("reviewer_id").Immutable().NotEmpty(),
		field.Enum("status").NamedValues("Approved", "approved", "ChangesRequested", "changes-requested").Immutable(),
		// revision_id is the change request's revision the review was made against.
		field.String("revision_id").Immutable().NotEmpty(),
		// requested_by is who requested the review this answers, if anyone did.
		field.String("requested_by").Optional().Nillable().Immutable(),
		field.String("comment_id").Optional().Nillable().Immutable(),
		// superseded is set when the reviewer reviews again or their review is requested again.
		field.Bool("superseded").Default(false),
	}
}

// Edges of ChangeRequestReview.
func (ChangeRequestReview) Edges() []ent.Edge {
	cascade := entsql.OnDelete(entsql.Cascade)
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().Annotations(cascade),
		edge.To("change_request", ChangeRequest.Type).Field("change_request_id").Unique().Required().Immutable().
			Annotations(cascade),
		edge.To("reviewer", User.Type).Field("reviewer_id").Unique().Required().Immutable(),
		edge.To("requester", User.Type).Field("requested_by").Unique().Immutable(),
		edge.To("comment", Comment.Type).Field("comment_id").Unique().Immutable().
			Annotations(entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes of ChangeRequestReview.
func (ChangeRequestReview) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("change_request_id", "created_at", "id"), // a change request's reviews in order
		index.Fields("change_request_id", "reviewer_id"),
	}
}

// Policy of ChangeRequestReview: whoever reads the space reads its reviews; the review role
// submits them (and supersedes the reviewer's earlier ones); the edit role, requesting a review
// again, marks the earlier ones superseded.
func (ChangeRequestReview) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{
			rule.SpaceRowFieldWrites(viewer.RoleEdit, "superseded"),
			rule.SpaceRowWrites(viewer.RoleReview),
			privacy.AlwaysDenyRule(),
		},
	}
}
