package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
)

// SAMLRequest is a sign-in request this server sent to an identity provider and still waits
// for: a response is accepted only when it answers one (its InResponseTo), for the same provider,
// before it expires. Kept in the database so any server process may receive the answer.
type SAMLRequest struct{ ent.Schema }

// Fields of SAMLRequest: the id is the AuthnRequest's ID.
func (SAMLRequest) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").Immutable().NotEmpty().MaxLen(128),
		field.String("provider_id").Immutable().NotEmpty(),
		field.Time("expires_at").Immutable(),
	}
}

// Indexes of SAMLRequest.
func (SAMLRequest) Indexes() []ent.Index { return []ent.Index{index.Fields("expires_at")} }

// Policy of SAMLRequest: only the system viewer (sign-in) reads or writes requests.
func (SAMLRequest) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{privacy.AlwaysDenyRule()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
