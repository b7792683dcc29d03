package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// InviteLink lets whoever holds its id join the organization (or reach a space or collection)
// with a set role. The id is the secret, so it is as unguessable as every id.
type InviteLink struct{ ent.Schema }

// Mixin of InviteLink.
func (InviteLink) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of InviteLink.
func (InviteLink) Fields() []ent.Field {
	return []ent.Field{
		// role is the role the invite grants; nil invites a guest.
		field.Enum("role").GoType(viewer.Role("")).Optional().Nillable(),
		// space_id or collection_id narrows the invite to one piece of content (level invites).
		field.String("space_id").Optional().Nillable().Immutable(),
		field.String("collection_id").Optional().Nillable().Immutable(),
		field.String("created_by").Immutable().NotEmpty(),
	}
}

// Policy of InviteLink: admins see and manage invites. Joining reads one invite by its id through
// the explicit lookup in graph (holding the id is the permission).
func (InviteLink) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleAdmin)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
