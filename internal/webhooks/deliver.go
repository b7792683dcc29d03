package webhooks

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/webhookdelivery"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/serverkey"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of one delivery attempt.
const (
	attemptTimeout = 10 * time.Second // the default deadline: a 2xx answer within it is a success
	responseMax    = 1000             // bytes of the answer read, characters kept in the log
	// failingMax is how long a webhook may fail (no success since) before it is turned off.
	failingMax = 72 * time.Hour
)

// retryDelays are the delays between attempts (the Standard Webhooks specification's schedule),
// each with up to a tenth more of jitter; the last repeats until the delivery's retry window ends.
var retryDelays = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour}

// Deliverer makes the attempts of deliveries.
type Deliverer struct {
	Client  *ent.Client
	Keys    *serverkey.Keys
	Fetcher *fetch.Client
	Now     func() time.Time
	Timeout time.Duration // an attempt's deadline (0: attemptTimeout)
}

// attempt is what one attempt met.
type attempt struct {
	status   int // 0 when no answer came
	latency  time.Duration
	response string // the start of the answer, or why there was none
}

func (a attempt) succeeded() bool { return a.status >= 200 && a.status < 300 }

// Run is the job of one delivery (keyed by its id): one attempt, recorded; it runs again at the
// next retry's time while the delivery stays pending.
func (d *Deliverer) Run(ctx context.Context, j *jobs.Job) (time.Time, error) {
	ctx = system(ctx)
	dl, err := d.Client.WebhookDelivery.Query().Where(webhookdelivery.ID(j.Key)).WithWebhook().Only(ctx)
	if ent.IsNotFound(err) {
		return time.Time{}, nil // its webhook was deleted
	}
	if err != nil || dl.Status != webhookdelivery.StatusPending {
		return time.Time{}, err
	}
	w := dl.Edges.Webhook
	if !w.Active {
		return time.Time{}, d.record(ctx, j, dl, attempt{response: "the webhook is turned off"}, time.Time{})
	}
	a, err := d.send(ctx, w, dl)
	if err != nil {
		return time.Time{}, err
	}
	next := d.Now().Add(jitter(retryDelays[min(dl.Attempts, len(retryDelays)-1)]))
	if a.succeeded() || next.After(dl.RetryUntil) {
		next = time.Time{}
	}
	return next, d.record(ctx, j, dl, a, next)
}

// send makes one attempt: the event's payload, signed, posted to the webhook's URL through the
// SSRF guard, without following redirects. An error is what a retry of the job may mend (the
// database); the receiver's failures are the attempt's.
func (d *Deliverer) send(ctx context.Context, w *ent.Webhook, dl *ent.WebhookDelivery) (attempt, error) {
	if dl.EventRow == nil {
		return attempt{response: "its event was removed (the events' retention)"}, nil
	}
	e, err := d.Client.Event.Get(ctx, *dl.EventRow)
	if err != nil {
		return attempt{}, err
	}
	body, err := json.Marshal(events.PayloadOf(e))
	if err != nil {
		return attempt{}, err
	}
	keys, err := d.signingKeys(ctx, w)
	if err != nil {
		return attempt{}, err
	}
	at := d.Now()
	header := http.Header{}
	header.Set("Content-Type", "application/json")
	header.Set("webhook-id", e.PublicID)
	header.Set("webhook-timestamp", strconv.FormatInt(at.Unix(), 10))
	header.Set("webhook-signature", Signature(keys, e.PublicID, at, body))
	u, err := url.Parse(w.URL)
	if err != nil {
		return attempt{response: "the URL does not parse"}, nil
	}
	timeout := cmp.Or(d.Timeout, attemptTimeout)
	postCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	res, err := d.Fetcher.Post(postCtx, u, header, body, responseMax)
	a := attempt{latency: time.Since(start)}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		a.response = fmt.Sprintf("no answer within %s", timeout)
		return a, nil
	case err != nil:
		a.response = err.Error()
		return a, nil
	}
	a.status, a.response = res.Status, validUTF8(res.Body)
	if res.Cut {
		a.response += " [cut off: the answer did not end within the deadline or its connection closed]"
	}
	if !a.succeeded() {
		a.response = fmt.Sprintf("HTTP %d: %s", res.Status, a.response)
	}
	return a, nil
}

