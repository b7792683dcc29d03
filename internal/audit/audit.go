// Package audit records the administrative actions of an organization (its members, teams,
// grants, visibility, sites, share links, single sign-on, webhooks, API tokens, merge-rule
// bypasses) in the transaction that makes each one, and reads them back for the organization's
// admins. The audit log is its own table beside the events outbox (internal/events): it is kept
// longer (a setting of the server), has the reference client's AuditEvent shape, and holds
// actions that emit no webhook event. An action that also emits an event is recorded once, by
// events.Record, which writes both.
package audit

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/auditevent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/txn"
)

// The actions, resource.action in snake case. Those an event also records are named as the event.
const (
	MemberAdded       = "member.added"
	MemberRoleChanged = "member.role_changed"
	MemberRemoved     = "member.removed"

	TeamCreated        = "team.created"
	TeamUpdated        = "team.updated"
	TeamDeleted        = "team.deleted"
	TeamMembersChanged = "team.members_changed"

	GrantCreated = "grant.created"
	GrantUpdated = "grant.updated"
	GrantRemoved = "grant.removed"

	// The *SettingsChanged are changes of who reads a space or a site, of the access members get
	// by default, of how a space merges or whether its content may change: visibility, default
	// access, merge rules, a space's edit mode, a hostname.
	SpaceSettingsChanged        = "space.settings_changed"
	CollectionSettingsChanged   = "collection.settings_changed"
	SiteSettingsChanged         = "site.settings_changed"
	OrganizationSettingsChanged = "organization.settings_changed"

	SitePublished   = "site.published"
	SiteUnpublished = "site.unpublished"

	ShareLinkCreated = "share_link.created"
	ShareLinkUpdated = "share_link.updated"
	ShareLinkDeleted = "share_link.deleted"

	SSOConfigurationChanged = "sso.configuration_changed"

	APITokenCreated = "api_token.created"
	APITokenRevoked = "api_token.revoked"

	SCIMTokenCreated = "scim_token.created"
	SCIMTokenRevoked = "scim_token.revoked"

	WebhookCreated       = "webhook.created"
	WebhookUpdated       = "webhook.updated"
	WebhookDeleted       = "webhook.deleted"
	WebhookSecretRotated = "webhook.secret_rotated"

	MergeRulesBypassed = "change_request.merge_rules_bypassed"

	// Git Sync: a space linked to a branch, a sync's commit exported or imported (by the sync
	// job, source integration), a sync held back because the user who linked the space lost the
	// access it takes, the push webhook's secret made anew.
	GitSyncLinked               = "git_sync.linked"
	GitSyncExported             = "git_sync.exported"
	GitSyncImported             = "git_sync.imported"
	GitSyncHeld                 = "git_sync.held"
	GitSyncWebhookSecretRotated = "git_sync.webhook_secret_rotated"

	// BackupCreated is the server's data copied into an archive (bindery backup), BackupRestored
	// a data directory made from one (bindery restore): operators' actions on every organization.
	BackupCreated  = "backup.created"
	BackupRestored = "backup.restored"
)

// Action is an action's stable name and the label people read.
type Action struct{ ID, Label string }

// Actions is every action the audit log records, with its label.
var Actions = []Action{
	{MemberAdded, "Member added"}, {MemberRoleChanged, "Member role changed"}, {MemberRemoved, "Member removed"},
	{TeamCreated, "Team created"}, {TeamUpdated, "Team renamed"}, {TeamDeleted, "Team deleted"},
	{TeamMembersChanged, "Team members changed"},
	{GrantCreated, "Permission granted"}, {GrantUpdated, "Permission changed"}, {GrantRemoved, "Permission removed"},
	{SpaceSettingsChanged, "Space visibility, default access, merge rules or edit mode changed"},
	{CollectionSettingsChanged, "Collection default access or merge rules changed"},
	{SiteSettingsChanged, "Site visibility or hostname changed"},
	{OrganizationSettingsChanged, "Organization merge rules or default role changed"},
	{SitePublished, "Site published"}, {SiteUnpublished, "Site unpublished"},
	{ShareLinkCreated, "Share link created"}, {ShareLinkUpdated, "Share link changed"}, {ShareLinkDeleted, "Share link deleted"},
	{SSOConfigurationChanged, "Single sign-on provider changed"},
	{APITokenCreated, "API token created"}, {APITokenRevoked, "API token revoked"},
	{SCIMTokenCreated, "SCIM token issued"}, {SCIMTokenRevoked, "SCIM token revoked"},
	{WebhookCreated, "Webhook created"}, {WebhookUpdated, "Webhook changed"}, {WebhookDeleted, "Webhook deleted"},
	{WebhookSecretRotated, "Webhook secret rotated"},
	{MergeRulesBypassed, "Merge rules bypassed"},
	{GitSyncLinked, "Space linked to a git repository"}, {GitSyncExported, "Space exported to git"},
	{GitSyncImported, "Git commits imported into a space"}, {GitSyncHeld, "Git Sync waiting for its linker's access"},
	{GitSyncWebhookSecretRotated, "Git Sync webhook secret rotated"},
	{BackupCreated, "Server backed up"}, {BackupRestored, "Server restored from a backup"},
}

