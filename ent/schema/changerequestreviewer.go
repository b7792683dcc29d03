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

// ChangeRequestReviewer is a pending request for a user's or a team's review of a change request
// (exactly one of user_id and team_id), made on the change request's revision_id. A review by the
// user, or by a member of the team, answers it and removes it.
type ChangeRequestReviewer struct{ ent.Schema }

// Mixin of ChangeRequestReviewer.
func (ChangeRequestReviewer) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}}
}

// Fields of ChangeRequestReviewer.
func (ChangeRequestReviewer) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		field.String("change_request_id").Immutable().NotEmpty(),
		field.String("user_id").Optional().Nillable().Immutable(),
		field.String("team_id").Optional().Nillable().Immutable(),
		field.String("requested_by").Immutable().NotEmpty(),
		field.String("revision_id").Immutable().NotEmpty(),
	}
}

// Edges of ChangeRequestReviewer.
func (ChangeRequestReviewer) Edges() []ent.Edge {
	cascade := entsql.OnDelete(entsql.Cascade)
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().Annotations(cascade),
		edge.To("change_request", ChangeRequest.Type).Field("change_request_id").Unique().Required().Immutable().
			Annotations(cascade),
		edge.To("user", User.Type).Field("user_id").Unique().Immutable().Annotations(cascade),
		edge.To("team", Team.Type).Field("team_id").Unique().Immutable().Annotations(cascade),
		edge.To("requester", User.Type).Field("requested_by").Unique().Required().Immutable(),
	}
}

// Indexes of ChangeRequestReviewer.
func (ChangeRequestReviewer) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("change_request_id", "user_id").Unique(),
		index.Fields("change_request_id", "team_id").Unique(),
		index.Fields("user_id"),
		index.Fields("team_id"),
	}
}

// Policy of ChangeRequestReviewer: whoever reads the space reads who is asked to review; the edit
// role asks and withdraws (a reviewer's review, taking the review role, answers).
func (ChangeRequestReviewer) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{rule.SpaceRowWrites(viewer.RoleEdit), privacy.AlwaysDenyRule()},
	}
}
