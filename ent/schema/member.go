package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// Member is a user's membership of an organization, with a role (nil for a guest).
type Member struct{ ent.Schema }

// Mixin of Member.
func (Member) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, OrgMixin{}} }

// Fields of Member.
func (Member) Fields() []ent.Field {
	return []ent.Field{
		field.String("user_id").Immutable().NotEmpty(),
		field.Enum("role").GoType(viewer.Role("")).Optional().Nillable(),
		field.Bool("disabled").Default(false),
		field.Bool("sso").Default(false),
		field.Time("joined_at").Default(now).Immutable(),
		field.Time("last_seen_at").Optional().Nillable(),
	}
}

// Edges of Member.
func (Member) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of Member.
func (Member) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "user_id").Unique(),
		index.Fields("user_id"),
		index.Fields("organization_id", "joined_at"),
	}
}

// Policy of Member: members with a role list the organization's members, everyone sees their own
// membership; admins manage memberships; a user may found, join (with an invite), leave, or
// mark themself seen.
func (Member) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{rule.FilterMembers()},
		Mutation: privacy.MutationPolicy{
			rule.MemberWrites(),
			privacy.AlwaysDenyRule(),
		},
	}
}

// Hooks of Member: a change of memberships moves the users' access versions, so every process
// reads their memberships again at their next request.
func (Member) Hooks() []ent.Hook { return []ent.Hook{rule.AccessVersions()} }
