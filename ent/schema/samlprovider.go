package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// SAMLProvider is an identity provider members of an organization sign in with. People who
// first sign in through it join with its default role and team.
type SAMLProvider struct{ ent.Schema }

// Mixin of SAMLProvider.
func (SAMLProvider) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of SAMLProvider.
func (SAMLProvider) Fields() []ent.Field {
	return []ent.Field{
		field.String("label").MinRuneLen(1).MaxRuneLen(30),
		field.String("sso_url").Optional().Nillable().MaxLen(2048),
		field.String("entity_id").Optional().Nillable().MaxLen(1024),
		// certificate is the provider's signing certificate (PEM).
		field.String("certificate").Optional().Nillable().MaxRuneLen(10000),
		field.String("default_team_id").Optional().Nillable(),
		// default_role is the role given to people who join through the provider; nil makes them guests.
		field.Enum("default_role").GoType(viewer.Role("")).Optional().Nillable(),
		field.Enum("status").Values("active", "inactive").Default("active"),
	}
}

// Edges of SAMLProvider.
func (SAMLProvider) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("default_team", Team.Type).Field("default_team_id").Unique(),
	}
}

// Policy of SAMLProvider: members with a role see providers; admins manage them. (Sign-in reads
// providers as the system viewer.)
func (SAMLProvider) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
