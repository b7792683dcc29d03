package rest_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent/event"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestEventRetention runs the hourly purge job at times after events were recorded: dispatched
// events older than events.Retention are removed, except the one a delivery made pending again
// still reads, undispatched ones and the newest (whose number SQLite would give again); a delivery
// whose event was removed cannot be redelivered.
func TestEventRetention(t *testing.T) {
	rc := newReceiver(t, "127.0.0.2")
	clk := testenv.NewClock(time.Now().Add(time.Minute)) // deliverEvents enqueues at the real time: due
	e := testenv.New(t, allowFetch(t, "127.0.0.2"), func(o *server.Options) { o.Clock, o.Jobs.Clock = clk.Now, clk.Now })
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	base := "/v1/orgs/" + org + "/webhooks"
	hook := authCreated(t, e.Do(admin, "POST", base, map[string]any{"url": rc.url, "events": []string{"space.created"}}))
	for _, title := range []string{"Kept", "Dropped"} {
		authCreated(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": title}))
	}
	deliverEvents(t, e)
	if got := rc.take(); len(got) != 2 {
		t.Fatalf("deliveries: %d, want 2", len(got))
	}
	var log struct {
		Items []struct{ ID, EventID, Status string }
	}
	e.Do(admin, "GET", base+"/"+hook+"/deliveries", nil).JSON(t, &log)
	slices.Reverse(log.Items) // oldest first: the "Kept" space's, then the "Dropped" one's
	kept, dropped := log.Items[0], log.Items[1]
	authCreated(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Later"})) // not dispatched yet
	all := recordedIDs(t, e)

	purge := sweep.Handler(e.Store.Client, clk.Now, sweep.Retentions{Audit: audit.DefaultRetention, Insights: insights.DefaultRetention})
	clk.Add(events.Retention - time.Hour)
	if _, err := purge(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if left := recordedIDs(t, e); !slices.Equal(left, all) {
		t.Fatalf("within the retention: %d events left of %d", len(left), len(all))
	}

	clk.Add(2 * time.Hour)
	redeliver := func(d string) testenv.Response {
		return e.Do(admin, "POST", base+"/"+hook+"/deliveries/"+d+"/redeliver", nil)
	}
	if r := redeliver(kept.ID); r.Status != http.StatusOK {
		t.Fatalf("redeliver: %d %s", r.Status, r.Body)
	}
	if _, err := purge(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	left := recordedIDs(t, e)
	if !slices.Contains(left, kept.EventID) || slices.Contains(left, dropped.EventID) {
		t.Fatalf("after the retention: events %v left; want %s (pending delivery) without %s", left, kept.EventID, dropped.EventID)
	}
	if n := len(left); n != 2 { // the pending delivery's and the undispatched space.created of "Later"
		t.Fatalf("after the retention: %d events left, want 2", n)
	}
	if msg := testenv.CheckError(t, redeliver(dropped.ID), http.StatusConflict); !strings.Contains(msg, "retention") {
		t.Fatalf("redeliver a removed event's delivery: %q", msg)
	}

	deliverEvents(t, e) // the redelivery, and the "Later" space's event
	got := rc.take()
	ids := []string{}
	for _, d := range got {
		ids = append(ids, d.header.Get("webhook-id"))
	}
	if len(got) != 2 || !slices.Contains(ids, kept.EventID) {
		t.Fatalf("after the purge: deliveries of events %v, want 2 with %s", ids, kept.EventID)
	}
	newest, err := e.Store.Client.Event.Query().Order(event.ByID(sql.OrderDesc())).First(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := purge(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if left := recordedIDs(t, e); !slices.Equal(left, []string{newest.PublicID}) {
		t.Fatalf("every delivery done: events %v left, want the newest alone, %s", left, newest.PublicID)
	}
}

// recordedIDs are the public ids of every recorded event, sorted.
func recordedIDs(t *testing.T, e *testenv.Env) []string {
	t.Helper()
	ids, err := e.Store.Client.Event.Query().Select(event.FieldPublicID).Strings(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(ids)
	return ids
}
