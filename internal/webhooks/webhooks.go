// Package webhooks hands an organization's events (internal/events) to the URLs its admins
// subscribe: signed deliveries after the Standard Webhooks specification, at least once, retried
// with backoff for a day, through the server's SSRF-guarded client.
package webhooks

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/ent/webhook"
	"github.com/binderyhq/bindery/ent/webhookdelivery"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/serverkey"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of a webhook's settings.
const (
	urlMax   = 2048
	scopeMax = 100 // spaces or sites a webhook is narrowed to
)

// rotationOverlap is how long the previous secret still signs deliveries after a rotation, so a
// receiver can switch to the new one without refusing any.
const rotationOverlap = 24 * time.Hour

// Service is the webhooks of organizations as the viewer of each call manages them.
type Service struct {
	Client *ent.Client
	Keys   *serverkey.Keys
	// RequireOrgRole returns an organization the viewer sees with at least a role there (orgs).
	// Returns NOT_FOUND otherwise, FORBIDDEN below the role.
	RequireOrgRole func(ctx context.Context, orgID string, min viewer.Role, action string) (*ent.Organization, error)
	Now            func(ctx context.Context) time.Time
}

// Settings are a webhook's settings in a create (URL required) or an update (nil: unchanged).
type Settings struct {
	URL                   *string
	Events, Spaces, Sites *[]string
	Active                *bool
}

// WithSecret is a new webhook, or one whose secret was rotated, with its signing secret in the
// whsec_ form: the only time it is shown.
type WithSecret struct {
	Webhook *ent.Webhook
	Secret  string
}

// Query returns the webhooks of an organization, for its admins. NOT_FOUND if the viewer does
// not see the organization, FORBIDDEN below admin.
func (svc *Service) Query(ctx context.Context, orgID string) (*ent.WebhookQuery, error) {
	if _, err := svc.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "manage webhooks"); err != nil {
		return nil, err
	}
	return svc.Client.Webhook.Query().Where(webhook.OrganizationID(orgID)), nil
}

// Get returns a webhook of an organization, for its admins.
func (svc *Service) Get(ctx context.Context, orgID, webhookID string) (*ent.Webhook, error) {
	q, err := svc.Query(ctx, orgID)
	if err != nil {
		return nil, err
	}
	w, err := q.Where(webhook.ID(webhookID)).Only(ctx)
	return w, rule.NotFound(err, "webhook")
}

// Create subscribes a URL to the organization's events, with a new signing secret.
func (svc *Service) Create(ctx context.Context, orgID string, in Settings) (*WithSecret, error) {
	if _, err := svc.Query(ctx, orgID); err != nil {
		return nil, err
	}
	if in.URL == nil {
		return nil, apperr.Invalidf("url: is required")
	}
	webhookID := id.New()
	key, shown := newSecret()
	// Sealed before the transaction: the first seal may store the server's key (SQLite has one writer).
	sealed, err := svc.seal(ctx, webhookID, key)
	if err != nil {
		return nil, err
	}
	var w *ent.Webhook
	err = audit.Write(ctx, svc.Client, func(tx *ent.Tx) (audit.Entry, error) {
		create := tx.Webhook.Create().SetOrganizationID(orgID)
		if err := svc.apply(ctx, orgID, in, create.Mutation()); err != nil {
			return audit.Entry{}, err
		}
		w, err = create.SetID(webhookID).SetSealedSecret(sealed).Save(ctx)
		return webhookEntry(audit.WebhookCreated, orgID, webhookID, w, nil), err
	})
	if err != nil {
		return nil, err
	}
	// A process started before the dispatcher existed (tests, a CLI-made database) gets it here.
	if err := EnsureDispatcher(ctx, svc.Client, svc.Now(ctx)); err != nil {
		return nil, err
	}
	return &WithSecret{Webhook: w, Secret: shown}, nil
}

// Update changes the settings given. Turning a webhook on again clears why it was turned off.
func (svc *Service) Update(ctx context.Context, orgID, webhookID string, in Settings) (*ent.Webhook, error) {
	w, err := svc.Get(ctx, orgID, webhookID)
	if err != nil {
		return nil, err
	}
	err = audit.Write(ctx, svc.Client, func(tx *ent.Tx) (audit.Entry, error) {
		update := tx.Webhook.UpdateOne(w)
		if err := svc.apply(ctx, orgID, in, update.Mutation()); err != nil {
			return audit.Entry{}, err
		}
		if in.Active != nil && *in.Active {
			update.ClearDisabledReason().ClearFailingSince()
		}
		fields := events.FieldsChanged(update.Mutation())
		w, err = update.Save(ctx)
		return webhookEntry(audit.WebhookUpdated, orgID, webhookID, w, fields), err
	})
	return w, err
}

