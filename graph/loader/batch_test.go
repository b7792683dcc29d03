package loader

import (
	"context"
	"errors"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/binderyhq/bindery/ent"
)

// fetchLog records the keys of every fetch of fake batches, by batch name.
type fetchLog struct {
	mu      sync.Mutex
	fetched map[string][][]string
}

// fetches returns the keys of each fetch of the batch named name, each sorted.
func (f *fetchLog) fetches(name string) [][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([][]string, len(f.fetched[name]))
	for i, keys := range f.fetched[name] {
		out[i] = slices.Sorted(slices.Values(keys))
	}
	return out
}

// fakeBatch returns a batch named name answering with answer, its fetches recorded in log.
func fakeBatch[V any](log *fetchLog, name string, answer func(context.Context, []string) (map[string]V, error)) *Batch[string, V] {
	return NewBatch(name, func(ctx context.Context, _ *ent.Client, keys []string) (map[string]V, error) {
		log.mu.Lock()
		if log.fetched == nil {
			log.fetched = map[string][][]string{}
		}
		log.fetched[name] = append(log.fetched[name], slices.Clone(keys))
		log.mu.Unlock()
		return answer(ctx, keys)
	})
}

// valuesOf answers each key with "v:" and the key.
func valuesOf(_ context.Context, keys []string) (map[string]string, error) {
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		out[k] = "v:" + k
	}
	return out, nil
}

func isOdd(key string) bool {
	n, _ := strconv.Atoi(key)
	return n%2 == 1
}

func TestEachItemIsAnsweredTheValueOfItsOwnKey(t *testing.T) {
	ctx := NewContext(context.Background(), nil)
	var log fetchLog
	b := fakeBatch(&log, "odd keys", func(_ context.Context, keys []string) (map[string]string, error) {
		all, _ := valuesOf(ctx, keys)
		maps.DeleteFunc(all, func(k, _ string) bool { return !isOdd(k) })
		return all, nil
	})
	its := items(40, func(i int) string { return strconv.Itoa(39 - i) })
	Level(ctx, its)
	vs, errs := getEach(ctx, b, its)
	for i, it := range its {
		want := ""
		if isOdd(it.key) {
			want = "v:" + it.key
		}
		if vs[i] != want || errs[i] != nil {
			t.Errorf("item %s: %q, %v; want %q (a key the fetch finds no value for answers the zero value)", it.key, vs[i], errs[i], want)
		}
	}
	if n := len(log.fetches("odd keys")); n != 1 {
		t.Errorf("%d fetches, want 1", n)
	}
}

func TestAFetchIsAskedEachKeyOfTheLevelOnceAndNoZeroKey(t *testing.T) {
	ctx := NewContext(context.Background(), nil)
	var log fetchLog
	b := fakeBatch(&log, "t", valuesOf)
	its := items(30, func(i int) string {
		if i%3 == 0 {
			return "" // an item that names nothing (a space at the top level has no parent)
		}
		return strconv.Itoa(i % 5)
	})
	Level(ctx, its)
	if _, err := Get(ctx, nil, b, its[1], itemKey); err != nil {
		t.Fatal(err)
	}
	if got := log.fetches("t"); !slices.EqualFunc(got, [][]string{{"0", "1", "2", "3", "4"}}, slices.Equal) {
		t.Errorf("fetches %q, want one of the 5 distinct non-zero keys", got)
	}
}

func TestAFailedStatementAnswersItsOwnKeysWithItsError(t *testing.T) {
	ctx := NewContext(context.Background(), nil)
	var log fetchLog
	its := items(batchCapacity+1, strconv.Itoa)
	bad := its[batchCapacity].key // alone in the level's second statement
	errFailed := errors.New("statement failed")
	b := fakeBatch(&log, "t", func(ctx context.Context, keys []string) (map[string]string, error) {
		if slices.Contains(keys, bad) {
			return nil, errFailed
		}
		return valuesOf(ctx, keys)
	})
	Level(ctx, its)
	if _, err := Get(ctx, nil, b, its[0], itemKey); err != nil { // the level's keys in the items' order
		t.Fatal(err)
	}
	vs, errs := getEach(ctx, b, its)
	for i, it := range its {
		if it.key == bad {
			if !errors.Is(errs[i], errFailed) || vs[i] != "" {
				t.Errorf("item %s of the failed statement: %q, %v; want its error", it.key, vs[i], errs[i])
			}
		} else if errs[i] != nil || vs[i] != "v:"+it.key {
			t.Errorf("item %s of the statement that succeeded: %q, %v", it.key, vs[i], errs[i])
		}
	}
	if n := len(log.fetches("t")); n != 2 {
		t.Errorf("%d fetches, want 2: a failed key is answered its error again, not fetched again", n)
	}
}