// Known reports whether a is an action the audit log records.
func Known(a string) bool {
	return slices.ContainsFunc(Actions, func(x Action) bool { return x.ID == a })
}

// Entry is an action to record: the organization it happened in, what it was, and the object it
// was about. Payload holds what the action says of the change, never a secret.
type Entry struct {
	Organization string
	Action       string
	TargetType   string // "member", "team", "space", "webhook", …
	TargetID     string
	TargetLabel  string // optional: the target's name as it was (an email, a title)
	Payload      map[string]any
}

// Actor types: a user, an integration acting for the organization (a SCIM provider through its
// token), or the system (a background job, the server itself).
const (
	ActorUser        = "user"
	ActorIntegration = "integration"
	ActorSystem      = "system"
)

// integration is who acts when a provider calls Bindery with an organization's credentials.
type integration struct{ id, label, issuer string }

type integrationKey struct{}

// AsIntegration returns ctx whose actions are recorded as the integration's: actor type
// integration, id the credentials' (a SCIM token's id), labelled "<label> token issued by
// <issuer's display name>". The viewer of ctx (the issuer, whose rights the credentials carry)
// still decides what the integration may do.
func AsIntegration(ctx context.Context, id, label, issuerID string) context.Context {
	return context.WithValue(ctx, integrationKey{}, integration{id: id, label: label, issuer: issuerID})
}

// Record records e, made by the viewer of ctx (the system when there is no user) and come in
// through its source (viewer.SourceOf), through client: the client of the transaction that
// makes the change (tx.Client()), so the entry commits or rolls back with it.
func Record(ctx context.Context, client *ent.Client, e Entry) error {
	if e.Payload == nil {
		e.Payload = map[string]any{}
	}
	a, err := actorOf(ctx, client)
	if err != nil {
		return err
	}
	return client.AuditEvent.Create().SetID(uuid.NewString()).SetOrganizationID(e.Organization).
		SetAction(e.Action).SetActorType(a.Type).SetActorID(a.ID).SetActorLabel(a.Label).
		SetSource(string(viewer.SourceOf(ctx))).
		SetTargetType(e.TargetType).SetTargetID(e.TargetID).SetTargetLabel(e.TargetLabel).
		SetPayload(e.Payload).Exec(privacy.DecisionContext(ctx, privacy.Allow))
}

// Actor is who made an action: its type (ActorUser, ActorIntegration, ActorSystem), id, and the
// name people read.
type Actor struct{ Type, ID, Label string }

// systemLabel names the system when nothing more precise runs (viewer.WithSource).
const systemLabel = "Bindery"

// actorOf returns the actor of ctx: its integration (AsIntegration), else its user, labelled
// with their display name as it is now, else the system, labelled with what runs
// (viewer.RunLabel).
func actorOf(ctx context.Context, client *ent.Client) (Actor, error) {
	if in, ok := ctx.Value(integrationKey{}).(integration); ok {
		issuer, err := displayName(ctx, client, in.issuer, in.issuer)
		return Actor{Type: ActorIntegration, ID: in.id, Label: in.label + " token issued by " + issuer}, err
	}
	v := viewer.FromContext(ctx)
	if v == nil || v.UserID == "" {
		return Actor{Type: ActorSystem, ID: ActorSystem, Label: cmp.Or(viewer.RunLabel(ctx), systemLabel)}, nil
	}
	name, err := displayName(ctx, client, v.UserID, v.Email)
	return Actor{Type: ActorUser, ID: v.UserID, Label: name}, err
}

// displayName is the user's display name now, or orElse when the user is gone.
func displayName(ctx context.Context, client *ent.Client, userID, orElse string) (string, error) {
	name, err := client.User.Query().Where(user.ID(userID)).Select(user.FieldDisplayName).
		String(privacy.DecisionContext(ctx, privacy.Allow))
	if ent.IsNotFound(err) {
		return orElse, nil
	}
	return name, err
}

