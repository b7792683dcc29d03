// Package loader makes the lookups of a list's items in one statement per level, without waiting.
// The items read together — one page of a list, or the pages of every parent of a nested list,
// read in one windowed statement — form a level (Level). The first lookup asked for an item of a
// level (its author, its page of children, a count) is made for every item of the level at once,
// in one statement, and the other items find its answer: none waits for a timer or for its
// siblings to ask. A lookup for an item of no level is made for that item alone.
//
// Lookups batch by level, not in a time window (graph-gophers/dataloader): a window makes each
// nested level wait for its timer and, under load, splits a level into several statements, so one
// query sends a different number from run to run; gqlgen's batch resolvers group per list, and a
// connection is a list per parent (decision 127).
//
// Loaders live one request long (NewContext), so lookups run with that request's viewer and
// privacy decisions. Answers are kept with their level, so a list read again after a write reads
// afresh; only organizations are kept for the whole request.
package loader

import (
	"context"
	"errors"
	"sync"

	"github.com/binderyhq/bindery/ent"
)

// batchCapacity keeps one statement's parameters well below SQLite's and PostgreSQL's limits.
const batchCapacity = 500

// Loaders are the levels and answers of one request.
type Loaders struct {
	client *ent.Client

	mu     sync.Mutex
	levels map[any]*level // item → the level it was read in
	// request keeps the answers of batches kept for the whole request (organizations).
	request    level
	ownedTeams memo[ownedTeams]
	byField    map[any]*memo[string] // what Derived made, by field of the operation
}

// New returns fresh loaders over the client.
func New(client *ent.Client) *Loaders {
	return &Loaders{client: client, levels: map[any]*level{}, byField: map[any]*memo[string]{}}
}

type ctxKey struct{}

// NewContext returns ctx carrying fresh loaders over the client.
func NewContext(ctx context.Context, client *ent.Client) context.Context {
	return context.WithValue(ctx, ctxKey{}, New(client))
}

// For returns the loaders of the request. Outside a request (a background job, a test calling a
// resolver directly) it returns fresh loaders over client.
func For(ctx context.Context, client *ent.Client) *Loaders {
	_, l := withLoaders(ctx, client)
	return l
}

// withLoaders returns ctx carrying the request's loaders (fresh ones outside a request), so a batch
// records the levels it reads where the lookups of their items find them.
func withLoaders(ctx context.Context, client *ent.Client) (context.Context, *Loaders) {
	if l, ok := ctx.Value(ctxKey{}).(*Loaders); ok {
		return ctx, l
	}
	l := New(client)
	return context.WithValue(ctx, ctxKey{}, l), l
}

// Batch is a lookup made for many keys in one statement: fetch returns the values found, by key
// (a key without a value gets V's zero value). A fetch records the items it reads as a level
// (Level) when their own lookups should batch; it never waits for another lookup.
type Batch[K comparable, V any] struct {
	name  string
	fetch func(ctx context.Context, client *ent.Client, keys []K) (map[K]V, error)
	// perRequest keeps the answers for the whole request rather than the level: for lookups by
	// id of rows a request does not change (organizations), asked again from other levels.
	perRequest bool
}

// NewBatch returns a batch named name (unique among batches) that fetches values by key.
func NewBatch[K comparable, V any](name string, fetch func(context.Context, *ent.Client, []K) (map[K]V, error)) *Batch[K, V] {
	return &Batch[K, V]{name: name, fetch: fetch}
}

// Get returns the value of key(item). The first time an item of item's level asks, the batch
// runs for the keys of every item of the level (zero keys left out), in statements of at most
// batchCapacity keys; an item whose key is being loaded by a sibling waits for that statement.
// with names other keys of the items that the same batch looks up (a change request's creator
// and merger), loaded in the same statement. An item whose key is zero names no value: it is
// answered V's zero value, and no statement asks for the zero key.
func Get[T, K comparable, V any](ctx context.Context, client *ent.Client, b *Batch[K, V], item T, key func(T) K, with ...func(T) K) (V, error) {
	var zeroKey K
	if key(item) == zeroKey {
		var none V
		return none, nil
	}
	ctx, l := withLoaders(ctx, client)
	lv := l.levelOf(item)
	store := lv
	if b.perRequest {
		store = &l.request
	}
	return answersOf(store, b).get(ctx, client, b, key(item), func() []K { return keysOf(lv, item, append([]func(T) K{key}, with...)) })
}