// webhookEntry is an audit entry about a webhook: its URL and what it receives, never its secret.
func webhookEntry(action, orgID, webhookID string, w *ent.Webhook, fields []string) audit.Entry {
	e := audit.Entry{Organization: orgID, Action: action, TargetType: "webhook", TargetID: webhookID, Payload: map[string]any{}}
	if w != nil {
		e.TargetLabel = check.Truncate(w.URL, 256)
		e.Payload = map[string]any{"url": w.URL, "events": w.Events, "active": w.Active}
	}
	if fields != nil {
		e.Payload["fields"] = fields
	}
	return e
}

// Delete removes a webhook and its delivery log; deliveries not yet made are dropped.
func (svc *Service) Delete(ctx context.Context, orgID, webhookID string) error {
	w, err := svc.Get(ctx, orgID, webhookID)
	if err != nil {
		return err
	}
	err = audit.Write(ctx, svc.Client, func(tx *ent.Tx) (audit.Entry, error) {
		return webhookEntry(audit.WebhookDeleted, orgID, webhookID, w, nil), tx.Webhook.DeleteOne(w).Exec(ctx)
	})
	return rule.NotFound(err, "webhook")
}

// RotateSecret gives the webhook a new signing secret; the previous one also signs deliveries
// for rotationOverlap, so receivers can switch without refusing any.
func (svc *Service) RotateSecret(ctx context.Context, orgID, webhookID string) (*WithSecret, error) {
	w, err := svc.Get(ctx, orgID, webhookID)
	if err != nil {
		return nil, err
	}
	key, shown := newSecret()
	sealed, err := svc.seal(ctx, w.ID, key)
	if err != nil {
		return nil, err
	}
	err = audit.Write(ctx, svc.Client, func(tx *ent.Tx) (audit.Entry, error) {
		w, err = tx.Webhook.UpdateOne(w).SetSealedSecret(sealed).SetSealedPreviousSecret(w.SealedSecret).
			SetPreviousSecretUntil(svc.Now(ctx).Add(rotationOverlap)).Save(ctx)
		return webhookEntry(audit.WebhookSecretRotated, orgID, webhookID, w, nil), err
	})
	if err != nil {
		return nil, err
	}
	return &WithSecret{Webhook: w, Secret: shown}, nil
}

// Deliveries returns the delivery log of a webhook, for the organization's admins.
func (svc *Service) Deliveries(ctx context.Context, orgID, webhookID string) (*ent.WebhookDeliveryQuery, error) {
	w, err := svc.Get(ctx, orgID, webhookID)
	if err != nil {
		return nil, err
	}
	return svc.Client.WebhookDelivery.Query().Where(webhookdelivery.WebhookID(w.ID)), nil
}

// Delivery returns one delivery of a webhook.
func (svc *Service) Delivery(ctx context.Context, orgID, webhookID, deliveryID string) (*ent.WebhookDelivery, error) {
	q, err := svc.Deliveries(ctx, orgID, webhookID)
	if err != nil {
		return nil, err
	}
	d, err := q.Where(webhookdelivery.ID(deliveryID)).Only(ctx)
	return d, rule.NotFound(err, "webhook delivery")
}

// Redeliver makes a delivery pending again and due now, whatever its status: its attempts start
// over, and its day of retries counts from now. Returns CONFLICT when its event is no longer
// kept (events.Retention).
func (svc *Service) Redeliver(ctx context.Context, orgID, webhookID, deliveryID string) (*ent.WebhookDelivery, error) {
	d, err := svc.Delivery(ctx, orgID, webhookID, deliveryID)
	if err != nil {
		return nil, err
	}
	now := svc.Now(ctx)
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		if kept, err := events.Keep(ctx, tx.Client(), d.EventRow); err != nil || !kept {
			return cmp.Or(err, error(apperr.Conflictf("delivery %s: its event was removed %d days after it was recorded (the events' retention), so it cannot be delivered again",
				d.ID, int(events.Retention.Hours()/24))))
		}
		d, err = tx.WebhookDelivery.UpdateOne(d).SetStatus(webhookdelivery.StatusPending).SetAttempts(0).
			SetNextAttemptAt(now).SetRetryUntil(now.Add(retryWindow)).Save(system(ctx))
		if err != nil {
			return err
		}
		return enqueueDelivery(ctx, tx.Client(), d.ID, now)
	})
	return d, err
}

