package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// SCIMToken is a bearer token an identity provider provisions an organization's people with
// (SCIM 2.0, /scim/v2). Only its SHA-256 hash is stored; the token is shown once, when an admin
// issues it. Requests with it act as that admin, in that organization only.
type SCIMToken struct{ ent.Schema }

// Mixin of SCIMToken.
func (SCIMToken) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of SCIMToken.
func (SCIMToken) Fields() []ent.Field {
	return []ent.Field{
		field.Bytes("token_hash").Sensitive().Immutable().NotEmpty(),
		// created_by is the admin who issued the token: its requests act as them, while they are
		// an admin of the organization.
		field.String("created_by").Immutable().NotEmpty(),
	}
}

// Indexes of SCIMToken.
func (SCIMToken) Indexes() []ent.Index {
	return []ent.Index{index.Fields("token_hash").Unique()}
}

// Policy of SCIMToken: admins see, issue and revoke them (authentication reads them as the
// system viewer).
func (SCIMToken) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleAdmin)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
