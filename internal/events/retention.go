package events

import (
	"context"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/event"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/webhookdelivery"
	"github.com/binderyhq/bindery/internal/txn"
)

// Retention is how long an event is kept once dispatched: the hourly purge (internal/sweep)
// removes older ones, except those a pending webhook delivery still reads.
const Retention = 30 * 24 * time.Hour

// purgeBatch is how many events one transaction of Purge removes.
const purgeBatch = 500

// Purge removes the events dispatched and recorded more than Retention before now that no
// pending webhook delivery reads, in batches of purgeBatch, as the system, and returns how many
// it removed. The newest event always stays, so no number is given twice: SQLite numbers a new row
// one past the largest (decision 562), and a delivery's event_row must never read another event. Several processes may purge one PostgreSQL database at once: each batch locks its
// rows with FOR UPDATE SKIP LOCKED, and checks the deliveries again under the lock, so an event
// a delivery is made pending for meanwhile (Keep locks it first) stays.
func Purge(ctx context.Context, client *ent.Client, now time.Time) (int, error) {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	old := []predicate.Event{event.Dispatched(true), event.CreatedAtLT(now.UTC().Add(-Retention)), noPendingDelivery}
	total := 0
	for {
		n := 0
		err := txn.Run(sys, client, func(tx *ent.Tx) error {
			newest, err := newestRow(sys, tx.Client())
			if err != nil {
				return err
			}
			var ids []int64
			err = tx.Event.Query().Where(append(old, event.IDLT(newest))...).Order(event.ByID()).Limit(purgeBatch).
				Select(event.FieldID).Modify(skipLocked).Scan(sys, &ids)
			if err != nil || len(ids) == 0 {
				return err
			}
			n, err = tx.Event.Delete().Where(event.IDIn(ids...), noPendingDelivery).Exec(sys)
			return err
		})
		total += n
		if err != nil || n < purgeBatch {
			return total, err
		}
	}
}

// Keep locks the event of row until client's transaction ends (PostgreSQL; SQLite's one writer
// serializes) and reports whether it is still kept (a nil row is not): a delivery made pending
// again in that transaction then keeps it from Purge.
func Keep(ctx context.Context, client *ent.Client, row *int64) (bool, error) {
	if row == nil {
		return false, nil
	}
	var ids []int64
	err := client.Event.Query().Where(event.ID(*row)).Select(event.FieldID).Modify(txn.ForUpdate).
		Scan(privacy.DecisionContext(ctx, privacy.Allow), &ids)
	return len(ids) > 0, err
}

// noPendingDelivery keeps the events no pending webhook delivery reads.
func noPendingDelivery(s *sql.Selector) {
	d := sql.Table(webhookdelivery.Table)
	s.Where(sql.NotExists(sql.Select(d.C(webhookdelivery.FieldID)).From(d).Where(sql.And(
		sql.ColumnsEQ(d.C(webhookdelivery.FieldEventRow), s.C(event.FieldID)),
		sql.EQ(d.C(webhookdelivery.FieldStatus), webhookdelivery.StatusPending.String()),
	))))
}

// skipLocked locks the selected rows on PostgreSQL, skipping rows another purge holds.
func skipLocked(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForUpdate(sql.WithLockAction(sql.SkipLocked))
	}
}
