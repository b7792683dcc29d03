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

// TeamMember is an organization member's place in a team.
type TeamMember struct{ ent.Schema }

// Mixin of TeamMember.
func (TeamMember) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of TeamMember.
func (TeamMember) Fields() []ent.Field {
	return []ent.Field{
		field.String("team_id").Immutable().NotEmpty(),
		field.String("user_id").Immutable().NotEmpty(),
		field.Enum("role").GoType(viewer.TeamRole("")).Default(string(viewer.TeamMember)),
	}
}

// Edges of TeamMember.
func (TeamMember) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("team", Team.Type).Field("team_id").Unique().Required().Immutable(),
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of TeamMember.
func (TeamMember) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("team_id", "user_id").Unique(),
		index.Fields("user_id"),
	}
}

// Policy of TeamMember: members with a role see team memberships; admins and the team's owners
// manage them.
func (TeamMember) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{
			rule.TeamMemberWrites(),
			privacy.AlwaysDenyRule(),
		},
	}
}

// Hooks of TeamMember: team grants follow their members, so the viewer's cached content facts go.
func (TeamMember) Hooks() []ent.Hook { return []ent.Hook{rule.ForgetContent()} }
