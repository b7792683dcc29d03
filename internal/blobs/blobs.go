// Package blobs owns file bytes, stored by content hash. It holds the stores (Store): a directory
// (Dir), the database beside the rows that name the bytes (DB, whose tables CreateDBTables makes),
// and an S3-compatible object store (S3, which may hand out presigned links); and what looks after
// a store as a whole: moving every referenced blob to another store (Migrate, `bindery blobs
// migrate`) and removing the blobs nothing references (Collect, the blob-collect job), which is
// how the bytes of purged spaces are freed on every server sharing the store.
//
// A blob is referenced when a FileBlob row names it: the row is written in the transaction of the
// revision that references the bytes, which a blob store outside the database stores just before.
// Rows are never removed (like content objects, they may be shared by any revision), so a blob
// without a row is one whose transaction failed, or a leftover of a migration.
package blobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/fileblob"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/jobs"
)

// batch is how many hashes one statement looks up.
const batch = 500

// system is ctx as the system viewer with access to every FileBlob row.
func system(ctx context.Context) context.Context {
	return privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
}

// Result is what a migration did.
type Result struct {
	Copied  int      `json:"copied"`  // blobs copied and verified in the destination
	Present int      `json:"present"` // blobs the destination already held intact (a resumed migration)
	Missing []string `json:"missing"` // blobs absent or corrupt in the source, with why
}

// Migrate copies every referenced blob from src to dst. Each blob's bytes are checked against its
// hash when read from src and again when read back from dst; a blob dst already holds intact is
// skipped, so a migration that stopped resumes where it was. Blobs absent or corrupt in src are
// listed in Missing, and the others are copied all the same.
func Migrate(ctx context.Context, client *ent.Client, src, dst Store) (Result, error) {
	res := Result{Missing: []string{}}
	for after := ""; ; {
		hashes, err := client.FileBlob.Query().Where(fileblob.IDGT(after)).Order(fileblob.ByID()).Limit(batch).IDs(system(ctx))
		if err != nil || len(hashes) == 0 {
			return res, err
		}
		for _, h := range hashes {
			if err := migrateOne(ctx, src, dst, h, &res); err != nil {
				return res, err
			}
		}
		after = hashes[len(hashes)-1]
	}
}

func migrateOne(ctx context.Context, src, dst Store, hash string, res *Result) error {
	if _, err := Read(ctx, dst, hash); err == nil {
		res.Present++
		return nil
	}
	data, err := Read(ctx, src, hash)
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrCorrupt) {
		res.Missing = append(res.Missing, hash+": "+err.Error())
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s from the source: %w", hash, err)
	}
	if err := dst.Put(ctx, hash, data); err != nil {
		return fmt.Errorf("write %s to the destination: %w", hash, err)
	}
	if _, err := Read(ctx, dst, hash); err != nil {
		return fmt.Errorf("read %s back from the destination: %w", hash, err)
	}
	res.Copied++
	return nil
}

// Collect removes the blobs of s last written before before that no FileBlob row names, and
// returns how many it removed. A blob written again since (a new upload of the same bytes, whose
// row is about to be written) is kept: Delete checks the time again.
func Collect(ctx context.Context, client *ent.Client, s Store, before time.Time) (int, error) {
	removed := 0
	var pending []string
	flush := func() error {
		known, err := client.FileBlob.Query().Where(fileblob.IDIn(pending...)).IDs(system(ctx))
		if err != nil {
			return err
		}
		referenced := make(map[string]bool, len(known))
		for _, h := range known {
			referenced[h] = true
		}
		for _, h := range pending {
			if referenced[h] {
				continue
			}
			if err := s.Delete(ctx, h, before); err != nil {
				return fmt.Errorf("remove blob %s: %w", h, err)
			}
			removed++
		}
		pending = pending[:0]
		return nil
	}
	err := s.List(ctx, before, func(h string) error {
		if pending = append(pending, h); len(pending) == batch {
			return flush()
		}
		return nil
	})
	if err == nil && len(pending) > 0 {
		err = flush()
	}
	return removed, err
}

// CollectJob is the kind of the job that collects unreferenced blobs; it has one row, key "all".
const CollectJob = "blob-collect"

// Collector is the handler of CollectJob: it removes the blobs unreferenced for Grace, every
// Interval. Under the job's lease one process of those sharing the store collects at a time.
type Collector struct {
	Client *ent.Client
	Store  Store
	// Grace is how long a blob without a row is kept: far longer than any transaction between
	// storing bytes and writing their row, and than the clocks of the processes, the disk and the
	// object store may disagree.
	Grace    time.Duration
	Interval time.Duration
	Clock    func() time.Time
}

// Defaults of a Collector: a day's grace, a collection an hour.
const (
	DefaultGrace    = 24 * time.Hour
	DefaultInterval = time.Hour
)

// Run is the jobs.Handler: one collection, then the next an Interval later.
func (c *Collector) Run(ctx context.Context, _ *jobs.Job) (time.Time, error) {
	now := c.Clock()
	n, err := Collect(ctx, c.Client, c.Store, now.Add(-c.Grace))
	if n > 0 {
		slog.InfoContext(ctx, "blobs: removed unreferenced blobs", "count", n)
	}
	return now.Add(c.Interval), err
}

// Schedule asks for a collection now (each server start does: the job then runs every Interval).
func Schedule(ctx context.Context, client *ent.Client, now time.Time) error {
	return jobs.Enqueue(ctx, client, CollectJob, "all", now)
}
