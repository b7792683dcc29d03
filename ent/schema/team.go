package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// Team is a named group of an organization's members, used to grant access in bulk.
type Team struct{ ent.Schema }

// Mixin of Team.
func (Team) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of Team.
func (Team) Fields() []ent.Field {
	return []ent.Field{field.String("title").NotEmpty().MaxRuneLen(64)}
}

// Edges of Team.
func (Team) Edges() []ent.Edge {
	return []ent.Edge{edge.From("memberships", TeamMember.Type).Ref("team")}
}

// Policy of Team: members with a role see teams; admins manage them.
func (Team) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
