package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/webhooks"
)

// Webhook is the wire shape of a webhook (issue 36's contract; the reference client has none).
// Secret is set only in the answers of a create and a secret rotation.
type Webhook struct {
	Object         string     `json:"object"`
	ID             string     `json:"id"`
	URL            string     `json:"url"`
	Events         []string   `json:"events"`
	Spaces         []string   `json:"spaces"`
	Sites          []string   `json:"sites"`
	Active         bool       `json:"active"`
	DisabledReason *string    `json:"disabledReason"`
	FailingSince   *time.Time `json:"failingSince"`
	CreatedAt      time.Time  `json:"createdAt"`
	Secret         string     `json:"secret,omitempty"`
}

func webhookWire(_ context.Context, w *ent.Webhook) (Webhook, error) {
	return Webhook{Object: "webhook", ID: w.ID, URL: w.URL, Events: w.Events, Spaces: w.Spaces, Sites: w.Sites,
		Active: w.Active, DisabledReason: w.DisabledReason, FailingSince: w.FailingSince, CreatedAt: w.CreatedAt}, nil
}

func webhookWithSecret(ctx context.Context, c *webhooks.WithSecret) (Webhook, error) {
	wire, err := webhookWire(ctx, c.Webhook)
	wire.Secret = c.Secret
	return wire, err
}

// WebhookDelivery is the wire shape of one delivery of a webhook's log.
type WebhookDelivery struct {
	Object         string     `json:"object"`
	ID             string     `json:"id"`
	EventID        string     `json:"eventId"`
	EventType      string     `json:"eventType"`
	Attempts       int        `json:"attempts"`
	Status         string     `json:"status"`
	LastStatusCode *int       `json:"lastStatusCode"`
	LastAttemptAt  *time.Time `json:"lastAttemptAt"`
	NextAttemptAt  *time.Time `json:"nextAttemptAt"`
	LastLatencyMs  *int       `json:"lastLatencyMs"`
	LastResponse   *string    `json:"lastResponse"`
	CreatedAt      time.Time  `json:"createdAt"`
}

func webhookDeliveryWire(_ context.Context, d *ent.WebhookDelivery) (WebhookDelivery, error) {
	return WebhookDelivery{Object: "webhook-delivery", ID: d.ID, EventID: d.EventID, EventType: d.EventType,
		Attempts: d.Attempts, Status: string(d.Status), LastStatusCode: d.LastStatusCode, LastAttemptAt: d.LastAttemptAt,
		NextAttemptAt: d.NextAttemptAt, LastLatencyMs: d.LastLatencyMs, LastResponse: d.LastResponse, CreatedAt: d.CreatedAt}, nil
}

// webhookBody is the body of a webhook's create and update.
type webhookBody struct {
	URL    notNull[string]   `json:"url"`
	Events notNull[[]string] `json:"events"`
	Spaces notNull[[]string] `json:"spaces"`
	Sites  notNull[[]string] `json:"sites"`
	Active notNull[bool]     `json:"active"`
}

func webhookInput(r *http.Request) (model.WebhookInput, error) {
	var body webhookBody
	if err := decodeBody(r, &body); err != nil {
		return model.WebhookInput{}, err
	}
	return model.WebhookInput{URL: body.URL.Value, Events: body.Events.Or(nil), Spaces: body.Spaces.Or(nil),
		Sites: body.Sites.Or(nil), Active: body.Active.Value}, nil
}

func (a *api) listWebhooks(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, webhookWire, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.Webhook], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().Webhooks(ctx, o, limit, page)
	})
}

func (a *api) createWebhook(w http.ResponseWriter, r *http.Request) {
	in, err := webhookInput(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	c, err := a.r.Mutation().CreateWebhook(r.Context(), chi.URLParam(r, "organizationId"), in)
	respondWith(w, r, http.StatusCreated, c, err, webhookWithSecret)
}

func (a *api) getWebhook(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	o, err := a.orgOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	wh, err := a.r.Organization().Webhook(ctx, o, chi.URLParam(r, "webhookId"))
	respondWith(w, r, http.StatusOK, wh, err, webhookWire)
}

func (a *api) updateWebhook(w http.ResponseWriter, r *http.Request) {
	in, err := webhookInput(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	wh, err := a.r.Mutation().UpdateWebhook(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "webhookId"), in)
	respondWith(w, r, http.StatusOK, wh, err, webhookWire)
}

func (a *api) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	_, err := a.r.Mutation().DeleteWebhook(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "webhookId"))
	respondEmpty(w, r, http.StatusNoContent, err)
}

func (a *api) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) {
	c, err := a.r.Mutation().RotateWebhookSecret(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "webhookId"))
	respondWith(w, r, http.StatusOK, c, err, webhookWithSecret)
}

func (a *api) testWebhook(w http.ResponseWriter, r *http.Request) {
	d, err := a.r.Mutation().TestWebhook(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "webhookId"))
	respondWith(w, r, http.StatusCreated, d, err, webhookDeliveryWire)
}

func (a *api) listWebhookDeliveries(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, webhookDeliveryWire, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.WebhookDelivery], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		wh, err := a.r.Organization().Webhook(ctx, o, chi.URLParam(r, "webhookId"))
		if err != nil {
			return nil, err
		}
		return a.r.Webhook().Deliveries(ctx, wh, limit, page)
	})
}

func (a *api) redeliverWebhookDelivery(w http.ResponseWriter, r *http.Request) {
	d, err := a.r.Mutation().RedeliverWebhookDelivery(r.Context(), chi.URLParam(r, "organizationId"),
		chi.URLParam(r, "webhookId"), chi.URLParam(r, "deliveryId"))
	respondWith(w, r, http.StatusOK, d, err, webhookDeliveryWire)
}
