package ratelimit

import (
	"context"
	"log/slog"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/jobs"
)

// The sweep of ended windows is a job (internal/jobs) with one row (key SweepJobKey): every
// `bindery serve` with rate limits ensures it exists when it starts, and the process that claims
// it sweeps and makes it due again SweepInterval later, so with several processes on one
// database one of them sweeps, once an interval, and a sweep whose process died is taken over
// when its lease expires.
const (
	SweepJob      = "rate-limit-sweep"
	SweepJobKey   = "all"
	SweepInterval = 10 * time.Minute
)

// ScheduleSweep ensures the sweep job exists, due at now when it is new.
func ScheduleSweep(ctx context.Context, client *ent.Client, now time.Time) error {
	return jobs.Ensure(ctx, client, SweepJob, SweepJobKey, now)
}

// SweepHandler is the sweep job's handler: it deletes the windows of t that ended by clock's
// time (each lasts window) and makes the job due again SweepInterval later. It needs no
// Job.Hold: a window that ended is gone for good whoever deletes it.
func (t *Table) SweepHandler(window time.Duration, clock func() time.Time) jobs.Handler {
	return func(ctx context.Context, _ *jobs.Job) (time.Time, error) {
		now := clock()
		n, err := t.Sweep(ctx, now, window)
		if n > 0 {
			slog.DebugContext(ctx, "rate limit: swept ended windows", "removed", n)
		}
		return now.Add(SweepInterval), err
	}
}