func TestCancellingTheRequestAnswersEveryWaitingItemItsError(t *testing.T) {
	ctx, cancel := context.WithCancel(NewContext(context.Background(), nil))
	defer cancel()
	started := make(chan struct{})
	var once sync.Once
	b := NewBatch("waits for its context", func(ctx context.Context, _ *ent.Client, _ []string) (map[string]string, error) {
		once.Do(func() { close(started) })
		<-ctx.Done()
		return nil, ctx.Err()
	})
	its := items(20, strconv.Itoa)
	Level(ctx, its)
	answered := make(chan []error)
	go func() {
		_, errs := getEach(ctx, b, its)
		answered <- errs
	}()
	<-started
	cancel()
	for i, err := range <-answered {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("item %d: %v, want context.Canceled", i, err)
		}
	}
}

func TestAListReadAgainIsLookedUpAfresh(t *testing.T) {
	ctx := NewContext(context.Background(), nil)
	b, fetches, _ := countingBatch("t")
	first := items(5, strconv.Itoa)
	Level(ctx, first)
	getAll(t, ctx, b, first)
	getAll(t, ctx, b, first[:1])
	if fetches.Load() != 1 {
		t.Fatalf("%d fetches for one level asked twice, want 1", fetches.Load())
	}
	again := items(5, strconv.Itoa) // the same rows read again (after a write): new items
	Level(ctx, again)
	getAll(t, ctx, b, again)
	if fetches.Load() != 2 {
		t.Errorf("%d fetches, want 2: the answers of a level are kept with it", fetches.Load())
	}
}

func TestAnswersKeptForTheRequestServeEveryLevel(t *testing.T) {
	ctx := NewContext(context.Background(), nil)
	var log fetchLog
	b := fakeBatch(&log, "t", valuesOf)
	b.perRequest = true
	first, second := items(3, strconv.Itoa), items(5, strconv.Itoa)
	Level(ctx, first)
	Level(ctx, second)
	getAll(t, ctx, b, first)
	getAll(t, ctx, b, second)
	want := [][]string{{"0", "1", "2"}, {"3", "4"}}
	if got := log.fetches("t"); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("fetches %q, want %q: the second level fetches only the keys no level answered", got, want)
	}
}

func TestOutsideARequestEachLookupIsMadeAlone(t *testing.T) {
	ctx := context.Background()
	b, fetches, _ := countingBatch("t")
	its := items(4, strconv.Itoa)
	Level(ctx, its) // no request: nothing to record the level in
	getAll(t, ctx, b, its)
	getAll(t, ctx, b, its)
	if fetches.Load() != 8 {
		t.Errorf("%d fetches, want one per lookup", fetches.Load())
	}
}

func TestForReturnsTheLoadersOfTheRequest(t *testing.T) {
	req := NewContext(context.Background(), nil)
	if For(req, nil) != For(req, nil) {
		t.Error("two calls in one request returned different loaders")
	}
	if For(NewContext(context.Background(), nil), nil) == For(req, nil) {
		t.Error("two requests share loaders")
	}
	if For(context.Background(), nil) == For(context.Background(), nil) {
		t.Error("two calls outside a request share loaders")
	}
}

// TestTwoRequestsNeverShareAnswers hands the same items to two requests of different viewers at
// once, as a cache shared by requests could: each is answered what its own viewer is.
func TestTwoRequestsNeverShareAnswers(t *testing.T) {
	type viewerKey struct{}
	var log fetchLog
	b := fakeBatch(&log, "as the viewer", func(ctx context.Context, keys []string) (map[string]string, error) {
		out := make(map[string]string, len(keys))
		for _, k := range keys {
			out[k] = ctx.Value(viewerKey{}).(string) + ":" + k
		}
		return out, nil
	})
	shared := items(10, strconv.Itoa)
	var wg sync.WaitGroup
	for _, who := range []string{"ada", "bob"} {
		wg.Go(func() {
			ctx := NewContext(context.WithValue(context.Background(), viewerKey{}, who), nil)
			Level(ctx, shared)
			vs, errs := getEach(ctx, b, shared)
			for i, it := range shared {
				if vs[i] != who+":"+it.key || errs[i] != nil {
					t.Errorf("%s's request, item %s: %q, %v", who, it.key, vs[i], errs[i])
				}
			}
		})
	}
	wg.Wait()
	if n := len(log.fetches("as the viewer")); n != 2 {
		t.Errorf("%d fetches, want one per request", n)
	}
}

