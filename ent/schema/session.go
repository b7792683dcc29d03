package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
)

// Session is a browser session, begun by a single sign-on. Like an API token, only the SHA-256
// hash of its secret is stored; the secret itself lives in the person's cookie.
type Session struct{ ent.Schema }

// Mixin of Session.
func (Session) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}} }

// Fields of Session.
func (Session) Fields() []ent.Field {
	return []ent.Field{
		field.Bytes("secret_hash").Sensitive().Immutable().NotEmpty(),
		field.String("user_id").Immutable().NotEmpty(),
		// organization_id and provider_id say which organization's SAML provider began the session:
		// organizations that enforce single sign-on accept only their own providers' sessions.
		field.String("organization_id").Immutable().NotEmpty(),
		field.String("provider_id").Immutable().NotEmpty(),
		field.Time("expires_at").Immutable(),
	}
}

// Edges of Session.
func (Session) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Required().Immutable(),
	}
}

// Indexes of Session.
func (Session) Indexes() []ent.Index {
	return []ent.Index{index.Fields("secret_hash").Unique(), index.Fields("expires_at")}
}

// Policy of Session: only the system viewer (sign-in, authentication, sign-out) reads or writes
// sessions.
func (Session) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{privacy.AlwaysDenyRule()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
