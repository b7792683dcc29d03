package loader

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/binderyhq/bindery/ent"
)

type item struct{ key string }

func itemKey(it *item) string { return it.key }

// countingBatch returns a batch answering each key with "v:"+key, and the number of fetches and
// the keys of the last one.
func countingBatch(name string) (*Batch[string, string], *atomic.Int64, *[]string) {
	var fetches atomic.Int64
	var last []string
	var mu sync.Mutex
	return NewBatch(name, func(_ context.Context, _ *ent.Client, keys []string) (map[string]string, error) {
		fetches.Add(1)
		mu.Lock()
		last = append([]string(nil), keys...)
		mu.Unlock()
		out := map[string]string{}
		for _, k := range keys {
			out[k] = "v:" + k
		}
		return out, nil
	}), &fetches, &last
}

func items(n int, key func(int) string) []*item {
	out := make([]*item, n)
	for i := range out {
		out[i] = &item{key: key(i)}
	}
	return out
}

// getEach asks for every item's value concurrently, as sibling resolvers do, and returns the
// answers in the items' order.
func getEach[V any](ctx context.Context, b *Batch[string, V], its []*item) ([]V, []error) {
	vs, errs := make([]V, len(its)), make([]error, len(its))
	var wg sync.WaitGroup
	for i, it := range its {
		wg.Go(func() { vs[i], errs[i] = Get(ctx, nil, b, it, itemKey) })
	}
	wg.Wait()
	return vs, errs
}

// getAll asks for every item's value concurrently and fails unless each is "v:" and its key.
func getAll(t *testing.T, ctx context.Context, b *Batch[string, string], its []*item) {
	t.Helper()
	vs, errs := getEach(ctx, b, its)
	for i, it := range its {
		if errs[i] == nil && vs[i] != "v:"+it.key {
			errs[i] = fmt.Errorf("item %s: got %q", it.key, vs[i])
		}
	}
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
}

func TestGet(t *testing.T) {
	t.Run("OneStatementPerLevel", func(t *testing.T) {
		ctx := NewContext(context.Background(), nil)
		b, fetches, last := countingBatch("t")
		its := items(50, func(i int) string { return fmt.Sprint(i % 7) }) // 7 distinct keys
		Level(ctx, its)
		getAll(t, ctx, b, its)
		getAll(t, ctx, b, its) // answered from the level
		if fetches.Load() != 1 || len(*last) != 7 {
			t.Fatalf("%d fetches, last of %d keys; want 1 of 7", fetches.Load(), len(*last))
		}
	})
	t.Run("NoLevel", func(t *testing.T) {
		ctx := NewContext(context.Background(), nil)
		b, fetches, _ := countingBatch("t")
		getAll(t, ctx, b, items(3, func(i int) string { return fmt.Sprint(i) }))
		if fetches.Load() != 3 {
			t.Fatalf("%d fetches, want one per item", fetches.Load())
		}
	})
	t.Run("FirstLevelWins", func(t *testing.T) {
		ctx := NewContext(context.Background(), nil)
		b, fetches, _ := countingBatch("t")
		its := items(10, func(i int) string { return fmt.Sprint(i) })
		Level(ctx, its)
		Level(ctx, its[:2]) // one parent's page of a level already recorded
		getAll(t, ctx, b, its[:2])
		getAll(t, ctx, b, its)
		if fetches.Load() != 1 {
			t.Fatalf("%d fetches, want 1", fetches.Load())
		}
	})
	t.Run("Capacity", func(t *testing.T) {
		ctx := NewContext(context.Background(), nil)
		b, fetches, _ := countingBatch("t")
		its := items(2*batchCapacity+1, func(i int) string { return fmt.Sprint(i) })
		Level(ctx, its)
		getAll(t, ctx, b, its)
		if fetches.Load() != 3 {
			t.Fatalf("%d fetches, want 3 of at most %d keys", fetches.Load(), batchCapacity)
		}
	})
	t.Run("With", func(t *testing.T) {
		ctx := NewContext(context.Background(), nil)
		b, fetches, last := countingBatch("t")
		its := items(4, func(i int) string { return fmt.Sprint(i) })
		Level(ctx, its)
		other := func(it *item) string { return "other-" + it.key }
		if _, err := Get(ctx, nil, b, its[0], itemKey, other); err != nil {
			t.Fatal(err)
		}
		if v, err := Get(ctx, nil, b, its[3], other, itemKey); err != nil || v != "v:other-3" {
			t.Fatalf("got %q, %v", v, err)
		}
		if fetches.Load() != 1 || len(*last) != 8 {
			t.Fatalf("%d fetches, last of %d keys; want 1 of 8", fetches.Load(), len(*last))
		}
	})
}

// TestGetPanic: a batch that panics answers its level's other items with an error instead of
// leaving them waiting.
func TestGetPanic(t *testing.T) {
	ctx := NewContext(context.Background(), nil)
	b := NewBatch("panics", func(context.Context, *ent.Client, []string) (map[string]string, error) { panic("boom") })
	its := items(20, func(i int) string { return fmt.Sprint(i) })
	Level(ctx, its)
	var wg sync.WaitGroup
	var panics, interrupted atomic.Int64
	for _, it := range its {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if recover() != nil {
					panics.Add(1)
				}
			}()
			if _, err := Get(ctx, nil, b, it, itemKey); errors.Is(err, errInterrupted) {
				interrupted.Add(1)
			}
		}()
	}
	wg.Wait()
	if panics.Load() != 1 || interrupted.Load() != 19 {
		t.Fatalf("%d panics and %d interrupted; want 1 and 19", panics.Load(), interrupted.Load())
	}
}
