package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// OIDCProvider is an OpenID Provider members of an organization sign in with (authorization
// code flow with PKCE). Its client secret is sealed with a server key; people who first sign in
// through it join with its default role, else the organization's.
type OIDCProvider struct{ ent.Schema }

// Mixin of OIDCProvider.
func (OIDCProvider) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of OIDCProvider.
func (OIDCProvider) Fields() []ent.Field {
	return []ent.Field{
		field.String("label").MinRuneLen(1).MaxRuneLen(30),
		// issuer is the provider's issuer URL: discovery reads <issuer>/.well-known/openid-configuration.
		field.String("issuer").NotEmpty().MaxLen(2048),
		field.String("client_id").NotEmpty().MaxLen(255),
		// sealed_secret is the client secret, sealed under a server key (internal/serverkey).
		field.Bytes("sealed_secret").Sensitive().NotEmpty(),
		// scopes are asked for besides openid; email_domains, when not empty, are the only domains
		// whose addresses may sign in.
		field.Strings("scopes").Default([]string{}),
		field.Strings("email_domains").Default([]string{}),
		// groups_claim names the claim whose values are matched to team titles; nil: none.
		field.String("groups_claim").Optional().Nillable().MaxLen(100),
		// default_role is the role given to people who join through the provider; nil: the
		// organization's default role.
		field.Enum("default_role").GoType(viewer.Role("")).Optional().Nillable(),
	}
}

// Policy of OIDCProvider: admins see and manage providers. (Sign-in and the public list of
// sign-in entries read providers as the system viewer.)
func (OIDCProvider) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleAdmin)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
