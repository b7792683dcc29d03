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

// SCIMGroup is the provider's externalId of a team it provisions as a SCIM group (every team of
// an organization is one; its id is the team's).
type SCIMGroup struct{ ent.Schema }

// Mixin of SCIMGroup.
func (SCIMGroup) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of SCIMGroup.
func (SCIMGroup) Fields() []ent.Field {
	return []ent.Field{
		field.String("team_id").Immutable().NotEmpty(),
		field.String("external_id").NotEmpty().MaxLen(255),
	}
}

// Edges of SCIMGroup: the row goes with its team.
func (SCIMGroup) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("team", Team.Type).Field("team_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of SCIMGroup.
func (SCIMGroup) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("team_id").Unique(),
		index.Fields("organization_id", "external_id"),
	}
}

// Policy of SCIMGroup: admins (and SCIM tokens, which act as one) see and write them.
func (SCIMGroup) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleAdmin)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
