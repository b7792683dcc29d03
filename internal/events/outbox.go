package events

import (
	"context"
	"sync/atomic"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/event"
)

// Outbox finds the events no dispatcher has handed on yet, oldest first. On PostgreSQL it reads
// the index (dispatched, created_at). On SQLite the table has no index beside its rows (decision
// 562): SQLite's one writer numbers rows in commit order, so the outbox walks the row numbers from
// a cursor below which every event is dispatched, kept by this process (from 0 when it starts;
// behind when another process dispatched meanwhile, which costs a longer walk, never an event).
type Outbox struct {
	client *ent.Client
	byRow  bool
	after  atomic.Int64 // SQLite: every event numbered up to it is dispatched
}

// NewOutbox returns the outbox of the events of client's database.
func NewOutbox(client *ent.Client, postgres bool) *Outbox {
	return &Outbox{client: client, byRow: !postgres}
}

// Undispatched returns up to limit undispatched events, oldest first, read as the system (ctx's
// viewer), and the cursor to give Passed once they are dispatched.
func (o *Outbox) Undispatched(ctx context.Context, limit int) ([]*ent.Event, int64, error) {
	if !o.byRow {
		batch, err := o.client.Event.Query().Where(event.Dispatched(false)).
			Order(event.ByCreatedAt(), event.ByID()).Limit(limit).All(ctx)
		return batch, 0, err
	}
	after := o.after.Load()
	last, err := newestRow(ctx, o.client)
	if err != nil {
		return nil, after, err
	}
	batch, err := o.client.Event.Query().Where(event.Dispatched(false), event.IDGT(after), event.IDLTE(last)).
		Order(event.ByID()).Limit(limit).All(ctx)
	if err != nil {
		return nil, after, err
	}
	if len(batch) == limit {
		last = batch[limit-1].ID
	}
	return batch, last, nil
}

// Passed moves the cursor to after, once the events Undispatched returned with it are dispatched.
func (o *Outbox) Passed(after int64) {
	if o.byRow {
		o.after.Store(after)
	}
}

// newestRow is the number of the newest event (0 for none), read through the key's b-tree. Every
// event numbered up to it has committed: SQLite's one writer numbers rows in commit order.
func newestRow(ctx context.Context, client *ent.Client) (int64, error) {
	rows, err := client.QueryContext(ctx, "SELECT coalesce(max("+event.FieldID+"), 0) FROM "+event.Table)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var last int64
	if rows.Next() {
		err = rows.Scan(&last)
	}
	if err != nil {
		return 0, err
	}
	return last, rows.Err()
}