// signingKeys are the keys that sign a delivery: the webhook's secret, and the previous one
// while its overlap after a rotation lasts.
func (d *Deliverer) signingKeys(ctx context.Context, w *ent.Webhook) ([][]byte, error) {
	key, err := d.Keys.Unseal(ctx, d.Client, sealLabel(w.ID), w.SealedSecret)
	if err != nil {
		return nil, err
	}
	keys := [][]byte{key}
	if w.SealedPreviousSecret != nil && w.PreviousSecretUntil != nil && d.Now().Before(*w.PreviousSecretUntil) {
		previous, err := d.Keys.Unseal(ctx, d.Client, sealLabel(w.ID), *w.SealedPreviousSecret)
		if err != nil {
			return nil, err
		}
		keys = append(keys, previous)
	}
	return keys, nil
}

// record writes an attempt into the delivery's log, with when the next one is due (zero: none, the
// delivery ends), and what it says of the webhook: a success ends its failing; three days of
// failures turn it off, saying why.
func (d *Deliverer) record(ctx context.Context, j *jobs.Job, dl *ent.WebhookDelivery, a attempt, next time.Time) error {
	now := d.Now()
	a.response = check.Cut(a.response, responseMax)
	return txn.Run(ctx, d.Client, func(tx *ent.Tx) error {
		if err := j.Hold(ctx, tx); err != nil {
			return err
		}
		update := tx.WebhookDelivery.UpdateOne(dl).AddAttempts(1).SetLastAttemptAt(now).
			SetLastLatencyMs(int(a.latency.Milliseconds())).SetLastResponse(a.response)
		switch {
		case a.status != 0:
			update.SetLastStatusCode(a.status)
		default:
			update.ClearLastStatusCode()
		}
		switch {
		case a.succeeded():
			update.SetStatus(webhookdelivery.StatusSucceeded).ClearNextAttemptAt()
		case next.IsZero():
			update.SetStatus(webhookdelivery.StatusFailed).ClearNextAttemptAt()
		default:
			update.SetNextAttemptAt(next)
		}
		if err := update.Exec(ctx); err != nil {
			return err
		}
		return d.judge(ctx, tx, dl.Edges.Webhook, a, now)
	})
}

// judge updates a webhook after an attempt: a success clears its failing time, a failure starts
// it, and a failure three days after the first unanswered one turns the webhook off.
func (d *Deliverer) judge(ctx context.Context, tx *ent.Tx, w *ent.Webhook, a attempt, now time.Time) error {
	update := tx.Webhook.UpdateOneID(w.ID)
	switch {
	case a.succeeded():
		if w.FailingSince == nil {
			return nil
		}
		update.ClearFailingSince()
	case !w.Active:
		return nil
	case w.FailingSince == nil:
		update.SetFailingSince(now)
	case now.Sub(*w.FailingSince) >= failingMax:
		return turnOff(ctx, tx, update, fmt.Sprintf(
			"turned off on %s: deliveries failed for three days; the last attempt: %s", now.Format(time.RFC3339), a.response))
	default:
		return nil
	}
	return update.Exec(ctx)
}

// turnOff turns a webhook off for reason, recorded in its organization's audit log (by the
// system, source workflow: the delivery job decides it) as an update of its active field.
func turnOff(ctx context.Context, tx *ent.Tx, update *ent.WebhookUpdateOne, reason string) error {
	w, err := update.SetActive(false).SetDisabledReason(reason).Save(ctx)
	if err != nil {
		return err
	}
	e := webhookEntry(audit.WebhookUpdated, w.OrganizationID, w.ID, w, []string{"active", "disabled_reason"})
	e.Payload["disabledReason"] = reason
	return audit.Record(ctx, tx.Client(), e)
}

// jitter is d with up to a tenth more, so retries of many deliveries spread out.
func jitter(d time.Duration) time.Duration { return d + rand.N(d/10+1) }

// validUTF8 is b as text, its invalid bytes replaced (the log is stored and shown as text).
func validUTF8(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") }
