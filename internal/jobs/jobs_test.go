package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/job"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// twoProcesses opens one database twice, as two server processes would: the same SQLite file, or
// the same PostgreSQL schema when BINDERY_TEST_DB names a server.
func twoProcesses(t *testing.T) (a, b *ent.Client) {
	t.Helper()
	o := store.Options{DataDir: t.TempDir(), DSN: testenv.MigratedPostgresDSN(t)}
	open := func() *ent.Client {
		st, err := store.Open(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st.Client
	}
	return open(), open()
}

func system() context.Context {
	return privacy.DecisionContext(viewer.NewContext(context.Background(), viewer.System()), privacy.Allow)
}

// counter counts the runs of each key.
type counter struct {
	mu   sync.Mutex
	runs map[string]int
}

func (c *counter) handler(pause time.Duration) jobs.Handler {
	return func(ctx context.Context, j *jobs.Job) (time.Time, error) {
		time.Sleep(pause)
		c.mu.Lock()
		defer c.mu.Unlock()
		c.runs[j.Key]++
		return time.Time{}, nil
	}
}

func remaining(t *testing.T, c *ent.Client) int {
	t.Helper()
	n, err := c.Job.Query().Count(system())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTwoRunnersRunEachJobOnce(t *testing.T) {
	a, b := twoProcesses(t)
	const n = 40
	for i := range n {
		if err := jobs.Enqueue(context.Background(), a, "count", fmt.Sprint(i), time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	c := &counter{runs: map[string]int{}}
	var wg sync.WaitGroup
	for i, client := range []*ent.Client{a, a, b, b} {
		r := jobs.New(client, jobs.Options{Owner: fmt.Sprint("process-", i%2)})
		r.Handle("count", c.handler(2*time.Millisecond))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := r.RunDue(context.Background()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i := range n {
		if got := c.runs[fmt.Sprint(i)]; got != 1 {
			t.Errorf("job %d ran %d times, want once", i, got)
		}
	}
	if left := remaining(t, a); left != 0 {
		t.Fatalf("%d jobs left", left)
	}
}

func TestExpiredLeaseIsTakenOver(t *testing.T) {
	a, b := twoProcesses(t)
	clk := testenv.NewClock(time.Now())
	c := &counter{runs: map[string]int{}}
	dead := jobs.New(a, jobs.Options{Lease: time.Minute, Clock: clk.Now, Owner: "dead"})
	dead.Handle("count", c.handler(0))
	alive := jobs.New(b, jobs.Options{Lease: time.Minute, Clock: clk.Now, Owner: "alive"})
	alive.Handle("count", c.handler(0))
	if err := jobs.Enqueue(context.Background(), a, "count", "spec", clk.Now()); err != nil {
		t.Fatal(err)
	}
	// The first process claims the job and dies: it never runs it nor renews the lease.
	claimed, err := dead.Claim(context.Background())
	if err != nil || claimed == nil {
		t.Fatalf("claim: %v %v", claimed, err)
	}
	t.Run("OKLeaseHeld", func(t *testing.T) {
		clk.Add(59 * time.Second)
		if n, err := alive.RunDue(context.Background()); err != nil || n != 0 {
			t.Fatalf("ran %d jobs (%v) while another process held the lease", n, err)
		}
	})
	t.Run("OKTakenOverAfterExpiry", func(t *testing.T) {
		clk.Add(2 * time.Second)
		if n, err := alive.RunDue(context.Background()); err != nil || n != 1 || c.runs["spec"] != 1 {
			t.Fatalf("ran %d jobs (%v), runs %v", n, err, c.runs)
		}
		if left := remaining(t, a); left != 0 {
			t.Fatalf("%d jobs left", left)
		}
	})
	t.Run("ErrLateHolderCannotCommit", func(t *testing.T) {
		tx, err := a.Tx(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		if err := claimed.Hold(context.Background(), tx); !errors.Is(err, jobs.ErrLeaseLost) {
			t.Fatalf("the dead process's hold: %v, want ErrLeaseLost", err)
		}
	})
}

func TestLeaseRenewedWhileRunning(t *testing.T) {
	a, b := twoProcesses(t)
	var runs atomic.Int32
	slow := func(ctx context.Context, j *jobs.Job) (time.Time, error) {
		runs.Add(1)
		select {
		case <-time.After(1500 * time.Millisecond):
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		}
		return time.Time{}, nil
	}
	first := jobs.New(a, jobs.Options{Lease: 600 * time.Millisecond})
	first.Handle("slow", slow)
	second := jobs.New(b, jobs.Options{Lease: 600 * time.Millisecond})
	second.Handle("slow", slow)
	if err := jobs.Enqueue(context.Background(), a, "slow", "k", time.Now()); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := first.RunOne(context.Background()); err != nil {
			t.Error(err)
		}
	}()
	for range 15 {
		time.Sleep(100 * time.Millisecond)
		if _, err := second.RunDue(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	<-done
	if n := runs.Load(); n != 1 {
		t.Fatalf("the job ran %d times, want once: the running process renews its lease", n)
	}
}

func TestAskedForWhileRunningRunsAgain(t *testing.T) {
	a, _ := twoProcesses(t)
	runs := 0
	r := jobs.New(a, jobs.Options{})
	r.Handle("count", func(ctx context.Context, j *jobs.Job) (time.Time, error) {
		runs++
		if runs == 1 {
			return time.Time{}, jobs.Enqueue(ctx, a, "count", j.Key, time.Now())
		}
		return time.Time{}, nil
	})
	if err := jobs.Enqueue(context.Background(), a, "count", "k", time.Now()); err != nil {
		t.Fatal(err)
	}
	if n, err := r.RunDue(context.Background()); err != nil || n != 2 || runs != 2 {
		t.Fatalf("ran %d (%v), runs %d: want the job to run again", n, err, runs)
	}
}

func TestFailedJobIsRetriedLater(t *testing.T) {
	a, _ := twoProcesses(t)
	clk := testenv.NewClock(time.Now())
	fails := true
	r := jobs.New(a, jobs.Options{Clock: clk.Now})
	r.Handle("flaky", func(ctx context.Context, j *jobs.Job) (time.Time, error) {
		if fails {
			panic("database went away")
		}
		return time.Time{}, nil
	})
	if err := jobs.Enqueue(context.Background(), a, "flaky", "k", clk.Now()); err != nil {
		t.Fatal(err)
	}
	if n, _ := r.RunDue(context.Background()); n != 1 {
		t.Fatalf("ran %d", n)
	}
	row, err := a.Job.Query().Where(job.Key("k")).Only(system())
	if err != nil || row.Attempts != 1 || row.LastError == nil || row.LeaseOwner != nil {
		t.Fatalf("after a failure: %+v %v", row, err)
	}
	if n, _ := r.RunDue(context.Background()); n != 0 {
		t.Fatal("a failed job ran again at once")
	}
	fails = false
	clk.Add(11 * time.Second)
	if n, _ := r.RunDue(context.Background()); n != 1 || remaining(t, a) != 0 {
		t.Fatalf("the retry ran %d jobs, %d left", n, remaining(t, a))
	}
}

func TestRescheduled(t *testing.T) {
	a, _ := twoProcesses(t)
	clk := testenv.NewClock(time.Now())
	r := jobs.New(a, jobs.Options{Clock: clk.Now})
	r.Handle("refresh", func(ctx context.Context, j *jobs.Job) (time.Time, error) { return clk.Now().Add(time.Hour), nil })
	if err := jobs.Enqueue(context.Background(), a, "refresh", "k", clk.Now()); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		advance time.Duration
		want    int
	}{{0, 1}, {30 * time.Minute, 0}, {31 * time.Minute, 1}} {
		clk.Add(step.advance)
		if n, err := r.RunDue(context.Background()); err != nil || n != step.want {
			t.Fatalf("after %s: ran %d (%v), want %d", step.advance, n, err, step.want)
		}
	}
}
