package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// AuditEvent is an administrative action in an organization (a member added, a grant changed, a
// webhook deleted…), recorded in the transaction that makes it (internal/audit): a separate table
// from the events outbox, kept longer, in the reference client's AuditEvent shape, and holding
// actions that emit no webhook event. Its id is a UUID, as the reference's is.
type AuditEvent struct{ ent.Schema }

// Mixin of AuditEvent: created_at is when the action occurred.
func (AuditEvent) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{Unindexed: true}}
}

// Fields of AuditEvent.
func (AuditEvent) Fields() []ent.Field {
	return []ent.Field{
		// action is the stable action name ("member.added"), one of internal/audit's Actions.
		field.String("action").Immutable().NotEmpty().MaxLen(64),
		// actor_type is user, integration or system; actor_id the user's id, the integration's
		// credentials' (a SCIM token's), "system" for the system.
		field.String("actor_type").Immutable().NotEmpty().MaxLen(16),
		field.String("actor_id").Immutable().NotEmpty().MaxLen(64),
		// actor_label is the actor's name when the action was recorded: a user's display name, or
		// what ran for the system ("bindery backup", "Git Sync").
		field.String("actor_label").Optional().Immutable().MaxLen(256),
		// source is the entry point the action came in through, in the reference's vocabulary
		// (viewer.Source): ui, api, integration, workflow or script. Rows written before it was
		// recorded came in through the API.
		field.String("source").Immutable().NotEmpty().MaxLen(16).Default("api"),
		// target_type and target_id name the object the action was about; target_label its name
		// when it was recorded (an email, a title), if it has one.
		field.String("target_type").Immutable().NotEmpty().MaxLen(32),
		field.String("target_id").Immutable().NotEmpty().MaxLen(64),
		field.String("target_label").Optional().Immutable().MaxLen(256),
		// payload is what the action says of the change (never a secret: internal/audit lists
		// the keys each action keeps).
		field.JSON("payload", map[string]any{}).Immutable(),
	}
}

// Indexes of AuditEvent: an organization's events newest first (the list, and its filters on
// top of it); the purge reads by time alone.
func (AuditEvent) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "created_at", "id"), index.Fields("created_at")}
}

// Policy of AuditEvent: an organization's admins read its audit events; only the system writes
// them (internal/audit records them by opting in to it), and nobody changes one.
func (AuditEvent) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleAdmin)},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
