package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/internal/id"
)

// Event is a change to an organization's objects, recorded in the transaction that makes the
// change (a transactional outbox, internal/events): a write that rolls back records nothing, one
// that commits keeps its event even if the process dies the next instant. The dispatcher hands
// undispatched events to the organization's webhooks and marks them dispatched.
type Event struct{ ent.Schema }

// Mixin of Event. organization_id has no index, the dispatcher reading events by dispatched and
// time alone, and no foreign key, whose check would lock the organization's row in every write
// (decision 587).
func (Event) Mixin() []ent.Mixin {
	return []ent.Mixin{TimeMixin{}, OrgMixin{Unindexed: true, Unreferenced: true}}
}

// Fields of Event.
func (Event) Fields() []ent.Field {
	return []ent.Field{
		// id is the event's row, an integer the database assigns (never reused: an identity on
		// PostgreSQL; on SQLite the row number, the purge keeping the newest event, decision 562)
		// and never shown: every write records an event, and a table keyed by an integer is one
		// b-tree where a text key adds an index (decision 536).
		field.Int64("id").Immutable(),
		// public_id is the event's stable id as webhooks, deliveries and subscribers see it:
		// unguessable, ordered by time (id.Ordered), and not indexed — nothing looks an event up
		// by it. A row number shown outside would tell every organization the server's rate of
		// events.
		field.String("public_id").DefaultFunc(id.Ordered).Immutable().NotEmpty().MaxLen(64),
		// type is the event's type, resource.action in snake case ("space.created").
		field.String("type").Immutable().NotEmpty().MaxLen(64),
		// object_kind and object_id name the object the event is about.
		field.String("object_kind").Immutable().NotEmpty().MaxLen(32),
		field.String("object_id").Immutable().NotEmpty().MaxLen(64),
		// space_id and site_id are the space or site the object belongs to, when it does: webhooks
		// narrowed to spaces or sites match on them.
		field.String("space_id").Optional().Immutable().MaxLen(64),
		field.String("site_id").Optional().Immutable().MaxLen(64),
		// actor_id is the user who made the change; empty for the system (a background job).
		field.String("actor_id").Optional().Immutable().MaxLen(64),
		// details is what the event's type says of the change (documented per type in the README).
		field.JSON("details", map[string]any{}).Immutable(),
		field.Bool("dispatched").Default(false),
	}
}

// Indexes of Event: one, which the dispatcher reads undispatched events by, oldest first, and
// each process's feed (events.Feed) tails the table by, over both states (decision 447). SQLite
// has none: its readers walk row numbers (decision 562, store.eventsByRow).
func (Event) Indexes() []ent.Index {
	return []ent.Index{index.Fields("dispatched", "created_at")}
}

// Policy of Event: only the system viewer reads or writes events; internal/events records them
// by opting in to it.
func (Event) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.AllowIfSystem(), privacy.AlwaysDenyRule()},
		Mutation: privacy.MutationPolicy{rule.AllowIfSystem(), privacy.AlwaysDenyRule()},
	}
}
