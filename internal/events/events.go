// Package events records changes to an organization's objects as events, in the transaction that
// makes each change (a transactional outbox): a write that rolls back records nothing, one that
// commits keeps its event whatever happens to the process next. Webhooks (internal/webhooks) hand
// the recorded events on.
package events

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/event"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/text"
	"github.com/binderyhq/bindery/internal/txn"
)

// The event types, resource.action in snake case. The README lists them with their details.
const (
	SpaceCreated = "space.created"
	SpaceUpdated = "space.updated"
	SpaceDeleted = "space.deleted"
	SpaceMoved   = "space.moved"
	// SpaceContentUpdated is a merge or an import into a space's main content.
	SpaceContentUpdated = "space.content_updated"

	ChangeRequestCreated       = "change_request.created"
	ChangeRequestUpdated       = "change_request.updated"
	ChangeRequestStatusChanged = "change_request.status_changed"
	ChangeRequestMerged        = "change_request.merged"
	// ChangeRequestReviewSubmitted is a review submitted; ChangeRequestReviewersChanged reviewers
	// requested or withdrawn; ChangeRequestMergeRulesBypassed a merge that broke merge rules by
	// allow_bypass, naming the rules.
	ChangeRequestReviewSubmitted    = "change_request.review_submitted"
	ChangeRequestReviewersChanged   = "change_request.reviewers_changed"
	ChangeRequestMergeRulesBypassed = "change_request.merge_rules_bypassed"

	CommentCreated      = "comment.created"
	CommentUpdated      = "comment.updated"
	CommentDeleted      = "comment.deleted"
	CommentReplyCreated = "comment_reply.created"
	CommentReplyUpdated = "comment_reply.updated"
	CommentReplyDeleted = "comment_reply.deleted"

	MemberAdded       = "member.added"
	MemberRoleChanged = "member.role_changed"
	MemberRemoved     = "member.removed"
	// MemberDisabled is a membership disabled (a SCIM provider's deactivated user), MemberEnabled
	// one enabled again.
	MemberDisabled = "member.disabled"
	MemberEnabled  = "member.enabled"

	TeamCreated        = "team.created"
	TeamUpdated        = "team.updated"
	TeamDeleted        = "team.deleted"
	TeamMembersChanged = "team.members_changed"

	OpenAPISpecProcessed = "openapi_spec.version_processed"
	OpenAPISpecFailed    = "openapi_spec.processing_failed"

	// SSOConfigurationChanged is a SAML provider created, changed or deleted.
	SSOConfigurationChanged = "sso.configuration_changed"

	SitePublished   = "site.published"
	SiteUnpublished = "site.unpublished"
	SiteUpdated     = "site.updated"

	// Test is the event a webhook's "send test event" operation delivers to that webhook alone.
	Test = "webhook.test"
)

// Types is every event type a webhook may subscribe to.
var Types = []string{
	SpaceCreated, SpaceUpdated, SpaceDeleted, SpaceMoved, SpaceContentUpdated,
	ChangeRequestCreated, ChangeRequestUpdated, ChangeRequestStatusChanged, ChangeRequestMerged,
	ChangeRequestReviewSubmitted, ChangeRequestReviewersChanged, ChangeRequestMergeRulesBypassed,
	CommentCreated, CommentUpdated, CommentDeleted, CommentReplyCreated, CommentReplyUpdated, CommentReplyDeleted,
	MemberAdded, MemberRoleChanged, MemberRemoved, MemberDisabled, MemberEnabled,
	TeamCreated, TeamUpdated, TeamDeleted, TeamMembersChanged,
	SitePublished, SiteUnpublished, SiteUpdated,
	OpenAPISpecProcessed, OpenAPISpecFailed, SSOConfigurationChanged,
}

// Known reports whether t is an event type a webhook may subscribe to.
func Known(t string) bool { return slices.Contains(Types, t) }

// Event is a change to record: its type, the organization and the object it is about, the space
// or site that object belongs to (if any), and what the type says of the change.
type Event struct {
	Type         string
	Organization string
	ObjectKind   string // "space", "change-request", "comment", …
	ObjectID     string
	Space, Site  string
	Details      map[string]any
	// Label is the object's name as it is now (an email, a title), for the audit log when the
	// event is an administrative action (internal/audit); optional.
	Label string
}

