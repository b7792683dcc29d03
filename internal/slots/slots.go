// Package slots bounds how many slots one key holds at once across the servers of one database
// (the GraphQL subscriptions of one token, for one): each held slot is a row of the slots table
// leased to the process that holds it, which renews the lease while it holds the slot. A process
// that dies stops renewing, and its slots are free once their lease ends.
package slots

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"sync"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/txn"
)

// DefaultLease is how long a slot outlives its process's last renewal (the jobs' lease).
const DefaultLease = time.Minute

// ErrFull says the key holds as many slots as it may.
var ErrFull = errors.New("slots: the key holds all its slots")

// Statements of the table; $n placeholders read the same on both databases. Times are Unix
// microseconds of the holders' clocks (the servers of a database keep one time, as their jobs'
// leases already need).
const (
	createSQLite   = `CREATE TABLE IF NOT EXISTS slots (key TEXT NOT NULL, id TEXT NOT NULL, holder TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (key, id)) WITHOUT ROWID`
	createPostgres = `CREATE UNLOGGED TABLE IF NOT EXISTS slots (key text NOT NULL, id text NOT NULL, holder text NOT NULL, expires_at bigint NOT NULL, PRIMARY KEY (key, id))`
	// lockKey serializes the takes of one key on PostgreSQL, whose transactions would otherwise
	// both count the last free slot (SQLite's one writer serializes them already); 1936486260 is
	// "slot", the class of these advisory locks.
	lockKey     = `SELECT pg_advisory_xact_lock(1936486260, hashtext($1))`
	dropExpired = `DELETE FROM slots WHERE key = $1 AND expires_at <= $2`
	countKey    = `SELECT count(*) FROM slots WHERE key = $1`
	insertSlot  = `INSERT INTO slots (key, id, holder, expires_at) VALUES ($1, $2, $3, $4)`
	deleteSlot  = `DELETE FROM slots WHERE key = $1 AND id = $2`
	renewSlots  = `UPDATE slots SET expires_at = $1 WHERE holder = $2`
	// putSlot writes again a slot its holder still holds (its row was swept while the holder could
	// not renew it, or lost with an UNLOGGED table in a crash of PostgreSQL).
	putSlot    = `INSERT INTO slots (key, id, holder, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (key, id) DO UPDATE SET expires_at = excluded.expires_at`
	sweepSlots = `DELETE FROM slots WHERE expires_at <= $1`
)

// Migrate creates the table when it does not exist. The primary key (key, id) is the order Take
// counts a key's slots in. On PostgreSQL the table is UNLOGGED: leases need no crash safety.
func Migrate(ctx context.Context, db entsql.ExecQuerier, postgres bool) error {
	create := createSQLite
	if postgres {
		create = createPostgres
	}
	_, err := db.ExecContext(ctx, create)
	return err
}

// Table is the slots of a database as one process holds them.
type Table struct {
	client   *ent.Client
	postgres bool
	lease    time.Duration
	holder   string // this process, in the rows of its slots

	renewal  sync.Mutex // held by a renewal, and by a release while it deletes its row
	mu       sync.Mutex
	held     map[string]string // the key of each slot this process holds, by the slot's id
	leaked   map[string]string // slots released while the database could not delete them
	renewing bool              // a renewer runs (while anything is held or leaked)
}

// New returns the slots of client's database (postgres says which one it is); this process's
// slots are leased for lease (DefaultLease when zero or less) and renewed every third of it.
func New(client *ent.Client, postgres bool, lease time.Duration) *Table {
	if lease <= 0 {
		lease = DefaultLease
	}
	return &Table{client: client, postgres: postgres, lease: lease, holder: id.New(),
		held: map[string]string{}, leaked: map[string]string{}}
}

// Take holds one of key's limit slots until release is called; when the key's live slots, in
// every process, are limit or more, it returns ErrFull and how many it holds. Counting and taking
// are one transaction, so two processes never both take the last slot.
func (t *Table) Take(ctx context.Context, key string, limit int) (release func(), held int, err error) {
	slot := id.New()
	now := time.Now()
	err = txn.Run(ctx, t.client, func(tx *ent.Tx) error {
		if t.postgres {
			if _, err := tx.ExecContext(ctx, lockKey, key); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, dropExpired, key, now.UnixMicro()); err != nil {
			return err
		}
		if held, err = count(ctx, tx, key); err != nil {
			return err
		}
		if held >= limit {
			return ErrFull
		}
		_, err := tx.ExecContext(ctx, insertSlot, key, slot, t.holder, now.Add(t.lease).UnixMicro())
		return err
	})
	if err != nil {
		return nil, held, err
	}
	t.mu.Lock()
	t.held[slot] = key
	t.renew()
	t.mu.Unlock()
	var once sync.Once
	return func() { once.Do(func() { t.release(key, slot) }) }, held + 1, nil
}

func count(ctx context.Context, tx *ent.Tx, key string) (int, error) {
	rows, err := tx.QueryContext(ctx, countKey, key)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int
	if rows.Next() {
		err = rows.Scan(&n)
	}
	return n, errors.Join(err, rows.Err())
}

// release deletes a slot's row; one the database did not delete is kept as leaked, deleted at
// the next renewal (until then it is renewed with the others).
func (t *Table) release(key, slot string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	t.renewal.Lock() // a renewal writing the slot again after this delete would keep it
	defer t.renewal.Unlock()
	_, err := t.client.ExecContext(ctx, deleteSlot, key, slot)
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.held, slot)
	if err != nil {
		slog.Warn("slots: a released slot stays until the next renewal", "err", err)
		t.leaked[slot] = key
		t.renew()
	}
}

// renew starts the renewer unless it runs; t.mu is held.
func (t *Table) renew() {
	if t.renewing {
		return
	}
	t.renewing = true
	go t.renewer()
}

// renewer renews this process's leases every third of a lease for as long as it holds slots,
// and removes the slots of processes whose leases ended.
func (t *Table) renewer() {
	tick := time.NewTicker(t.lease / 3)
	defer tick.Stop()
	for range tick.C {
		t.mu.Lock()
		if len(t.held) == 0 && len(t.leaked) == 0 {
			t.renewing = false
			t.mu.Unlock()
			return
		}
		t.mu.Unlock()
		if err := t.renewOnce(); err != nil {
			slog.Warn("slots: renewing the leases of this process's slots failed", "err", err)
		}
	}
}

// renewOnce deletes the leaked slots, renews the held ones (writing again those whose rows are
// gone) and sweeps the expired slots of every process.
func (t *Table) renewOnce() error {
	ctx, cancel := context.WithTimeout(context.Background(), t.lease/3)
	defer cancel()
	t.renewal.Lock()
	defer t.renewal.Unlock()
	t.mu.Lock()
	held, leaked := maps.Clone(t.held), maps.Clone(t.leaked)
	t.mu.Unlock()
	for slot, key := range leaked {
		if _, err := t.client.ExecContext(ctx, deleteSlot, key, slot); err != nil {
			return err
		}
		t.mu.Lock()
		delete(t.leaked, slot)
		t.mu.Unlock()
	}
	now := time.Now()
	res, err := t.client.ExecContext(ctx, renewSlots, now.Add(t.lease).UnixMicro(), t.holder)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n < int64(len(held)) {
		// Rows are missing (swept after a late renewal, or lost by the database): write them again.
		for slot, key := range held {
			if _, err := t.client.ExecContext(ctx, putSlot, key, slot, t.holder, now.Add(t.lease).UnixMicro()); err != nil {
				return err
			}
		}
	}
	_, err = t.client.ExecContext(ctx, sweepSlots, now.UnixMicro())
	return err
}
