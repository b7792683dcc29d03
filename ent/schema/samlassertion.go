package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
)

// SAMLAssertion remembers an assertion that signed someone in, until it expires, so a replay of
// it is refused, by every server process sharing the database.
type SAMLAssertion struct{ ent.Schema }

// Fields of SAMLAssertion: the id is the provider's id and the SHA-256 (hex) of the assertion's ID,
// joined by a space.
func (SAMLAssertion) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").Immutable().NotEmpty().MaxLen(200),
		field.Time("expires_at").Immutable(),
	}
}

// Indexes of SAMLAssertion.
func (SAMLAssertion) Indexes() []ent.Index { return []ent.Index{index.Fields("expires_at")} }

// Policy of SAMLAssertion: only the system viewer (sign-in) reads or writes them.
func (SAMLAssertion) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{privacy.AlwaysDenyRule()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
