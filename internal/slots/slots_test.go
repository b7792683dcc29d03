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
// once; exactly the limit are taken, the others refused with ErrFull; a released slot is taken
// again; other keys are not counted.
func TestTakeNeverExceedsTheLimit(t *testing.T) {
	st := testenv.OpenStore(t, new(atomic.Int64))
	tables := []*slots.Table{slots.New(st.Client, st.Postgres(), time.Minute), slots.New(st.Client, st.Postgres(), time.Minute)}
	ctx := context.Background()
	const limit = 5
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		releases []func()
		full     int
	)
	for i := range 16 {
		wg.Go(func() {
			release, _, err := tables[i%2].Take(ctx, "token", limit)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, slots.ErrFull):
				full++
			case err != nil:
				t.Error(err)
			default:
				releases = append(releases, release)
			}
		})
	}
	wg.Wait()
	if len(releases) != limit || full != 16-limit {
		t.Fatalf("%d slots taken and %d refused, want %d and %d", len(releases), full, limit, 16-limit)
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
