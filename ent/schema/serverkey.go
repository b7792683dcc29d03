package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
)

// ServerKey is a secret the server signs with (visitor claims, download links). Keys live in the
// database so several server processes on one PostgreSQL database sign alike.
type ServerKey struct{ ent.Schema }

// Mixin of ServerKey.
func (ServerKey) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}} }

// Fields of ServerKey.
func (ServerKey) Fields() []ent.Field {
	return []ent.Field{
		field.String("purpose").Unique().Immutable().NotEmpty(),
		field.Bytes("secret").Sensitive().Immutable().NotEmpty(),
	}
}

// Policy of ServerKey: only the system viewer reads or writes keys.
func (ServerKey) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{privacy.AlwaysDenyRule()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
