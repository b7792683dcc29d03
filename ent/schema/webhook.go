package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// Webhook is an organization's subscription of a URL to its events, optionally narrowed to event
// types, spaces and sites (empty: all). Deliveries are signed with its secret (Standard Webhooks,
// sealed with a server key); after a rotation the previous secret also signs until
// previous_secret_until.
type Webhook struct{ ent.Schema }

// Mixin of Webhook.
func (Webhook) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of Webhook.
func (Webhook) Fields() []ent.Field {
	return []ent.Field{
		field.String("url").NotEmpty().MaxLen(2048),
		field.Strings("events").Default([]string{}),
		field.Strings("spaces").Default([]string{}),
		field.Strings("sites").Default([]string{}),
		field.Bool("active").Default(true),
		field.Bytes("sealed_secret").Sensitive().NotEmpty(),
		field.Bytes("sealed_previous_secret").Sensitive().Optional().Nillable(),
		field.Time("previous_secret_until").Optional().Nillable(),
		// failing_since is when deliveries started failing without a success since; nil while
		// they succeed. A webhook failing for three days is turned off, with disabled_reason.
		field.Time("failing_since").Optional().Nillable(),
		field.String("disabled_reason").Optional().Nillable().MaxRuneLen(1200),
	}
}

// Edges of Webhook.
func (Webhook) Edges() []ent.Edge {
	return []ent.Edge{edge.From("deliveries", WebhookDelivery.Type).Ref("webhook")}
}

// Policy of Webhook: organization admins see and manage them.
func (Webhook) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleAdmin)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