// Record records e, made by the viewer of ctx (no actor for the system), through client: the
// client of the transaction that makes the change (tx.Client()), so the event commits or rolls
// back with it. The dispatcher hands it to the organization's webhooks.
func Record(ctx context.Context, client *ent.Client, e Event) error {
	_, err := record(ctx, client, e, false)
	return err
}

// Write runs write and records e in one transaction of client: a change of one statement that
// has no transaction of its own.
func Write(ctx context.Context, client *ent.Client, e Event, write func(tx *ent.Tx) error) error {
	return txn.Run(ctx, client, func(tx *ent.Tx) error {
		if err := write(tx); err != nil {
			return err
		}
		return Record(ctx, tx.Client(), e)
	})
}

// RecordAside records e as Record does, but for its caller to deliver: the dispatcher does not
// hand it on (a webhook's test event).
func RecordAside(ctx context.Context, client *ent.Client, e Event) (*ent.Event, error) {
	return record(ctx, client, e, true)
}

// record writes e through client and, when it is an administrative action, its audit entry.
func record(ctx context.Context, client *ent.Client, e Event, aside bool) (*ent.Event, error) {
	saved, err := insert(ctx, client, e, aside)
	if err != nil {
		return nil, err
	}
	if action, ok := auditAction(e); ok {
		err = audit.Record(ctx, client, audit.Entry{Organization: e.Organization, Action: action,
			TargetType: e.ObjectKind, TargetID: e.ObjectID, TargetLabel: e.Label, Payload: e.Details})
	}
	return saved, err
}

// insertStatement writes one event; the database numbers it. Every write records an event, so
// recording is one statement through ent's ExecContext rather than ent's create, whose builder,
// spec and hooks cost as much processor time as the insert itself (decision 510). $n
// placeholders read the same on both databases.
var insertStatement = "INSERT INTO " + event.Table + " (" + strings.Join([]string{event.FieldPublicID,
	event.FieldCreatedAt, event.FieldUpdatedAt, event.FieldOrganizationID, event.FieldType,
	event.FieldObjectKind, event.FieldObjectID, event.FieldSpaceID, event.FieldSiteID,
	event.FieldActorID, event.FieldDetails, event.FieldDispatched}, ", ") +
	") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"

