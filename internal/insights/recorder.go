package insights

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of recording, so that a flood of events cannot fill the database or the memory.
const (
	// MaxBatch is how many events one insert writes, and how many one trackEvents call may carry.
	MaxBatch = 500
	// MaxPending is how many events wait in memory at most; beyond, new ones are dropped.
	MaxPending = 100 * MaxBatch
	// PerAddressPerMinute is how many events one address may have recorded per minute.
	PerAddressPerMinute = 120
	// maxAddresses bounds the per-address counters of one minute.
	maxAddresses = 100_000
	// FlushEvery is how long an event waits in memory at most while the flusher runs. Every flush
	// is a commit, which changes the database's version and so makes the read cache's rows and
	// answers be read again: few flushes keep computed pages fast.
	FlushEvery = 5 * time.Second
)

// ErrTooMany is the refusal of events beyond an address's cap or the memory's.
var ErrTooMany = errors.New("too many events: at most 120 a minute from one address")

// Recorder keeps events in memory and writes them in batches from Run, its flusher.
type Recorder struct {
	// PerAddress is how many events one address may have recorded per minute
	// (PerAddressPerMinute unless changed before the first Record).
	PerAddress int
	client     *ent.Client
	dialect    string // of client's database
	clock      func() time.Time
	salts      *salts
	mu         sync.Mutex
	pending    []pending
	minute     int64          // the minute the counters count
	counts     map[string]int // events recorded this minute, by address
	wake       chan struct{}
}

// pending is an event waiting for its batch, with the reader its visitor hash is made of.
type pending struct {
	event  Event
	reader Reader
}

// NewRecorder returns a recorder writing to client, a database of dialectName; clock is
// time.Now when nil.
func NewRecorder(client *ent.Client, dialectName string, clock func() time.Time) *Recorder {
	if clock == nil {
		clock = time.Now
	}
	return &Recorder{PerAddress: PerAddressPerMinute, client: client, dialect: dialectName, clock: clock, salts: &salts{client: client},
		counts: map[string]int{}, wake: make(chan struct{}, 1)}
}

// Record keeps events of reader for the next batch, stamped now when they have no time, and
// returns ErrTooMany (keeping none) when they would pass the reader's cap or MaxPending. It
// never touches the database. A nil recorder records nothing.
func (r *Recorder) Record(reader Reader, events ...Event) error {
	if r == nil || len(events) == 0 {
		return nil
	}
	now := r.clock().UTC()
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.admit(reader.Address, len(events), now) {
		return ErrTooMany
	}
	for _, e := range events {
		if e.Time.IsZero() {
			e.Time = now
		}
		r.pending = append(r.pending, pending{event: e.normalized(), reader: reader})
	}
	if len(r.pending) >= MaxPending/2 {
		select {
		case r.wake <- struct{}{}:
		default:
		}
	}
	return nil
}

// admit counts n events of address in the current minute, and reports whether they fit its cap,
// the memory's and the number of addresses counted.
func (r *Recorder) admit(address string, n int, now time.Time) bool {
	if minute := now.Unix() / 60; minute != r.minute {
		r.minute, r.counts = minute, map[string]int{}
	}
	used, known := r.counts[address]
	if used+n > r.PerAddress || len(r.pending)+n > MaxPending || (!known && len(r.counts) >= maxAddresses) {
		return false
	}
	r.counts[address] = used + n
	return true
}

// Run flushes the events every FlushEvery, or sooner when a batch is full, until ctx ends; then
// it flushes what is left.
func (r *Recorder) Run(ctx context.Context) {
	t := time.NewTicker(FlushEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			r.flushLogged(context.WithoutCancel(ctx))
			return
		case <-t.C:
		case <-r.wake:
		}
		r.flushLogged(ctx)
	}
}

func (r *Recorder) flushLogged(ctx context.Context) {
	if err := r.Flush(ctx); err != nil {
		slog.ErrorContext(ctx, "insights: writing events", "err", err)
	}
}

// Flush writes the events waiting in one transaction: MaxBatch at a time, each batch one insert,
// then their visitors not yet known (addVisitors), then their daily counts, added up over the
// whole flush first (views of one page are one row to add to), MaxBatch rows per statement, in
// the order of their keys. A flush that fails is dropped: events are counts, not records anyone
// waits for.
func (r *Recorder) Flush(ctx context.Context) error {
	r.mu.Lock()
	batch := r.pending
	r.pending = nil
	r.mu.Unlock()
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	events, err := r.hashed(sys, batch)
	if err != nil {
		return err
	}
	if len(events) == 0 {
		return nil
	}
	// One commit for the whole flush: one change of the database's version.
	return txn.Run(sys, r.client, func(tx *ent.Tx) error {
		for chunk := range slices.Chunk(events, MaxBatch) {
			if err := insertEvents(sys, tx, chunk); err != nil {
				return err
			}
		}
		visitors, err := addVisitors(sys, tx, r.dialect, visitorsOf(events))
		if err != nil {
			return err
		}
		counts := append(rollupsOf(events), visitors...)
		sortRollups(counts)
		for chunk := range slices.Chunk(counts, MaxBatch) {
			if err := addRollups(sys, tx, chunk); err != nil {
				return err
			}
		}
		return nil
	})
}

// hashed are the events of batch with their readers' visitor hashes.
func (r *Recorder) hashed(ctx context.Context, batch []pending) ([]Event, error) {
	events := make([]Event, len(batch))
	for i, p := range batch {
		events[i] = p.event
		if p.reader.Untracked {
			continue
		}
		salt, err := r.salts.of(ctx, Day(p.event.Time))
		if err != nil {
			return nil, err
		}
		events[i].visitor = visitorHash(salt, p.event.SiteID, p.reader)
	}
	return events, nil
}

// insertEvents inserts events in one statement.
func insertEvents(ctx context.Context, tx *ent.Tx, events []Event) error {
	creates := make([]*ent.SiteInsightEventCreate, len(events))
	for i, e := range events {
		creates[i] = tx.SiteInsightEvent.Create().SetSiteID(e.SiteID).SetCreatedAt(e.Time).SetType(e.Type).
			SetDisplayContext(e.DisplayContext).SetURLPath(e.URLPath).SetSpaceID(e.SpaceID).SetPageID(e.PageID).
			SetReferrerDomain(e.ReferrerDomain).SetVisitor(e.visitor).SetSearchQuery(e.SearchQuery).
			SetNillableSearchResults(e.SearchResults).SetRating(e.Rating).SetComment(e.Comment).SetLink(e.Link).
			SetLinkPosition(e.LinkPosition).SetTool(e.Tool)
	}
	return tx.SiteInsightEvent.CreateBulk(creates...).Exec(ctx)
}
