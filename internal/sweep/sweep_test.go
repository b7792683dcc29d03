package sweep_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/job"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/sweep"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// twoServers starts a server and builds a second one on the same database, as two `bindery
// serve` processes on one PostgreSQL (or one SQLite file), both on clk.
func twoServers(t *testing.T, clk *testenv.Clock) (e *testenv.Env, second *store.Store, secondJobs *jobs.Runner) {
	t.Helper()
	at := func(o *server.Options) { o.Clock, o.Jobs.Clock = clk.Now, clk.Now }
	e = testenv.New(t, at)
	o := server.Defaults("")
	at(&o)
	second = e.OpenAgain()
	_, secondJobs = server.New(second, o)
	return e, second, secondJobs
}

// deleteSpaces creates n spaces and deletes them at the clock's time.
func deleteSpaces(t *testing.T, e *testenv.Env, admin testenv.Actor, org string, n int) {
	t.Helper()
	for range n {
		created := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Doomed"})
		if created.Status != 201 {
			t.Fatalf("create a space: %d %s", created.Status, created.Body)
		}
		if del := e.Do(admin, "DELETE", "/v1/spaces/"+created.Map(t)["id"].(string), nil); del.Status != 205 {
			t.Fatalf("delete a space: %d %s", del.Status, del.Body)
		}
	}
}

func deletedSpaces(t *testing.T, e *testenv.Env) int {
	t.Helper()
	n, err := e.Store.Client.Space.Query().Where(space.DeletedAtNotNil()).Count(accounts.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// runBoth runs the due jobs of both runners at once and returns how many ran in all.
func runBoth(t *testing.T, a, b *jobs.Runner) int {
	t.Helper()
	ran := make([]int, 2)
	var wg sync.WaitGroup
	for i, r := range []*jobs.Runner{a, b} {
		wg.Go(func() {
			n, err := r.RunDue(context.Background())
			if err != nil {
				t.Error(err)
			}
			ran[i] = n
		})
	}
	wg.Wait()
	return ran[0] + ran[1]
}

func TestPurgeJobAcrossProcesses(t *testing.T) {
	clk := testenv.NewClock(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))
	e, secondStore, second := twoServers(t, clk)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	ctx := context.Background()
	deleteSpaces(t, e, admin, org, 3)
	clk.Add(8 * 24 * time.Hour)
	// Both processes start and ask for the purge: there is still one job.
	for _, client := range []*ent.Client{e.Store.Client, secondStore.Client} {
		if err := sweep.Schedule(ctx, client, clk.Now()); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("OKRunsOnceForTwoProcesses", func(t *testing.T) {
		if n := runBoth(t, e.Jobs, second); n != 1 {
			t.Fatalf("the purge ran %d times, want once", n)
		}
		if n := deletedSpaces(t, e); n != 0 {
			t.Fatalf("%d deleted spaces left", n)
		}
		row, err := e.Store.Client.Job.Query().Where(job.Kind(sweep.Job)).Only(accounts.System(ctx))
		if err != nil || !row.RunAt.Equal(clk.Now().Add(sweep.Interval)) || row.LeaseOwner != nil {
			t.Fatalf("the purge job after its run: %+v %v; want it due an interval later, released", row, err)
		}
	})
	t.Run("OKRestartKeepsTheTime", func(t *testing.T) {
		if err := sweep.Schedule(ctx, e.Store.Client, clk.Now()); err != nil {
			t.Fatal(err)
		}
		clk.Add(sweep.Interval - time.Minute)
		if n := runBoth(t, e.Jobs, second); n != 0 {
			t.Fatalf("the purge ran %d times before its interval ended", n)
		}
	})
	t.Run("OKKilledProcessTakenOver", func(t *testing.T) {
		deleteSpaces(t, e, admin, org, 2)
		clk.Add(8 * 24 * time.Hour)
		// The first process claims the purge and dies: it neither runs it nor renews its lease.
		if j, err := e.Jobs.Claim(ctx); err != nil || j == nil || j.Kind != sweep.Job {
			t.Fatalf("claim: %+v %v", j, err)
		}
		if n, err := second.RunDue(ctx); err != nil || n != 0 {
			t.Fatalf("ran %d (%v) while the dead process's lease held", n, err)
		}
		clk.Add(time.Minute + time.Second)
		if n, err := second.RunDue(ctx); err != nil || n != 1 {
			t.Fatalf("ran %d (%v) after the lease expired, want the purge", n, err)
		}
		if n := deletedSpaces(t, e); n != 0 {
			t.Fatalf("%d deleted spaces left", n)
		}
	})
}
