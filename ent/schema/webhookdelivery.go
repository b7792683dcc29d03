package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// WebhookDelivery is one event to deliver to one webhook, and what its attempts met: pending
// until a receiver answers 2xx (succeeded) or its retries end (failed).
type WebhookDelivery struct{ ent.Schema }

// Mixin of WebhookDelivery.
func (WebhookDelivery) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of WebhookDelivery.
func (WebhookDelivery) Fields() []ent.Field {
	return []ent.Field{
		field.String("webhook_id").Immutable().NotEmpty(),
		// event_id is the event's public id; event_row its row (events.id), by which the delivery
		// reads it, until the retention purges the event after its deliveries ended.
		field.String("event_id").Immutable().NotEmpty(),
		field.Int64("event_row").Optional().Nillable().Immutable(),
		field.String("event_type").Immutable().NotEmpty().MaxLen(64),
		field.Int("attempts").Default(0),
		field.Enum("status").Values("pending", "succeeded", "failed").Default("pending"),
		field.Int("last_status_code").Optional().Nillable(),
		field.Time("last_attempt_at").Optional().Nillable(),
		field.Int("last_latency_ms").Optional().Nillable(),
		// last_response is the start of the receiver's last answer, or why there was none.
		field.String("last_response").Optional().Nillable().MaxRuneLen(1000),
		field.Time("next_attempt_at").Optional().Nillable(),
		// retry_until ends the retries: a day after the delivery was made, or asked for again.
		field.Time("retry_until"),
	}
}

// Edges of WebhookDelivery: deliveries go with their webhook.
func (WebhookDelivery) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("webhook", Webhook.Type).Field("webhook_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of WebhookDelivery: one delivery of an event per webhook; a webhook's log newest first.
func (WebhookDelivery) Indexes() []ent.Index {
	return []ent.Index{index.Fields("webhook_id", "event_id").Unique(), index.Fields("webhook_id", "created_at")}
}

// Policy of WebhookDelivery: organization admins read them; the delivery worker (the system
// viewer) writes them.
func (WebhookDelivery) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleAdmin)},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
