package slots_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/slots"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestTakeNeverExceedsTheLimit: holders of two tables (two processes) take slots of one key at
// once, round after round; exactly the limit are taken each round, the others refused with
// ErrFull; a released slot is taken again; other keys are not counted.
func TestTakeNeverExceedsTheLimit(t *testing.T) {
	st := testenv.OpenStore(t, new(atomic.Int64))
	tables := []*slots.Table{slots.New(st.Client, st.Postgres(), time.Minute), slots.New(st.Client, st.Postgres(), time.Minute)}
	ctx := context.Background()
	const limit, takers = 5, 16
	var releases []func()
	for round := range 10 {
		releases = takeAtOnce(t, tables, limit, takers)
		if len(releases) != limit {
			t.Fatalf("round %d: %d slots taken at once, want %d", round, len(releases), limit)
		}
		if round < 9 {
			for _, release := range releases {
				release()
			}
		}
	}
	if _, held, err := tables[0].Take(ctx, "token", limit); !errors.Is(err, slots.ErrFull) || held != limit {
		t.Fatalf("a sixth slot: held %d, %v", held, err)
	}
	if _, _, err := tables[0].Take(ctx, "another", limit); err != nil {
		t.Fatalf("another key: %v", err)
	}
	releases[0]()
	releases[0]() // a second release changes nothing
	if _, _, err := tables[1].Take(ctx, "token", limit); err != nil {
		t.Fatalf("the slot released by the other table: %v", err)
	}
	if _, _, err := tables[1].Take(ctx, "token", limit); !errors.Is(err, slots.ErrFull) {
		t.Fatalf("beyond the limit again: %v", err)
	}
}

// takeAtOnce has takers goroutines, spread over the tables, take a slot of one key at the same
// moment; it returns the releases of those taken.
func takeAtOnce(t *testing.T, tables []*slots.Table, limit, takers int) []func() {
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		releases []func()
	)
	start := make(chan struct{})
	for i := range takers {
		wg.Go(func() {
			<-start
			release, _, err := tables[i%len(tables)].Take(context.Background(), "token", limit)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				releases = append(releases, release)
			case !errors.Is(err, slots.ErrFull):
				t.Error(err)
			}
		})
	}
	close(start)
	wg.Wait()
	return releases
}

// TestLeases: a held slot outlives its lease while its holder renews it, is written again when
// its row went missing, and the expired slots of a holder that died are swept.
func TestLeases(t *testing.T) {
	st := testenv.OpenStore(t, new(atomic.Int64))
	ctx := context.Background()
	table := slots.New(st.Client, st.Postgres(), 600*time.Millisecond)
	release, _, err := table.Take(ctx, "token", 5)
	if err != nil {
		t.Fatal(err)
	}
	count := func(where string, args ...any) int {
		return testenv.Count(t, st, "SELECT count(*) FROM slots "+where, args...)
	}
	live := func() int { return count("WHERE expires_at > $1", time.Now().UnixMicro()) }
	time.Sleep(time.Second)
	if n := live(); n != 1 {
		t.Fatalf("after more than a lease: %d live slots, want the renewed one", n)
	}
	for _, q := range []string{"DELETE FROM slots",
		"INSERT INTO slots (key, id, holder, expires_at) VALUES ('token', 'dead', 'gone', 0)"} {
		if _, err := st.Client.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for start := time.Now(); live() != 1 || count("") != 1; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the held slot not written again, or the dead holder's not swept: %d live of %d", live(), count(""))
		}
	}
	release()
	if n := count(""); n != 0 {
		t.Fatalf("after the release: %d slots", n)
	}
}
