package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
)

// APIToken is a bearer token of a user. Only its SHA-256 hash is stored; the token itself is
// shown once, when it is made.
type APIToken struct{ ent.Schema }

// Mixin of APIToken.
func (APIToken) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}} }

// Fields of APIToken.
func (APIToken) Fields() []ent.Field {
	return []ent.Field{
		field.Bytes("token_hash").Sensitive().Immutable().NotEmpty(),
		field.String("user_id").Immutable().NotEmpty(),
		field.String("label").Default("").MaxRuneLen(100),
	}
}

// Edges of APIToken.
func (APIToken) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of APIToken.
func (APIToken) Indexes() []ent.Index {
	return []ent.Index{index.Fields("token_hash").Unique()}
}

// Policy of APIToken: tokens are looked up and issued by the system viewer (authentication, CLI);
// a user may see and revoke their own.
func (APIToken) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterOwnTokens()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
