package events

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	entsql "entgo.io/ent/dialect/sql"
)

// notifyChannel is the PostgreSQL channel of committed events: a trigger on the events table
// notifies it (Migrate), and every process's feed listens to it.
const notifyChannel = "bindery_events"

// Migrate creates, on PostgreSQL, the trigger that notifies notifyChannel once per statement that
// records events, in the recording transaction: PostgreSQL delivers the notification when that
// transaction commits, and never for one that rolls back. SQLite has none (feeds poll).
func Migrate(ctx context.Context, db entsql.ExecQuerier, postgres bool) error {
	if !postgres {
		return nil
	}
	for _, stmt := range []string{
		`CREATE OR REPLACE FUNCTION bindery_events_notify() RETURNS trigger LANGUAGE plpgsql AS
			$$ BEGIN PERFORM pg_notify('` + notifyChannel + `', ''); RETURN NULL; END $$`,
		`DROP TRIGGER IF EXISTS events_notify ON events`,
		`CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION bindery_events_notify()`,
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("create the events' notification trigger: %w", err)
		}
	}
	return nil
}

// Reconnection delays of the listener.
const (
	relistenFirst = 100 * time.Millisecond
	relistenMax   = 10 * time.Second
)

// listenPostgres wakes the feed at each notification of a commit that recorded events, on a
// connection of its own, until ctx ends. A lost connection is opened again (after a growing
// delay while it fails), and the feed woken then, as notifications may have been missed; the
// feed's poll covers the time without one.
func (f *Feed) listenPostgres(ctx context.Context) {
	delay := relistenFirst
	for ctx.Err() == nil {
		err := f.listenOnce(ctx, func() { delay = relistenFirst })
		if ctx.Err() != nil {
			return
		}
		slog.WarnContext(ctx, "events: listening for notifications", "err", err, "retry in", delay)
		select {
		case <-ctx.Done():
		case <-time.After(delay):
		}
		delay = min(2*delay, relistenMax)
	}
}

// listenOnce listens on one connection until it fails; listening is called once it listens.
func (f *Feed) listenOnce(ctx context.Context, listening func()) error {
	conn, err := f.listen(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return err
	}
	listening()
	f.Wake()
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		f.Wake()
	}
}
