// Package jobs runs background work that several server processes share through one database.
//
// A job is a row of the jobs table: a kind (naming the handler that runs it), a key (what it
// works on, unique per kind) and the time it is due. A runner claims a due job by taking its
// lease — one conditional UPDATE, so of several processes exactly one wins — and renews the lease
// while the handler runs. A process that dies stops renewing; once the lease expires another
// process claims the job and runs it again. A handler that writes its result calls Job.Hold in
// the transaction that writes it, so a process that lost its lease (paused past its expiry while
// another took over) cannot commit a result twice.
//
// Asking for a job that exists makes it due at the new time and bumps its seq; a job asked for
// while it runs runs once more after it finishes, so no request is lost.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/job"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/id"
)

// ErrLeaseLost is returned by Job.Hold when another process took the job over.
var ErrLeaseLost = errors.New("jobs: the lease on the job was lost")

// Handler runs a job. It returns when the job should run again (the zero time: never), or an
// error, after which the job is retried with a growing delay. A handler reports the failures of
// the work itself (a document that cannot be fetched) in its own rows, not as errors: errors are
// for what a retry may mend (the database went away).
type Handler func(ctx context.Context, j *Job) (next time.Time, err error)

// Enqueue makes the job (kind, key) due at at: a new row, or the existing one moved to at with
// its seq bumped. client may be a transaction's client (tx.Client()), so the job is asked for in
// the same transaction as the change that needs it. Enqueue opts in to the system's access to
// the jobs table here, in one place.
func Enqueue(ctx context.Context, client *ent.Client, kind, key string, at time.Time) error {
	ctx = privacy.DecisionContext(ctx, privacy.Allow)
	at = at.UTC().Truncate(time.Microsecond)
	return client.Job.Create().SetKind(kind).SetKey(key).SetRunAt(at).
		OnConflictColumns(job.FieldKind, job.FieldKey).
		Update(func(u *ent.JobUpsert) { u.SetRunAt(at).AddSeq(1).UpdateUpdatedAt() }).
		Exec(ctx)
}

// Ensure makes the job (kind, key) exist, due at at when it is new; an existing job keeps its
// time and seq. Recurring work that every process asks for when it starts (the purge of deleted
// spaces) uses it, so a restart neither runs it early nor delays it.
func Ensure(ctx context.Context, client *ent.Client, kind, key string, at time.Time) error {
	ctx = privacy.DecisionContext(ctx, privacy.Allow)
	return client.Job.Create().SetKind(kind).SetKey(key).SetRunAt(at.UTC().Truncate(time.Microsecond)).
		OnConflictColumns(job.FieldKind, job.FieldKey).Ignore().Exec(ctx)
}

// Cancel removes the job (kind, key) if it is not running; a running job finishes its run.
func Cancel(ctx context.Context, client *ent.Client, kind, key string) error {
	ctx = privacy.DecisionContext(ctx, privacy.Allow)
	_, err := client.Job.Delete().Where(job.Kind(kind), job.Key(key), job.LeaseOwnerIsNil()).Exec(ctx)
	return err
}

// Options configure a Runner; zero fields take the defaults.
type Options struct {
	Lease   time.Duration    // how long a claim lasts without renewal (default 1 minute)
	Poll    time.Duration    // how often the table is looked at when nothing woke the runner (default 2 s)
	Workers int              // jobs run at once by this process (default 2)
	Clock   func() time.Time // default time.Now
	Owner   string           // this process's name in lease_owner (default host:pid)
	// Done, when set, is told of the end of each run: the job's kind, how long it ran, and its
	// error (nil when it succeeded, ErrLeaseLost when another process took the job over).
	Done func(kind string, took time.Duration, err error)
}

// Runner claims and runs due jobs of the kinds it has handlers for.
type Runner struct {
	client   *ent.Client
	o        Options
	handlers map[string]Handler
	wake     chan struct{}
	beside   []func(context.Context)
}