// RecordInEvery records e in every organization of the server, in one transaction of client: an
// operator's action on the whole server (a backup holds every organization's data), which each
// organization's admins see. e.Organization is ignored.
func RecordInEvery(ctx context.Context, client *ent.Client, e Entry) error {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	return txn.Run(sys, client, func(tx *ent.Tx) error {
		ids, err := tx.Organization.Query().IDs(sys)
		if err != nil {
			return err
		}
		for _, id := range ids {
			e.Organization = id
			if err := Record(ctx, tx.Client(), e); err != nil {
				return err
			}
		}
		return nil
	})
}

// Filter narrows an organization's audit log: each field given must match exactly; From and To
// bound the time the action occurred, both included.
type Filter struct {
	Actor, Action, Target *string
	From, To              *time.Time
}

// Service reads the audit logs of organizations as the viewer of each call may.
type Service struct {
	Client *ent.Client
	// RequireOrgRole returns an organization the viewer sees with at least a role there (orgs).
	// Returns NOT_FOUND otherwise, FORBIDDEN below the role.
	RequireOrgRole func(ctx context.Context, orgID string, min viewer.Role, action string) (*ent.Organization, error)
}

// Query returns the audit events of an organization that f keeps, for its admins: NOT_FOUND if
// the viewer does not see the organization, FORBIDDEN below admin, INVALID for a time range that
// ends before it starts or an unknown action.
func (svc *Service) Query(ctx context.Context, orgID string, f Filter) (*ent.AuditEventQuery, error) {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "read the audit log"); err != nil {
		return nil, err
	}
	q := svc.Client.AuditEvent.Query().Where(auditevent.OrganizationID(orgID))
	if f.Action != nil {
		if !Known(*f.Action) {
			return nil, apperr.Invalidf("action: %q is not an audit action (listOrganizationAuditEventActions lists them)", *f.Action)
		}
		q.Where(auditevent.Action(*f.Action))
	}
	if f.Actor != nil {
		q.Where(auditevent.ActorID(*f.Actor))
	}
	if f.Target != nil {
		q.Where(auditevent.TargetID(*f.Target))
	}
	if f.From != nil && f.To != nil && f.To.Before(*f.From) {
		return nil, apperr.Invalidf("to: %s is before from: %s", f.To.Format(time.RFC3339), f.From.Format(time.RFC3339))
	}
	if f.From != nil {
		q.Where(auditevent.CreatedAtGTE(f.From.UTC()))
	}
	if f.To != nil {
		q.Where(auditevent.CreatedAtLTE(f.To.UTC()))
	}
	return q, nil
}

// Get returns one audit event of an organization, for its admins; NOT_FOUND when the
// organization has none of that id.
func (svc *Service) Get(ctx context.Context, orgID, eventID string) (*ent.AuditEvent, error) {
	q, err := svc.Query(ctx, orgID, Filter{})
	if err != nil {
		return nil, err
	}
	e, err := q.Where(auditevent.ID(eventID)).Only(ctx)
	return e, rule.NotFound(err, "audit event")
}

// Write runs write and records the entry it returns in one transaction of client: an
// administrative change that has no transaction of its own. write returns the entry once it knows
// its target (a created row's id); a write that fails records nothing.
func Write(ctx context.Context, client *ent.Client, write func(tx *ent.Tx) (Entry, error)) error {
	return txn.Run(ctx, client, func(tx *ent.Tx) error {
		e, err := write(tx)
		if err != nil {
			return err
		}
		return Record(ctx, tx.Client(), e)
	})
}

// governedFields are the settings whose change is an administrative action: who reads a space,
// a collection or a site, the access members get by default, how change requests merge, whether
// a space's content may change (its edit mode), where a site or an organization is served
// (decisions 558 and 564).
var governedFields = []string{"visibility", "default_level", "default_role", "merge_rules", "edit_mode", "hostname"}

// Governs reports whether an update that set fields changed a governed setting.
func Governs(fields []string) bool {
	return slices.ContainsFunc(fields, func(f string) bool { return slices.Contains(governedFields, f) })
}

// RecordSettings records a settings change of a space, collection, site or organization (action,
// one of the *SettingsChanged) when the update that set fields changed a governed setting, through
// the client of its transaction; the payload names the fields.
func RecordSettings(ctx context.Context, client *ent.Client, orgID, action, targetType, targetID string, fields []string) error {
	if !Governs(fields) {
		return nil
	}
	return Record(ctx, client, Entry{Organization: orgID, Action: action, TargetType: targetType, TargetID: targetID,
		Payload: map[string]any{"fields": fields}})
}

// ActionsOf returns the actions the audit log records, for the organization's admins (the
// reference reads them per organization): NOT_FOUND, FORBIDDEN below admin.
func (svc *Service) ActionsOf(ctx context.Context, orgID string) ([]Action, error) {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "read the audit log"); err != nil {
		return nil, err
	}
	return Actions, nil
}
