package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
)

// User is a person who signs in. Users are created by the CLI (system viewer) or by SSO.
type User struct{ ent.Schema }

// Mixin of User.
func (User) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}} }

// Fields of User.
func (User) Fields() []ent.Field {
	return []ent.Field{
		field.String("display_name").NotEmpty().MaxRuneLen(255),
		field.String("email").NotEmpty().MaxLen(320).Unique(),
		field.String("photo_url").Optional().MaxLen(2048),
		// access_version moves whenever the user's memberships change (rule.AccessVersions):
		// authentication keeps a user's memberships under it, in every process (accounts).
		field.Int64("access_version").Default(0),
	}
}

// Edges of User.
func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("tokens", APIToken.Type).Ref("user"),
		edge.From("memberships", Member.Type).Ref("user"),
	}
}

// Policy of User: a user sees themself and the people of their organizations.
func (User) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterVisibleUsers()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
