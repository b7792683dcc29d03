package events

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/jackc/pgx/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/event"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
)

// Bounds of a feed.
const (
	// DefaultPoll is how often a feed looks at the table when nothing woke it: on SQLite the
	// writes of other processes (a second server, the CLI) are seen this way; on PostgreSQL it
	// bounds the delay of a missed notification.
	DefaultPoll = 250 * time.Millisecond
	// lookback is how long after its time an event may still commit and be delivered: the time of
	// an event is taken before its transaction commits, so a feed looks again over this window
	// (sweep) for events that committed after later ones.
	lookback   = 10 * time.Second
	sweepEvery = time.Second
	feedBatch  = 500 // events read per statement
	// SubscriberBuffer is how many events a subscriber may have waiting; one more drops it.
	SubscriberBuffer = 64
)

// Filter tells which events a subscriber wants.
type Filter func(*ent.Event) bool

// Feed hands the events every process commits to this process's subscribers, oldest first: it
// tails the events table (the truth), woken by Wake (PostgreSQL's notifications, ListenPostgres)
// or by its poll. Its loop runs while it has subscribers. Events recorded before a subscriber
// came are not handed to it. On PostgreSQL it reads by time, looking back for late commits; on
// SQLite, whose one writer numbers rows in commit order, by row number (decision 562).
type Feed struct {
	client *ent.Client
	byRow  bool
	poll   time.Duration

	mu   sync.Mutex
	subs map[*Subscription]struct{}
	stop context.CancelFunc // of the running loop; nil when none runs
	done chan struct{}      // closed when the running loop ended
	wake chan struct{}
	// listen, on PostgreSQL, opens a connection that listens to the notifications of commits
	// that recorded events (nil on SQLite).
	listen func(context.Context) (*pgx.Conn, error)
}

// NewFeed returns a feed over client, of a PostgreSQL database or not, looking every poll
// (DefaultPoll when zero); on PostgreSQL, listen opens a connection that listens to the
// notifications of every process's commits that recorded events (store.Store.ListenEvents; nil:
// none).
func NewFeed(client *ent.Client, postgres bool, poll time.Duration, listen func(context.Context) (*pgx.Conn, error)) *Feed {
	if poll <= 0 {
		poll = DefaultPoll
	}
	return &Feed{client: client, byRow: !postgres, poll: poll, listen: listen, subs: map[*Subscription]struct{}{},
		wake: make(chan struct{}, 1)}
}

// Subscription is one subscriber's events: C is closed when the subscriber is dropped for not
// keeping up (Dropped then reports it) or after Close.
type Subscription struct {
	C       <-chan *ent.Event
	c       chan *ent.Event
	filter  Filter
	feed    *Feed
	dropped bool
}

// Subscribe registers a subscriber of the events filter accepts, committed from now on.
func (f *Feed) Subscribe(filter Filter) *Subscription {
	c := make(chan *ent.Event, SubscriberBuffer)
	s := &Subscription{C: c, c: c, filter: filter, feed: f}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stop == nil {
		f.start()
	}
	f.subs[s] = struct{}{}
	return s
}

// Close ends the subscription; the feed's loop stops with its last subscriber.
func (s *Subscription) Close() {
	f := s.feed
	f.mu.Lock()
	if _, ok := f.subs[s]; ok {
		delete(f.subs, s)
		close(s.c)
	}
	var done chan struct{}
	if len(f.subs) == 0 && f.stop != nil {
		f.stop()
		f.stop, done = nil, f.done
	}
	f.mu.Unlock()
	if done != nil {
		<-done
	}
}

// Dropped reports whether the feed dropped the subscriber for not keeping up.
func (s *Subscription) Dropped() bool {
	s.feed.mu.Lock()
	defer s.feed.mu.Unlock()
	return s.dropped
}

// Wake makes the feed look at the table now (a notification came).
func (f *Feed) Wake() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// start starts the loop (and its listener), from now. f.mu is held.
func (f *Feed) start() {
	ctx, cancel := context.WithCancel(context.Background())
	now := time.Now().UTC().Truncate(time.Microsecond)
	t := &tail{at: now, floor: now, id: -1, seen: map[int64]time.Time{}}
	f.stop, f.done = cancel, make(chan struct{})
	var listening sync.WaitGroup
	if f.listen != nil {
		listening.Add(1)
		go func() { defer listening.Done(); f.listenPostgres(ctx) }()
	}
	go func(done chan struct{}) {
		defer close(done)
		f.run(ctx, t)
		listening.Wait()
	}(f.done)
}