// Level records items as one level: a lookup for one of them is made for all. An item already in
// a level stays there, so the items of every parent's page, recorded as one level by the batch
// that read them, stay one level when each parent lists its own. Outside a request it does
// nothing.
func Level[T comparable](ctx context.Context, items []T) {
	l, ok := ctx.Value(ctxKey{}).(*Loaders)
	if !ok || len(items) < 2 {
		return
	}
	lv := &level{items: items}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, it := range items {
		if _, ok := l.levels[it]; !ok {
			l.levels[it] = lv
		}
	}
}

// level is items read together, with the answers of the batches run for them.
type level struct {
	items any // []T

	mu      sync.Mutex
	answers map[string]any // batch name → *answers[K, V]
}

func (l *Loaders) levelOf(item any) *level {
	l.mu.Lock()
	defer l.mu.Unlock()
	if lv := l.levels[item]; lv != nil {
		return lv
	}
	return &level{}
}

// keysOf returns the distinct non-zero keys of the items of lv (item's own when lv has none).
func keysOf[T, K comparable](lv *level, item T, keyFuncs []func(T) K) []K {
	items, ok := lv.items.([]T)
	if !ok {
		items = []T{item}
	}
	var zero K
	seen := make(map[K]bool, len(items))
	keys := make([]K, 0, len(items))
	for _, key := range keyFuncs {
		for _, it := range items {
			if k := key(it); k != zero && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// answersOf returns the answers of b kept in lv, made on first use.
func answersOf[K comparable, V any](lv *level, b *Batch[K, V]) *answers[K, V] {
	lv.mu.Lock()
	defer lv.mu.Unlock()
	if a, ok := lv.answers[b.name].(*answers[K, V]); ok {
		return a
	}
	if lv.answers == nil {
		lv.answers = map[string]any{}
	}
	a := &answers[K, V]{m: map[K]*answer[V]{}}
	lv.answers[b.name] = a
	return a
}

// answers are the values a batch loaded for a level, by key.
type answers[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]*answer[V]
}

type answer[V any] struct {
	done chan struct{} // closed once v and err are set
	v    V
	err  error
}

// errInterrupted answers the keys of a batch that panicked, so their items do not wait forever.
var errInterrupted = errors.New("loader: the batch loading this value failed")

// get returns the answer for key, claiming and loading it with the keys of the level that no
// batch has claimed yet when key itself was not claimed.
func (a *answers[K, V]) get(ctx context.Context, client *ent.Client, b *Batch[K, V], key K, level func() []K) (V, error) {
	a.mu.Lock()
	ans, ok := a.m[key]
	var keys []K
	var claimed []*answer[V]
	if !ok {
		for _, k := range append([]K{key}, level()...) {
			if _, ok := a.m[k]; !ok {
				a.m[k] = &answer[V]{done: make(chan struct{})}
				keys, claimed = append(keys, k), append(claimed, a.m[k])
			}
		}
		ans = a.m[key]
	}
	a.mu.Unlock()
	if len(keys) > 0 {
		load(ctx, client, b, keys, claimed)
	}
	<-ans.done
	return ans.v, ans.err
}

// load runs the batch for keys and answers each claimed answer, also when the batch panics.
func load[K comparable, V any](ctx context.Context, client *ent.Client, b *Batch[K, V], keys []K, claimed []*answer[V]) {
	answered := 0
	defer func() {
		for _, ans := range claimed[answered:] {
			ans.err = errInterrupted
			close(ans.done)
		}
	}()
	for answered < len(keys) {
		end := min(answered+batchCapacity, len(keys))
		found, err := b.fetch(ctx, client, keys[answered:end])
		for i := answered; i < end; i++ {
			claimed[i].v, claimed[i].err = found[keys[i]], err
			close(claimed[i].done)
		}
		answered = end
	}
}

// Derived returns what derive makes of a field of the request's GraphQL operation, made once per
// field (a comparable key naming it and its selection): every object of a list resolves its
// fields with the same selection — the variables, @skip and @include settled. Siblings asking
// at once wait for the one making it.
func (l *Loaders) Derived(field any, derive func() string) string {
	l.mu.Lock()
	m := l.byField[field]
	if m == nil {
		m = &memo[string]{}
		l.byField[field] = m
	}
	l.mu.Unlock()
	v, _ := m.get(func() (string, error) { return derive(), nil })
	return v
}

// memo computes a value at most once per request, whoever asks: for lookups with a single key
// (the viewer's own facts) and for what Derived makes of a field.
type memo[V any] struct {
	once sync.Once
	v    V
	err  error
}

func (m *memo[V]) get(load func() (V, error)) (V, error) {
	m.once.Do(func() { m.v, m.err = load() })
	return m.v, m.err
}