// New returns a runner over client; Handle registers the handlers before Run.
func New(client *ent.Client, o Options) *Runner {
	if o.Lease <= 0 {
		o.Lease = time.Minute
	}
	if o.Poll <= 0 {
		o.Poll = 2 * time.Second
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Owner == "" {
		host, _ := os.Hostname()
		o.Owner = fmt.Sprintf("%.40s:%d", host, os.Getpid())
	}
	return &Runner{client: client, o: o, handlers: map[string]Handler{}, wake: make(chan struct{}, 1)}
}

// Handle registers the handler of a kind of job.
func (r *Runner) Handle(kind string, h Handler) { r.handlers[kind] = h }

// Beside registers work to run beside the jobs while Run runs (it returns once its context
// ends): what wakes a job sooner than its time.
func (r *Runner) Beside(fn func(ctx context.Context)) { r.beside = append(r.beside, fn) }

// Wake makes a running runner look for due jobs now (after Enqueue in this process). It is safe
// on a nil runner, which does nothing.
func (r *Runner) Wake() {
	if r == nil {
		return
	}
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *Runner) now() time.Time { return r.o.Clock().UTC().Truncate(time.Microsecond) }

// system is ctx as the system viewer with access to every row: the runner's one opt-in.
func system(ctx context.Context) context.Context {
	return privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
}

// Run runs due jobs with Options.Workers workers, and the work registered with Beside, until ctx
// ends, then waits for the runs in progress to end (their contexts are cancelled too).
func (r *Runner) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, fn := range r.beside {
		wg.Go(func() { fn(ctx) })
	}
	for range r.o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx)
		}()
	}
	wg.Wait()
}

// work runs due jobs until none is left, then waits for a wake-up or the poll interval.
func (r *Runner) work(ctx context.Context) {
	t := time.NewTicker(r.o.Poll)
	defer t.Stop()
	for ctx.Err() == nil {
		ran, err := r.RunOne(ctx)
		if err != nil && ctx.Err() == nil {
			slog.ErrorContext(ctx, "jobs: claiming a job", "err", err)
		}
		if ran && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
		case <-r.wake:
		case <-t.C:
		}
	}
}

// RunDue runs due jobs one after another until none is left, and returns how many ran.
func (r *Runner) RunDue(ctx context.Context) (int, error) {
	n := 0
	for {
		ran, err := r.RunOne(ctx)
		if err != nil || !ran {
			return n, err
		}
		n++
	}
}

// RunOne claims one due job and runs it. It reports whether it ran one.
func (r *Runner) RunOne(ctx context.Context) (bool, error) {
	j, err := r.Claim(ctx)
	if err != nil || j == nil {
		return false, err
	}
	r.run(ctx, j)
	return true, nil
}

// candidates is how many due jobs one claim looks at: others may win the first ones.
const candidates = 8

// Claim takes the lease of one due job of a kind this runner handles, or returns nil when there
// is none. The job is not run: RunOne claims and runs. (Tests claim without running to play a
// process that dies holding a lease.)
func (r *Runner) Claim(ctx context.Context) (*Job, error) {
	if len(r.handlers) == 0 {
		return nil, nil
	}
	sys := system(ctx)
	now := r.now()
	kinds := make([]string, 0, len(r.handlers))
	for k := range r.handlers {
		kinds = append(kinds, k)
	}
	due, err := r.client.Job.Query().
		Where(kindIn(kinds), job.RunAtLTE(now), job.Or(job.LeaseUntilIsNil(), job.LeaseUntilLT(now))).
		Order(ent.Asc(job.FieldRunAt)).Limit(candidates).All(sys)
	if err != nil {
		return nil, err
	}
	for _, row := range due {
		token := r.o.Owner + "/" + id.Random(12)
		// The row read above may be stale: another process may have run the job and released
		// it, due later, since. Due-ness is checked again in the update, with the lease.
		n, err := r.client.Job.Update().
			Where(job.ID(row.ID), job.Seq(row.Seq), job.RunAtLTE(now), job.Or(job.LeaseUntilIsNil(), job.LeaseUntilLT(now))).
			SetLeaseOwner(token).SetLeaseUntil(now.Add(r.o.Lease)).Save(sys)
		if err != nil {
			return nil, err
		}
		if n == 1 {
			return &Job{ID: row.ID, Kind: row.Kind, Key: row.Key, Attempts: row.Attempts, seq: row.Seq, token: token, r: r}, nil
		}
	}
	return nil, nil
}

// kindIn is job.KindIn written so that no index on kind serves it: SQLite would otherwise search
// the (kind, key) index and sort every due job of those kinds to find the first few, at each
// claim (10,000 due deliveries: a sort of 10,000 rows per delivery). Without it, the run_at index
// yields due jobs in order and the search stops at the first few it may claim (jobs due at the
// same instant come in the index's order, not sorted further).
func kindIn(kinds []string) predicate.Job {
	return func(s *sql.Selector) {
		s.Where(sql.P(func(b *sql.Builder) {
			b.WriteString("(" + s.C(job.FieldKind) + " || '') IN (")
			for i, k := range kinds {
				if i > 0 {
					b.Comma()
				}
				b.Arg(k)
			}
			b.WriteString(")")
		}))
	}
}

