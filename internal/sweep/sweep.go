// Package sweep removes for good the spaces deleted longer ago than their retention
// (Retention), with everything that hangs off them (revisions, change requests,
// comments, grants, custom field values: their foreign keys cascade; site spaces leave their
// sites as sites.Leave says, keeping the sites' counters and defaults), and the records of
// the file bytes only they held, which the blob collector then frees (decision 320). Its hourly
// job also removes the events kept past their retention (events.Purge, decision 412).
package sweep

import (
	"context"
	"log/slog"
	"slices"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/fileblob"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/sitespace"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/spaceblob"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/audit"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/sites"
	"github.com/binderyhq/bindery/internal/txn"
)

// Retention is how long a deleted space may be restored before the sweeper removes it.
const Retention = 7 * 24 * time.Hour

// BatchSize is how many spaces one transaction removes.
const BatchSize = 100

// Sweep removes the spaces deleted more than Retention before now, in batches of
// BatchSize, as the system viewer, and returns how many it removed. Several processes may sweep
// one PostgreSQL database at once: each batch locks its rows with FOR UPDATE SKIP LOCKED, so a
// row is removed by one of them and the others pass over it. (SQLite has one writer.)
func Sweep(ctx context.Context, client *ent.Client, now time.Time) (int, error) {
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	cutoff := now.UTC().Add(-Retention)
	total := 0
	for {
		n, err := sweepBatch(sys, client, cutoff)
		total += n
		if err != nil || n < BatchSize {
			return total, err
		}
	}
}

func sweepBatch(ctx context.Context, client *ent.Client, cutoff time.Time) (int, error) {
	n := 0
	err := txn.Run(ctx, client, func(tx *ent.Tx) error {
		ids, err := tx.Space.Query().Where(space.DeletedAtLT(cutoff)).Order(space.ByID()).Limit(BatchSize).
			Select(space.FieldID).Modify(skipLocked).Strings(ctx)
		if err != nil || len(ids) == 0 {
			return err
		}
		if _, err := sites.Leave(ctx, tx, sitespace.SpaceIDIn(ids...)); err != nil {
			return err
		}
		held, err := tx.SpaceBlob.Query().Where(spaceblob.SpaceIDIn(ids...)).Unique(true).Select(spaceblob.FieldBlobID).Strings(ctx)
		if err != nil {
			return err
		}
		if n, err = tx.Space.Delete().Where(space.IDIn(ids...)).Exec(ctx); err != nil {
			return err
		}
		return dropUnheldBlobs(ctx, tx, held)
	})
	return n, err
}

// dropUnheldBlobs removes the FileBlob rows of the blobs among hashes that no space holds any
// more (the purged spaces' SpaceBlob rows went with them), so the blob collector frees their bytes
// once its grace period has passed. Rows of earlier versions (not tracked) are kept: spaces may
// name them without a SpaceBlob row. The rows are locked first (PostgreSQL): a revision storing
// the same bytes meanwhile locks its row too, so its SpaceBlob row is seen, or it stores the row
// again after this transaction.
func dropUnheldBlobs(ctx context.Context, tx *ent.Tx, hashes []string) error {
	for chunk := range slices.Chunk(hashes, BatchSize) {
		locked, err := tx.FileBlob.Query().Where(fileblob.IDIn(chunk...), fileblob.Tracked(true)).
			Modify(txn.ForUpdate).IDs(ctx)
		if err != nil || len(locked) == 0 {
			return err
		}
		stillHeld, err := tx.SpaceBlob.Query().Where(spaceblob.BlobIDIn(locked...)).Unique(true).
			Select(spaceblob.FieldBlobID).Strings(ctx)
		if err != nil {
			return err
		}
		unheld := slices.DeleteFunc(locked, func(h string) bool { return slices.Contains(stillHeld, h) })
		if _, err := tx.FileBlob.Delete().Where(fileblob.IDIn(unheld...)).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// skipLocked locks the selected rows on PostgreSQL, skipping rows another sweeper holds.
func skipLocked(s *sql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.ForUpdate(sql.WithLockAction(sql.SkipLocked))
	}
}

// Job is the kind of the purge job. There is one such job (key JobKey): every `bindery serve`
// ensures it exists when it starts, and the runner that claims it sweeps and makes it due again an
// Interval later, so with several processes on one database the purge runs once an interval, and
// a purge whose process died is taken over when its lease expires.
const (
	Job      = "purge-deleted-spaces"
	JobKey   = "all"
	Interval = time.Hour
)

// Schedule ensures the purge job exists, due at now when it is new.
func Schedule(ctx context.Context, client *ent.Client, now time.Time) error {
	return jobs.Ensure(ctx, client, Job, JobKey, now)
}

// Retentions are how long the purge job keeps the audit log's entries (0: all of them) and
// readers' events on published sites.
type Retentions struct{ Audit, Insights time.Duration }

// Handler is the purge job's handler: it sweeps at clock's time, then removes the events kept
// past their retention (events.Purge), the audit events older than keep.Audit (audit.Purge) and
// the readers' events older than keep.Insights (insights.Purge), and makes the job due again an
// Interval later. Sweeping needs no Job.Hold: each batch removes rows that are gone for good
// whoever removes them, so a process that lost its lease and sweeps on does no harm.
func Handler(client *ent.Client, clock func() time.Time, keep Retentions) jobs.Handler {
	return func(ctx context.Context, _ *jobs.Job) (time.Time, error) {
		now := clock()
		purges := []struct {
			done  string
			purge func() (int, error)
		}{
			{"swept deleted spaces", func() (int, error) { return Sweep(ctx, client, now) }},
			{"purged old events", func() (int, error) { return events.Purge(ctx, client, now) }},
			{"purged old audit events", func() (int, error) { return audit.Purge(ctx, client, now, keep.Audit) }},
			{"purged old insights", func() (int, error) { return insights.Purge(ctx, client, now, keep.Insights) }},
		}
		for _, p := range purges {
			n, err := p.purge()
			if n > 0 {
				slog.InfoContext(ctx, p.done, "removed", n)
			}
			if err != nil {
				return now.Add(Interval), err
			}
		}
		return now.Add(Interval), nil
	}
}
