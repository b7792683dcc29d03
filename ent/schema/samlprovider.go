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
// first sign in through it join with its default role and team. It is usable (status active)
// once its sign-in URL, entity id and certificate are all set; until then it is pending.
type SAMLProvider struct{ ent.Schema }

// Mixin of SAMLProvider.
func (SAMLProvider) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of SAMLProvider.
func (SAMLProvider) Fields() []ent.Field {
	return []ent.Field{
		field.String("label").MinRuneLen(1).MaxRuneLen(30),
		// sso_url is where the identity provider takes sign-in requests (HTTP-Redirect binding).
		field.String("sso_url").Optional().Nillable().MaxLen(2048),
		// entity_id is the identity provider's entity id: the Issuer of its responses.
		field.String("entity_id").Optional().Nillable().MaxLen(1024),
		// certificate is the provider's signing certificate (PEM).
		field.String("certificate").Optional().Nillable().MaxRuneLen(10000),
		field.String("default_team_id").Optional().Nillable(),
		// default_role is the role given to people who join through the provider; nil makes them guests.
		field.Enum("default_role").GoType(viewer.Role("")).Optional().Nillable(),
	}
}

// Edges of SAMLProvider.
func (SAMLProvider) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("default_team", Team.Type).Field("default_team_id").Unique(),
	}
}

// Policy of SAMLProvider: admins see and manage providers. (Sign-in and the public list of
// sign-in entries read providers as the system viewer.)
func (SAMLProvider) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleAdmin)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