// insert checks e as ent's create would — the schema's generated defaults and validators, and the
// text check every write passes (internal/store) — and writes it. An aside event is written
// dispatched, and the row returned carries the number the database gave it (RETURNING, read by
// both databases), which its delivery reads it by. Any other event is inserted under
// txn.AtCommit: nothing reads it before its transaction commits, so on PostgreSQL the insert goes
// with the COMMIT, in its round trip (decision 586). No privacy rule applies: only this package
// writes events.
func insert(ctx context.Context, client *ent.Client, e Event, aside bool) (*ent.Event, error) {
	row := &ent.Event{PublicID: event.DefaultPublicID(), CreatedAt: event.DefaultCreatedAt(), OrganizationID: e.Organization,
		Type: e.Type, ObjectKind: e.ObjectKind, ObjectID: e.ObjectID, SpaceID: e.Space, SiteID: e.Site,
		Details: e.Details, Dispatched: aside}
	if row.Details == nil {
		row.Details = map[string]any{}
	}
	if v := viewer.FromContext(ctx); v != nil {
		row.ActorID = v.UserID
	}
	row.UpdatedAt = row.CreatedAt
	details, err := checkRow(row)
	if err != nil {
		return nil, err
	}
	values := []any{row.PublicID, row.CreatedAt, row.UpdatedAt, row.OrganizationID, row.Type, row.ObjectKind,
		row.ObjectID, row.SpaceID, row.SiteID, row.ActorID, details, row.Dispatched}
	if !aside {
		_, err = client.ExecContext(txn.AtCommit(ctx), insertStatement, values...)
		return row, err
	}
	rows, err := client.QueryContext(ctx, insertStatement+" RETURNING "+event.FieldID, values...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if !rows.Next() {
		return nil, cmp.Or(rows.Err(), errors.New("event: the insert returned no id"))
	}
	return row, rows.Scan(&row.ID)
}

// checkRow validates row's fields and returns its details as JSON.
func checkRow(row *ent.Event) (json.RawMessage, error) {
	for _, f := range []struct {
		name, value string
		valid       func(string) error
	}{
		{event.FieldOrganizationID, row.OrganizationID, event.OrganizationIDValidator},
		{event.FieldType, row.Type, event.TypeValidator},
		{event.FieldObjectKind, row.ObjectKind, event.ObjectKindValidator},
		{event.FieldObjectID, row.ObjectID, event.ObjectIDValidator},
		{event.FieldSpaceID, row.SpaceID, event.SpaceIDValidator},
		{event.FieldSiteID, row.SiteID, event.SiteIDValidator},
		{event.FieldActorID, row.ActorID, event.ActorIDValidator},
	} {
		if err := f.valid(f.value); err != nil {
			return nil, fmt.Errorf("event: %w", err)
		}
		if err := text.Check(f.name, f.value); err != nil {
			return nil, err
		}
	}
	details, err := json.Marshal(row.Details)
	if err != nil {
		return nil, fmt.Errorf("event: details: %w", err)
	}
	return details, text.CheckField(event.FieldDetails, details)
}

// audited are the event types that are administrative actions, and their audit action.
var audited = map[string]string{
	MemberAdded: audit.MemberAdded, MemberRoleChanged: audit.MemberRoleChanged, MemberRemoved: audit.MemberRemoved,
	TeamCreated: audit.TeamCreated, TeamUpdated: audit.TeamUpdated, TeamDeleted: audit.TeamDeleted,
	TeamMembersChanged: audit.TeamMembersChanged,
	SitePublished:      audit.SitePublished, SiteUnpublished: audit.SiteUnpublished,
	SSOConfigurationChanged:         audit.SSOConfigurationChanged,
	ChangeRequestMergeRulesBypassed: audit.MergeRulesBypassed,
}

// auditAction is the audit action an event also records, if it is one: its type's, or, for an
// update of a space or a site, a settings change when it changed a governed field.
func auditAction(e Event) (string, bool) {
	if a, ok := audited[e.Type]; ok {
		return a, true
	}
	updated := map[string]string{SpaceUpdated: audit.SpaceSettingsChanged, SiteUpdated: audit.SiteSettingsChanged}[e.Type]
	fields, _ := e.Details["fields"].([]string)
	return updated, updated != "" && audit.Governs(fields)
}

// FieldsChanged names the fields an update set or cleared (a mutation's Fields and
// ClearedFields: a hostname removed is a change of it), without the time of the update that
// every update sets: the details of a *.updated event.
func FieldsChanged(m interface {
	Fields() []string
	ClearedFields() []string
}) []string {
	fields := slices.Concat(m.Fields(), m.ClearedFields())
	slices.Sort(fields)
	return slices.DeleteFunc(slices.Compact(fields), func(f string) bool { return f == "updated_at" })
}

// Payload is the documented JSON shape of an event, the body of a webhook delivery (the Standard
// Webhooks payload: type, timestamp, data).
type Payload struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      Data      `json:"data"`
}

// Data is what an event says: its stable id, organization, object, actor (null for the system)
// and the details of its type.
type Data struct {
	ID           string         `json:"id"`
	Organization string         `json:"organization"`
	Object       Object         `json:"object"`
	Space        *string        `json:"space"`
	Site         *string        `json:"site"`
	Actor        *string        `json:"actor"`
	Details      map[string]any `json:"details"`
}

// Object names the object an event is about.
type Object struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// PayloadOf is the payload of a recorded event.
func PayloadOf(e *ent.Event) Payload {
	return Payload{Type: e.Type, Timestamp: e.CreatedAt, Data: Data{
		ID: e.PublicID, Organization: e.OrganizationID, Object: Object{Kind: e.ObjectKind, ID: e.ObjectID},
		Space: orNull(e.SpaceID), Site: orNull(e.SiteID), Actor: orNull(e.ActorID), Details: e.Details,
	}}
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
