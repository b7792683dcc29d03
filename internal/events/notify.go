package events

import (
	"context"
	"log/slog"
	"time"
)

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

// listenOnce waits for notifications on one connection (listening already) until it fails;
// listening is called once it is open.
func (f *Feed) listenOnce(ctx context.Context, listening func()) error {
	conn, err := f.listen(ctx)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	listening()
	f.Wake()
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		f.Wake()
	}
}