// Job is a claimed job.
type Job struct {
	ID, Kind, Key string
	Attempts      int // failed runs before this one
	seq           int
	token         string // lease_owner while this claim holds
	r             *Runner
}

// Hold extends the lease in tx, or returns ErrLeaseLost when another process holds the job now.
// A handler calls it in the transaction that writes its result: the row lock (PostgreSQL) or the
// write lock (SQLite) it takes keeps a claim by another process from passing it until the commit.
func (j *Job) Hold(ctx context.Context, tx *ent.Tx) error {
	n, err := tx.Job.Update().Where(job.ID(j.ID), job.LeaseOwner(j.token)).
		SetLeaseUntil(j.r.now().Add(j.r.o.Lease)).Save(system(ctx))
	if err == nil && n == 0 {
		err = ErrLeaseLost
	}
	return err
}

// run runs a claimed job under a renewed lease, then records how it ended.
func (r *Runner) run(ctx context.Context, j *Job) {
	start := time.Now()
	runCtx, cancel := context.WithCancel(ctx)
	renewed := make(chan struct{})
	lost := false
	go func() { defer close(renewed); lost = r.renew(runCtx, cancel, j) }()
	next, err := r.call(runCtx, j)
	cancel()
	<-renewed
	if lost {
		err = ErrLeaseLost
	}
	if r.o.Done != nil {
		r.o.Done(j.Kind, time.Since(start), err)
	}
	end := context.WithoutCancel(ctx)
	if ferr := r.finish(end, j, next, err); ferr != nil {
		slog.ErrorContext(end, "jobs: recording the end of a job", "kind", j.Kind, "key", j.Key, "err", ferr)
	}
}

// call runs the handler, turning a panic into an error so one job cannot stop the runner.
func (r *Runner) call(ctx context.Context, j *Job) (next time.Time, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("jobs: the %s handler panicked: %v", j.Kind, p)
		}
	}()
	return r.handlers[j.Kind](system(ctx), j)
}

// renew extends the lease every third of its length until ctx ends; when the lease was lost it
// cancels the run and reports it.
func (r *Runner) renew(ctx context.Context, cancel context.CancelFunc, j *Job) (lost bool) {
	t := time.NewTicker(r.o.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
		n, err := r.client.Job.Update().Where(job.ID(j.ID), job.LeaseOwner(j.token)).
			SetLeaseUntil(r.now().Add(r.o.Lease)).Save(system(ctx))
		if err == nil && n == 0 {
			slog.WarnContext(ctx, "jobs: lease lost, stopping the run", "kind", j.Kind, "key", j.Key)
			cancel()
			return true
		}
	}
}

// finish records the end of a run, if this claim still holds the job: a job that succeeded is
// removed, or made due at next; one asked for again meanwhile (its seq moved) is released to run
// again; a failed one is retried after a delay that doubles with each failure, up to an hour.
func (r *Runner) finish(ctx context.Context, j *Job, next time.Time, runErr error) error {
	sys := system(ctx)
	mine := r.client.Job.Update().Where(job.ID(j.ID), job.LeaseOwner(j.token)).ClearLeaseOwner().ClearLeaseUntil()
	if runErr != nil {
		if errors.Is(runErr, ErrLeaseLost) {
			return nil
		}
		msg := runErr.Error()
		if len(msg) > 1000 {
			msg = msg[:1000]
		}
		slog.ErrorContext(ctx, "jobs: a job failed", "kind", j.Kind, "key", j.Key, "attempt", j.Attempts+1, "err", runErr)
		return mine.SetRunAt(r.now().Add(backoff(j.Attempts))).AddAttempts(1).SetLastError(msg).Exec(sys)
	}
	if next.IsZero() {
		n, err := r.client.Job.Delete().Where(job.ID(j.ID), job.LeaseOwner(j.token), job.Seq(j.seq)).Exec(sys)
		if err != nil || n == 1 {
			return err
		}
		return mine.SetAttempts(0).ClearLastError().Exec(sys)
	}
	n, err := r.client.Job.Update().Where(job.ID(j.ID), job.LeaseOwner(j.token), job.Seq(j.seq)).
		ClearLeaseOwner().ClearLeaseUntil().SetAttempts(0).ClearLastError().SetRunAt(next.UTC()).Save(sys)
	if err != nil || n == 1 {
		return err
	}
	return mine.SetAttempts(0).ClearLastError().Exec(sys)
}

// backoff is the delay before the retry of a job that failed attempts times before: 10 s,
// doubling, at most an hour.
func backoff(attempts int) time.Duration {
	d := 10 * time.Second
	for range min(attempts, 9) {
		d *= 2
	}
	return min(d, time.Hour)
}
