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

// SCIMUser is a user an identity provider provisions in an organization through SCIM: the SCIM
// attributes it keeps for them (its id is the user's), beside their membership, whose disabled
// flag is the user's active attribute: a deactivated user keeps this row and a disabled
// membership. Removing the member removes the row.
type SCIMUser struct{ ent.Schema }

// Mixin of SCIMUser.
func (SCIMUser) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of SCIMUser.
func (SCIMUser) Fields() []ent.Field {
	return []ent.Field{
		field.String("user_id").Immutable().NotEmpty(),
		// user_name is the provider's userName, lowercased (SCIM compares it case-insensitively).
		field.String("user_name").NotEmpty().MaxLen(320),
		field.String("external_id").Optional().Nillable().MaxLen(255),
		// attributes are the other attributes the provider sent (name, emails, …), as validated
		// against the User schema, answered back as they were given.
		field.JSON("attributes", map[string]any{}).Default(map[string]any{}),
	}
}

// Edges of SCIMUser: the row goes with its user.
func (SCIMUser) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of SCIMUser: one row per user and per userName in an organization.
func (SCIMUser) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "user_id").Unique(),
		index.Fields("organization_id", "user_name").Unique(),
		index.Fields("organization_id", "external_id"),
	}
}

// Policy of SCIMUser: admins (and SCIM tokens, which act as one) see and write them.
func (SCIMUser) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleAdmin)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
