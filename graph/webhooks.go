package graph

import (
	"context"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/webhook"
	"github.com/binderyhq/bindery/ent/webhookdelivery"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/webhooks"
)

// Webhooks translate between GraphQL (and REST, which calls these resolvers) and
// internal/webhooks, which holds their rules and delivers them.

// webhooksService is the webhooks as this resolver's viewer manages them.
func (r *Resolver) webhooksService() *webhooks.Service {
	return &webhooks.Service{Client: r.Client, Keys: &r.keys, RequireOrgRole: r.requireOrgRole, Now: r.now}
}

// HandleWebhookJobs registers the jobs of webhooks with a runner: the dispatcher of recorded
// events, woken by the feed while the runner runs, and the deliveries.
func (r *Resolver) HandleWebhookJobs(runner *jobs.Runner) {
	clock := func() time.Time { return r.now(context.Background()) }
	runner.Handle(webhooks.DispatchJob, (&webhooks.Dispatcher{Client: r.Client, Outbox: r.Outbox, Now: clock}).Run)
	if r.Feed != nil {
		runner.Beside(func(ctx context.Context) { webhooks.WakeOnFeed(ctx, r.Feed, r.Client, runner, clock) })
	}
	runner.Handle(webhooks.DeliverJob, (&webhooks.Deliverer{Client: r.Client, Keys: &r.keys, Fetcher: r.Fetcher, Now: clock, Timeout: r.WebhookTimeout}).Run)
}

func webhookSettings(in model.WebhookInput) webhooks.Settings {
	return webhooks.Settings{URL: in.URL, Events: listOrNil(in.Events), Spaces: listOrNil(in.Spaces), Sites: listOrNil(in.Sites), Active: in.Active}
}

// listOrNil is a given list, or nil for one left out.
func listOrNil(l []string) *[]string {
	if l == nil {
		return nil
	}
	return &l
}

func (r *Resolver) webhooksOf(ctx context.Context, o *ent.Organization, first *int, after *string) (*model.WebhookConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	q, err := r.webhooksService().Query(ctx, o.ID)
	if err != nil {
		return nil, err
	}
	p, err := flat(ctx, q, page.Order{Column: webhook.FieldCreatedAt}, args, true, webhookCursor)
	if err != nil {
		return nil, err
	}
	return &model.WebhookConnection{
		Edges: edges(ctx, p.Items, webhookCursor, func(c string, n *ent.Webhook) *model.WebhookEdge {
			return &model.WebhookEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func webhookCursor(w *ent.Webhook) page.Cursor { return page.Cursor{Key: w.CreatedAt, ID: w.ID} }

func (r *Resolver) webhookDeliveries(ctx context.Context, w *ent.Webhook, first *int, after *string) (*model.WebhookDeliveryConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	q, err := r.webhooksService().Deliveries(ctx, w.OrganizationID, w.ID)
	if err != nil {
		return nil, err
	}
	p, err := flat(ctx, q, page.Order{Column: webhookdelivery.FieldCreatedAt, Desc: true}, args, true, deliveryCursor)
	if err != nil {
		return nil, err
	}
	return &model.WebhookDeliveryConnection{
		Edges: edges(ctx, p.Items, deliveryCursor, func(c string, n *ent.WebhookDelivery) *model.WebhookDeliveryEdge {
			return &model.WebhookDeliveryEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func deliveryCursor(d *ent.WebhookDelivery) page.Cursor {
	return page.Cursor{Key: d.CreatedAt, ID: d.ID}
}

func deliveryStatus(d *ent.WebhookDelivery) model.WebhookDeliveryStatus {
	return model.WebhookDeliveryStatus(strings.ToUpper(string(d.Status)))
}
