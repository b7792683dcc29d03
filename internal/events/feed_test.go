package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/internal/txn"
)

func record(t *testing.T, client *ent.Client, org, object string) {
	t.Helper()
	err := txn.Run(accounts.System(context.Background()), client, func(tx *ent.Tx) error {
		return events.Record(accounts.System(context.Background()), tx.Client(),
			events.Event{Type: events.SpaceUpdated, Organization: org, ObjectKind: "space", ObjectID: object, Space: object})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// want waits for the event about object on sub.
func want(t *testing.T, sub *events.Subscription, object string, within time.Duration) {
	t.Helper()
	select {
	case e, ok := <-sub.C:
		if !ok || e.ObjectID != object {
			t.Fatalf("want the event about %s, got %v (open %v)", object, e, ok)
		}
	case <-time.After(within):
		t.Fatalf("no event about %s within %s", object, within)
	}
}

func TestFeed(t *testing.T) {
	e := testenv.New(t)
	_, org := e.Bootstrap("ada@acme.io", "Acme")
	all := func(*ent.Event) bool { return true }

	t.Run("OKAnotherHandleWrites", func(t *testing.T) {
		feed := events.NewFeed(e.Store.Client, e.Store.Postgres(), 50*time.Millisecond, nil)
		sub := feed.Subscribe(all)
		defer sub.Close()
		other := e.OpenAgain() // as another process would
		record(t, other.Client, org, "s1")
		want(t, sub, "s1", 5*time.Second)
	})

	t.Run("OKSlowSubscriberDropped", func(t *testing.T) {
		feed := events.NewFeed(e.Store.Client, e.Store.Postgres(), 20*time.Millisecond, nil)
		slow := feed.Subscribe(all)
		fast := feed.Subscribe(all)
		defer fast.Close()
		for range events.SubscriberBuffer + 1 {
			record(t, e.Store.Client, org, "burst")
		}
		for n := 0; n < events.SubscriberBuffer+1; n++ {
			want(t, fast, "burst", 5*time.Second)
		}
		for range slow.C { // what it was handed before it was dropped
		}
		if !slow.Dropped() {
			t.Fatal("a subscriber that read nothing was not dropped")
		}
	})

	if !e.Store.Postgres() {
		return
	}

	t.Run("OKNotifiedAndReconnected", func(t *testing.T) {
		feed := events.NewFeed(e.Store.Client, e.Store.Postgres(), time.Hour, e.Store.ListenEvents()) // no poll: notifications only
		sub := feed.Subscribe(all)
		defer sub.Close()
		time.Sleep(300 * time.Millisecond) // listening
		record(t, e.Store.Client, org, "n1")
		want(t, sub, "n1", 5*time.Second)
		_, err := e.Store.Client.ExecContext(context.Background(),
			`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN bindery_events' AND pid <> pg_backend_pid()`)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second) // listening again
		record(t, e.Store.Client, org, "n2")
		want(t, sub, "n2", 5*time.Second)
	})

	t.Run("OKLateCommit", func(t *testing.T) {
		feed := events.NewFeed(e.Store.Client, e.Store.Postgres(), 20*time.Millisecond, nil)
		sub := feed.Subscribe(all)
		defer sub.Close()
		sys := accounts.System(context.Background())
		tx, err := e.Store.Client.Tx(sys)
		if err != nil {
			t.Fatal(err)
		}
		if err := events.Record(sys, tx.Client(), events.Event{Type: events.SpaceUpdated, Organization: org,
			ObjectKind: "space", ObjectID: "early", Space: "early"}); err != nil {
			t.Fatal(err)
		}
		record(t, e.Store.Client, org, "later") // recorded after, committed first
		want(t, sub, "later", 5*time.Second)
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		want(t, sub, "early", 5*time.Second)
	})
}