// TestEveryLevelOfANestedListIsOneFetch resolves a list three levels deep as gqlgen does, every
// item in a goroutine of its own: each level's lookup is one fetch of all its keys.
func TestEveryLevelOfANestedListIsOneFetch(t *testing.T) {
	ctx := NewContext(context.Background(), nil)
	var log fetchLog
	children := func(name string, n int) *Batch[string, []*item] {
		return fakeBatch(&log, name, func(ctx context.Context, keys []string) (map[string][]*item, error) {
			out := make(map[string][]*item, len(keys))
			var level []*item
			for _, k := range keys {
				for j := range n {
					c := &item{key: k + "/" + strconv.Itoa(j)}
					out[k], level = append(out[k], c), append(level, c)
				}
			}
			Level(ctx, level)
			return out, nil
		})
	}
	kids, grandkids, names := children("kids", 3), children("grandkids", 2), fakeBatch(&log, "names", valuesOf)
	parents := items(8, strconv.Itoa)
	Level(ctx, parents)
	var named atomic.Int64
	var wg sync.WaitGroup
	each := func(its []*item, resolve func(*item)) {
		for _, it := range its {
			wg.Go(func() { resolve(it) })
		}
	}
	each(parents, func(p *item) {
		cs, _ := Get(ctx, nil, kids, p, itemKey)
		each(cs, func(c *item) {
			gs, _ := Get(ctx, nil, grandkids, c, itemKey)
			each(gs, func(g *item) {
				if v, err := Get(ctx, nil, names, g, itemKey); err == nil && v == "v:"+g.key {
					named.Add(1)
				}
			})
		})
	})
	wg.Wait()
	for name, keys := range map[string]int{"kids": 8, "grandkids": 8 * 3, "names": 8 * 3 * 2} {
		if got := log.fetches(name); len(got) != 1 || len(got[0]) != keys {
			t.Errorf("%s: fetches of %d keys, want one of %d", name, lens(got), keys)
		}
	}
	if named.Load() != 8*3*2 {
		t.Errorf("%d names answered, want %d", named.Load(), 8*3*2)
	}
}

func lens(fetches [][]string) []int {
	out := make([]int, len(fetches))
	for i, f := range fetches {
		out[i] = len(f)
	}
	return out
}

func TestDerivedIsMadeOncePerFieldOfTheRequest(t *testing.T) {
	made := 0
	derive := func(v string) func() string { return func() string { made++; return v } }
	l := New(nil)
	first, again, other := l.Derived("a", derive("columns of a")), l.Derived("a", derive("x")), l.Derived("b", derive("columns of b"))
	if first != "columns of a" || again != first || other != "columns of b" || made != 2 {
		t.Errorf("got %q, %q, %q in %d derivations; want a's twice and b's, in 2", first, again, other, made)
	}
	if v := New(nil).Derived("a", derive("another request's")); v != "another request's" {
		t.Errorf("another request got %q", v)
	}
}

func TestAMemoIsLoadedOnceWhoeverAsks(t *testing.T) {
	var m memo[int]
	var loads atomic.Int64
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if v, err := m.get(func() (int, error) { return int(loads.Add(1)), nil }); v != 1 || err != nil {
				t.Errorf("got %d, %v; want the first load's 1", v, err)
			}
		})
	}
	wg.Wait()
	if loads.Load() != 1 {
		t.Errorf("%d loads, want 1", loads.Load())
	}
}

// TestAnItemNamingNothingIsAnsweredWithoutAFetch: an item whose key is zero (a space at the top
// level, asked for its parent) names no value, so it is answered the zero value and no statement
// is sent for the zero key, as none is for its siblings'.
func TestAnItemNamingNothingIsAnsweredWithoutAFetch(t *testing.T) {
	ctx := NewContext(context.Background(), nil)
	var log fetchLog
	b := fakeBatch(&log, "t", valuesOf)
	its := items(4, func(i int) string {
		if i == 0 {
			return ""
		}
		return strconv.Itoa(i)
	})
	Level(ctx, its)
	if v, err := Get(ctx, nil, b, its[0], itemKey); v != "" || err != nil {
		t.Errorf("got %q, %v; want the zero value", v, err)
	}
	if got := log.fetches("t"); len(got) != 0 {
		t.Errorf("fetches %q, want none", got)
	}
}

// TestDerivedIsMadeOnceWhenSiblingsAskAtOnce: the items of a list resolve their fields at once,
// each asking for the same field's derivation; one makes it and the others wait for it.
func TestDerivedIsMadeOnceWhenSiblingsAskAtOnce(t *testing.T) {
	l := New(nil)
	var made atomic.Int64
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			v := l.Derived("a", func() string {
				made.Add(1)
				for range 100 {
					runtime.Gosched() // let the siblings ask meanwhile
				}
				return "columns of a"
			})
			if v != "columns of a" {
				t.Errorf("got %q", v)
			}
		})
	}
	wg.Wait()
	if made.Load() != 1 {
		t.Errorf("made %d times, want once", made.Load())
	}
}
