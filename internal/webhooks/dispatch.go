package webhooks

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/event"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/ent/webhook"
	"github.com/binderyhq/bindery/ent/webhookdelivery"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/txn"
)

// The jobs of webhooks: one dispatcher for all events (DispatchKey), and one job per delivery
// (keyed by the delivery's id).
const (
	DispatchJob = "webhooks.dispatch"
	DispatchKey = "outbox"
	DeliverJob  = "webhooks.deliver"
)

// Bounds of the dispatcher.
const (
	dispatchBatch = 200             // events handed on per transaction
	dispatchPoll  = 1 * time.Second // how soon it looks again when it found none
)

// retryWindow is how long a delivery is retried.
const retryWindow = 24 * time.Hour

// system is ctx as the background jobs' system viewer, which the events and deliveries tables
// allow alone.
func system(ctx context.Context) context.Context {
	return privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
}

// EnsureDispatcher makes the dispatcher's job exist (every process asks at start; one runs it).
func EnsureDispatcher(ctx context.Context, client *ent.Client, now time.Time) error {
	return jobs.Ensure(ctx, client, DispatchJob, DispatchKey, now)
}

// Dispatcher hands recorded events to the webhooks that want them: one delivery per event and
// webhook, made in the transaction that marks the events dispatched, with the job that delivers it.
type Dispatcher struct {
	Client *ent.Client
	Outbox *events.Outbox // the events of Client's database to hand on
	Now    func() time.Time
}

// Run is the dispatcher's job: it hands on a batch of events, oldest first, and runs again at once
// when it found some, else after dispatchPoll.
func (d *Dispatcher) Run(ctx context.Context, j *jobs.Job) (time.Time, error) {
	ctx = system(ctx)
	batch, passed, err := d.Outbox.Undispatched(ctx, dispatchBatch)
	if err != nil || len(batch) == 0 {
		if err == nil {
			d.Outbox.Passed(passed)
		}
		return d.Now().Add(dispatchPoll), err
	}
	now := d.Now()
	err = txn.Run(ctx, d.Client, func(tx *ent.Tx) error {
		if err := j.Hold(ctx, tx); err != nil {
			return err
		}
		hooks := map[string][]*ent.Webhook{} // active webhooks by organization
		for _, e := range batch {
			if err := d.handOn(ctx, tx.Client(), hooks, e, now); err != nil {
				return err
			}
		}
		ids := make([]int64, len(batch))
		for i, e := range batch {
			ids[i] = e.ID
		}
		return tx.Event.Update().Where(event.IDIn(ids...)).SetDispatched(true).Exec(ctx)
	})
	if err == nil {
		d.Outbox.Passed(passed)
	}
	return now, err
}

// handOn makes the deliveries of one event.
func (d *Dispatcher) handOn(ctx context.Context, client *ent.Client, hooks map[string][]*ent.Webhook, e *ent.Event, now time.Time) error {
	org, ok := hooks[e.OrganizationID]
	if !ok {
		var err error
		org, err = client.Webhook.Query().Where(webhook.OrganizationID(e.OrganizationID), webhook.Active(true)).All(ctx)
		if err != nil {
			return err
		}
		hooks[e.OrganizationID] = org
	}
	for _, w := range org {
		if wants(w, e) {
			if _, err := createDelivery(ctx, client, w, e, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// wants reports whether a webhook subscribes to an event: recorded since the webhook was made,
// its type among the webhook's events (none: all), its space or site among the webhook's (none: all; an event of no space or site
// passes a webhook narrowed to spaces or sites only when it is of the organization as a whole).
func wants(w *ent.Webhook, e *ent.Event) bool {
	if e.CreatedAt.Before(w.CreatedAt) {
		return false
	}
	if len(w.Events) > 0 && !slices.Contains(w.Events, e.Type) {
		return false
	}
	if len(w.Spaces) > 0 && e.SpaceID != "" && !slices.Contains(w.Spaces, e.SpaceID) {
		return false
	}
	if len(w.Sites) > 0 && e.SiteID != "" && !slices.Contains(w.Sites, e.SiteID) {
		return false
	}
	return true
}

// createDelivery makes the delivery of an event to a webhook (once: a dispatcher that runs again
// after a lost lease finds it made) and the job that delivers it, due at now.
func createDelivery(ctx context.Context, client *ent.Client, w *ent.Webhook, e *ent.Event, now time.Time) (*ent.WebhookDelivery, error) {
	err := client.WebhookDelivery.Create().SetOrganizationID(w.OrganizationID).SetWebhookID(w.ID).
		SetEventID(e.PublicID).SetEventRow(e.ID).SetEventType(e.Type).SetNextAttemptAt(now).SetRetryUntil(now.Add(retryWindow)).
		OnConflict(sql.ConflictColumns(webhookdelivery.FieldWebhookID, webhookdelivery.FieldEventID)).Ignore().
		Exec(system(ctx))
	if err != nil && !txn.SkippedUpsert(err) {
		return nil, err
	}
	dl, err := client.WebhookDelivery.Query().
		Where(webhookdelivery.WebhookID(w.ID), webhookdelivery.EventID(e.PublicID)).Only(system(ctx))
	if err != nil {
		return nil, err
	}
	return dl, enqueueDelivery(ctx, client, dl.ID, now)
}

// enqueueDelivery asks for the job of a delivery, due at at.
func enqueueDelivery(ctx context.Context, client *ent.Client, deliveryID string, at time.Time) error {
	return jobs.Enqueue(ctx, client, DeliverJob, deliveryID, at)
}

// WakeOnFeed makes the dispatcher due at once, and wakes runner, whenever the feed reads events
// to hand on, until ctx ends: a commit reaches the webhooks without waiting for the dispatcher's
// poll, which stays as the safety net (a feed that fell behind is subscribed to again).
func WakeOnFeed(ctx context.Context, feed *events.Feed, client *ent.Client, runner *jobs.Runner, now func() time.Time) {
	toHandOn := func(e *ent.Event) bool { return !e.Dispatched }
	sub := feed.Subscribe(toHandOn)
	defer func() { sub.Close() }()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-sub.C:
			if !ok {
				sub = feed.Subscribe(toHandOn)
			}
			for len(sub.C) > 0 { // one wake-up for what came at once
				<-sub.C
			}
			if err := jobs.Enqueue(system(ctx), client, DispatchJob, DispatchKey, now()); err != nil && ctx.Err() == nil {
				slog.WarnContext(ctx, "webhooks: waking the dispatcher", "err", err)
			}
			runner.Wake()
		}
	}
}