// run reads and hands on new events at each wake-up or poll, until ctx ends.
func (f *Feed) run(ctx context.Context, t *tail) {
	ctx = privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	poll := time.NewTicker(f.poll)
	defer poll.Stop()
	lastSweep := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.wake:
		case <-poll.C:
		}
		sweep := time.Since(lastSweep) >= sweepEvery
		if sweep {
			lastSweep = time.Now()
		}
		if err := f.read(ctx, t, sweep); err != nil && ctx.Err() == nil {
			slog.WarnContext(ctx, "events: reading the feed", "err", err)
		}
	}
}

// tail is where a feed is in the table: the time and id of the last event read in order (by row:
// the id alone, -1 until the first read places it), the feed's start (nothing before it is read),
// and the events read within lookback of the last (by time).
type tail struct {
	at    time.Time
	id    int64
	floor time.Time
	seen  map[int64]time.Time
}

// read hands on the events committed since the last read; with sweep, also those of the
// lookback window that committed late (by time).
func (f *Feed) read(ctx context.Context, t *tail, sweep bool) error {
	if f.byRow {
		return f.readRows(ctx, t)
	}
	for {
		at, id := t.at, t.id
		batch, err := f.client.Event.Query().Where(anyDispatch, event.CreatedAtGTE(at),
			event.Or(event.CreatedAtGT(at), event.IDGT(id))).
			Order(event.ByCreatedAt(), event.ByID()).Limit(feedBatch).All(ctx)
		if err != nil {
			return err
		}
		for _, e := range batch {
			t.at, t.id = e.CreatedAt, e.ID
		}
		t.saw(batch)
		f.handOn(batch)
		if len(batch) < feedBatch {
			break
		}
	}
	if sweep {
		return f.sweep(ctx, t)
	}
	return nil
}

// sweep hands on the events of the lookback window not read yet, and forgets those before it.
func (f *Feed) sweep(ctx context.Context, t *tail) error {
	from := t.at.Add(-lookback)
	if from.Before(t.floor) {
		from = t.floor
	}
	for id, at := range t.seen {
		if at.Before(from) {
			delete(t.seen, id)
		}
	}
	window := []predicate.Event{anyDispatch, event.CreatedAtGTE(from), event.CreatedAtLTE(t.at)}
	ids, err := f.client.Event.Query().Where(window...).IDs(ctx)
	if err != nil {
		return err
	}
	var late []int64
	for _, id := range ids {
		if _, ok := t.seen[id]; !ok {
			late = append(late, id)
		}
	}
	if len(late) == 0 {
		return nil
	}
	batch, err := f.client.Event.Query().Where(event.IDIn(late...)).
		Order(event.ByCreatedAt(), event.ByID()).All(ctx)
	if err != nil {
		return err
	}
	t.saw(batch)
	f.handOn(batch)
	return nil
}

// readRows hands on the events numbered after the last read; the first read starts after the
// newest event recorded before the feed started (a walk back over the rows recorded since).
func (f *Feed) readRows(ctx context.Context, t *tail) error {
	if t.id < 0 {
		before, err := f.client.Event.Query().Where(event.CreatedAtLT(t.floor)).
			Order(event.ByID(sql.OrderDesc())).Limit(1).IDs(ctx)
		if err != nil {
			return err
		}
		t.id = 0
		if len(before) > 0 {
			t.id = before[0]
		}
	}
	for {
		batch, err := f.client.Event.Query().Where(event.IDGT(t.id)).Order(event.ByID()).Limit(feedBatch).All(ctx)
		if err != nil {
			return err
		}
		if len(batch) > 0 {
			t.id = batch[len(batch)-1].ID
		}
		f.handOn(batch)
		if len(batch) < feedBatch {
			return nil
		}
	}
}

// saw notes the events of batch as read, for the sweeps of the lookback window.
func (t *tail) saw(batch []*ent.Event) {
	for _, e := range batch {
		t.seen[e.ID] = e.CreatedAt
	}
}

// anyDispatch is true of every event, and lets a search by time use the table's one index
// beside the id's on PostgreSQL, (dispatched, created_at), which the dispatcher reads
// undispatched events by: two ranges of it, one per state (decision 447).
func anyDispatch(s *sql.Selector) {
	s.Where(sql.In(s.C(event.FieldDispatched), false, true))
}

// handOn gives each event to the subscribers that want it, dropping those whose buffer is full.
func (f *Feed) handOn(batch []*ent.Event) {
	if len(batch) == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range batch {
		for s := range f.subs {
			if !s.filter(e) {
				continue
			}
			select {
			case s.c <- e:
			default:
				delete(f.subs, s)
				s.dropped = true
				close(s.c)
			}
		}
	}
}
