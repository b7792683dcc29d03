package ratelimit_test

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

func TestGraphQLCost(t *testing.T) {
	for _, c := range []struct {
		complexity int
		mutation   bool
		want       int
	}{{0, false, 1}, {2, false, 1}, {100, false, 1}, {101, false, 2}, {5000, false, 50}, {2, true, 5}, {900, true, 9}} {
		if got := ratelimit.GraphQLCost(c.complexity, c.mutation); got != c.want {
			t.Errorf("GraphQLCost(%d, %v) = %d, want %d", c.complexity, c.mutation, got, c.want)
		}
	}
}

func TestClientAddress(t *testing.T) {
	proxies, err := ratelimit.ParseProxies("10.0.0.0/8, 192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, peer, forwarded, want string }{
		{"OKPeer", "198.51.100.7:5000", "", "198.51.100.7"},
		{"OKUntrustedPeerIgnoresHeader", "198.51.100.7:5000", "203.0.113.9", "198.51.100.7"},
		{"OKTrustedProxy", "192.0.2.1:443", "203.0.113.9", "203.0.113.9"},
		{"OKSpoofedHopsBeforeTheProxyChain", "10.1.1.1:443", "1.2.3.4, 203.0.113.9, 10.2.2.2", "203.0.113.9"},
		{"OKMalformedHopStops", "192.0.2.1:443", "203.0.113.9, junk", "192.0.2.1"},
		{"OKIPv6Network", "[2001:db8:1:2:3:4:5:6]:443", "", "2001:db8:1:2::/64"},
		{"OKMappedIPv4", "[::ffff:198.51.100.7]:443", "", "198.51.100.7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &http.Request{RemoteAddr: c.peer, Header: http.Header{}}
			if c.forwarded != "" {
				r.Header.Set("X-Forwarded-For", c.forwarded)
			}
			if got := proxies.ClientAddress(r); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	if _, err := ratelimit.ParseProxies("10.0.0.0/8,nope"); err == nil {
		t.Error("ErrBadProxy: no error")
	}
}

// countingCounter is a Counter in memory that counts its writes.
type countingCounter struct {
	writes atomic.Int64
	used   int
	start  time.Time
}

func (c *countingCounter) Add(_ context.Context, _ []byte, now time.Time, window time.Duration, points, ceiling int) (time.Time, int, error) {
	c.writes.Add(1)
	if !now.Before(c.start.Add(window)) {
		c.start, c.used = now, 0
	}
	if ceiling > 0 && c.used+points > ceiling {
		return time.Time{}, 0, ratelimit.ErrOverCeiling
	}
	c.used += points
	return c.start, c.used, nil
}

func TestLimiterBatches(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	counter := &countingCounter{}
	l := ratelimit.New(ratelimit.Limits{Token: 1000, Window: time.Hour}, counter, func() time.Time { return now })
	who := ratelimit.Token("bdy_x")
	for i := range 985 {
		if d := l.Take(context.Background(), who, ratelimit.Core, 1); !d.Allowed || d.Used != i+1 {
			t.Fatalf("take %d: %+v", i+1, d)
		}
	}
	if n := counter.writes.Load(); n != 98 {
		t.Fatalf("%d writes for 985 points in batches of 10, want 98", n)
	}
	for range 15 { // a batch at 990, then the last batch: each request is decided by the counter
		if d := l.Take(context.Background(), who, ratelimit.Core, 1); !d.Allowed {
			t.Fatalf("refused within the budget: %+v", d)
		}
	}
	if n := counter.writes.Load(); n != 98+1+10 || counter.used != 1000 {
		t.Fatalf("%d writes, %d points in the counter; want 109 and 1000", n, counter.used)
	}
	if d := l.Take(context.Background(), who, ratelimit.Core, 1); d.Allowed || counter.writes.Load() != 109 {
		t.Fatalf("over the budget: %+v, %d writes (a refusal known here needs none)", d, counter.writes.Load())
	}
	now = now.Add(time.Hour)
	if d := l.Take(context.Background(), who, ratelimit.Core, 1); !d.Allowed || d.Used != 1 || !d.Reset.Equal(now.Add(time.Hour)) {
		t.Fatalf("a new window: %+v", d)
	}
}

// TestTable runs the counters' statement on the test database (PostgreSQL when BINDERY_TEST_DB
// names one): windows start, add, end, and refuse points over a ceiling; Sweep removes ended ones.
func TestTable(t *testing.T) {
	st := testenv.OpenStore(t, new(atomic.Int64))
	table, ctx := st.RateCounters, context.Background()
	t0 := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(key string, at time.Duration, points, ceiling int) (time.Duration, int, error) {
		start, used, err := table.Add(ctx, []byte(key), t0.Add(at), time.Hour, points, ceiling)
		return start.Sub(t0), used, err
	}
	expect := func(gotStart time.Duration, gotUsed int, err error, start time.Duration, used int) {
		t.Helper()
		if err != nil || gotStart != start || gotUsed != used {
			t.Fatalf("got start +%v used %d (%v), want +%v and %d", gotStart, gotUsed, err, start, used)
		}
	}
	s, u, err := add("a", 0, 3, 0)
	expect(s, u, err, 0, 3)
	s, u, err = add("a", time.Minute, 4, 0)
	expect(s, u, err, 0, 7)
	if _, _, err := add("a", 2*time.Minute, 4, 10); !errors.Is(err, ratelimit.ErrOverCeiling) {
		t.Fatalf("over the ceiling: %v", err)
	}
	s, u, err = add("a", 3*time.Minute, 3, 10)
	expect(s, u, err, 0, 10)
	s, u, err = add("b", 30*time.Minute, 1, 0)
	expect(s, u, err, 30*time.Minute, 1)
	s, u, err = add("a", time.Hour, 2, 10)
	expect(s, u, err, time.Hour, 2)

	n, err := table.Sweep(ctx, t0.Add(90*time.Minute), time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("sweep removed %d (%v), want the window of b", n, err)
	}
	s, u, err = add("a", 61*time.Minute, 1, 0)
	expect(s, u, err, time.Hour, 3)
}

// TestSweepJob: ended windows are swept by a job of the servers' runners (decision 303). It
// leaves a window that has not ended, deletes one that has and comes back an interval later;
// while one process holds its lease another runs nothing, and takes it over once it expires.
func TestSweepJob(t *testing.T) {
	clock := testenv.NewClock(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))
	e := testenv.New(t, func(o *server.Options) {
		o.RateLimits = ratelimit.Limits{Token: 100, Anonymous: 100, Window: time.Hour} // a batch of 1: every point is written
		o.Clock, o.Jobs.Clock = clock.Now, clock.Now
	})
	admin, _ := e.Bootstrap("ada@example.com", "Acme")
	if r := e.Do(admin, "GET", "/v1/user", nil); r.Status != http.StatusOK {
		t.Fatalf("%d %s", r.Status, r.Body)
	}
	windows := func() (n int) {
		t.Helper()
		if err := e.Store.Pools()[0].DB.QueryRow(`SELECT count(*) FROM rate_limits`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	open := windows() // the token's, and the address's when this process read the server's API document
	ctx := context.Background()
	if err := ratelimit.ScheduleSweep(ctx, e.Store.Client, clock.Now()); err != nil {
		t.Fatal(err)
	}
	if ran := e.RunDueJobs(); ran != 1 || open == 0 || windows() != open {
		t.Fatalf("ran %d jobs, left %d windows of %d: want the sweep, and the windows that have not ended", ran, windows(), open)
	}
	other := e.OpenAgain() // a second process on the same database
	otherJobs := jobs.New(other.Client, jobs.Options{Clock: clock.Now})
	otherJobs.Handle(ratelimit.SweepJob, other.RateCounters.SweepHandler(time.Hour, clock.Now))

	clock.Add(time.Hour + ratelimit.SweepInterval) // the window ended, the sweep is due
	if j, err := e.Jobs.Claim(ctx); err != nil || j == nil || j.Kind != ratelimit.SweepJob {
		t.Fatalf("claim: %+v %v", j, err) // and its process stops before it sweeps
	}
	if ran, err := otherJobs.RunDue(ctx); err != nil || ran != 0 {
		t.Fatalf("the other process ran %d jobs (%v) while the lease held", ran, err)
	}
	clock.Add(2 * time.Minute) // the lease expired
	if ran, err := otherJobs.RunDue(ctx); err != nil || ran != 1 || windows() != 0 {
		t.Fatalf("the other process ran %d jobs (%v), left %d windows", ran, err, windows())
	}
	if ran, _ := otherJobs.RunDue(ctx); ran != 0 {
		t.Fatal("the sweep ran again at once")
	}
	clock.Add(ratelimit.SweepInterval)
	if ran, _ := otherJobs.RunDue(ctx); ran != 1 {
		t.Fatal("the sweep did not come back an interval later")
	}
}