// SendTest delivers a webhook.test event to the webhook alone, now, and returns its delivery.
func (svc *Service) SendTest(ctx context.Context, orgID, webhookID string) (*ent.WebhookDelivery, error) {
	w, err := svc.Get(ctx, orgID, webhookID)
	if err != nil {
		return nil, err
	}
	var d *ent.WebhookDelivery
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		e, err := events.RecordAside(ctx, tx.Client(), events.Event{Type: events.Test, Organization: orgID,
			ObjectKind: "webhook", ObjectID: w.ID, Details: map[string]any{"url": w.URL}})
		if err != nil {
			return err
		}
		d, err = createDelivery(ctx, tx.Client(), w, e, svc.Now(ctx))
		return err
	})
	return d, err
}

// apply checks the settings given and sets them on m.
func (svc *Service) apply(ctx context.Context, orgID string, in Settings, m *ent.WebhookMutation) error {
	if in.URL != nil {
		if err := checkURL(*in.URL); err != nil {
			return err
		}
		m.SetURL(*in.URL)
	}
	if in.Events != nil {
		types, err := eventTypes(*in.Events)
		if err != nil {
			return err
		}
		m.SetEvents(types)
	}
	if in.Spaces != nil {
		ids, err := svc.scope(ctx, "spaces", *in.Spaces, func(ids []string) (int, error) {
			return svc.Client.Space.Query().Where(space.OrganizationID(orgID), space.IDIn(ids...), space.DeletedAtIsNil()).Count(ctx)
		})
		if err != nil {
			return err
		}
		m.SetSpaces(ids)
	}
	if in.Sites != nil {
		ids, err := svc.scope(ctx, "sites", *in.Sites, func(ids []string) (int, error) {
			return svc.Client.Site.Query().Where(site.OrganizationID(orgID), site.IDIn(ids...)).Count(ctx)
		})
		if err != nil {
			return err
		}
		m.SetSites(ids)
	}
	if in.Active != nil {
		m.SetActive(*in.Active)
	}
	return nil
}

// checkURL accepts an absolute http or https URL with a host and no credentials. Where it leads
// is checked when a delivery connects (the SSRF guard), as names may resolve differently later.
func checkURL(raw string) error {
	if err := check.Text("url", raw, 1, urlMax); err != nil {
		return err
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() {
		return apperr.Invalidf("url: %q is not an absolute URL", check.Truncate(raw, 100))
	}
	if err := fetch.CheckURL(u); err != nil {
		return apperr.Invalidf("url: %v", err)
	}
	if u.User != nil {
		return apperr.Invalidf("url: must not hold credentials")
	}
	return nil
}

// eventTypes checks a list of event types, each known, and returns it without duplicates.
func eventTypes(types []string) ([]string, error) {
	for i, t := range types {
		if !events.Known(t) {
			return nil, apperr.Invalidf("events[%d]: %q is not an event type (the README lists them)", i, check.Truncate(t, 64))
		}
	}
	return check.Distinct(types), nil
}

// scope checks the ids a webhook is narrowed to (field "spaces" or "sites"): at most scopeMax,
// each an object of the organization, which count counts.
func (svc *Service) scope(ctx context.Context, field string, ids []string, count func([]string) (int, error)) ([]string, error) {
	ids = check.Distinct(ids)
	if len(ids) > scopeMax {
		return nil, apperr.Invalidf("%s: at most %d entries (got %d)", field, scopeMax, len(ids))
	}
	if len(ids) == 0 {
		return ids, nil
	}
	n, err := count(ids)
	if err != nil {
		return nil, err
	}
	if n != len(ids) {
		return nil, apperr.Invalidf("%s: every entry must be one of the organization's %s", field, field)
	}
	return ids, nil
}

// seal seals a signing key, bound to its webhook.
func (svc *Service) seal(ctx context.Context, webhookID string, key []byte) ([]byte, error) {
	return svc.Keys.Seal(ctx, svc.Client, sealLabel(webhookID), key)
}

func sealLabel(webhookID string) string { return fmt.Sprintf("webhook:%s", webhookID) }
