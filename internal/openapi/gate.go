package openapi

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// ErrBusy is returned (wrapped) when a processing waited for room in its gate until its time was
// up: the document is not at fault, and processing it later may succeed.
var ErrBusy = errors.New("openapi: no room to process the document in time")

// Gate bounds the bytes of documents that the processings sharing it hold at once: parsing and
// validating a document takes memory in proportion to its bytes, so however many workers process
// documents, together they hold at most the gate's budget. A processing takes the bytes of each
// file it fetches before parsing it, and gives all back when it ends.
//
// Taking bytes while holding some could deadlock two processings that each wait for what the
// other holds. Each processing declares the most it may hold (its Limits.MaxBytes) and a take is
// granted only when the processings could still all end, one after another, each taking the rest
// of what it declared (the banker's rule): so some processing can always go on.
type Gate struct {
	budget int64

	mu    sync.Mutex
	held  int64
	holds []*holding
	freed chan struct{} // closed, and replaced, when bytes are given back
}

// NewGate returns a gate that lets its processings hold budget bytes together.
func NewGate(budget int64) *Gate {
	return &Gate{budget: budget, freed: make(chan struct{})}
}

// holding is what one processing holds in a gate.
type holding struct {
	g     *Gate // nil: no gate, takes are granted at once
	claim int64 // the most it may hold
	held  int64
}

// holding registers a processing that may hold up to claim bytes. On a nil gate it returns a
// holding whose takes are granted at once.
func (g *Gate) holding(claim int64) *holding {
	h := &holding{g: g, claim: claim}
	if g != nil {
		g.mu.Lock()
		g.holds = append(g.holds, h)
		g.mu.Unlock()
	}
	return h
}

// take waits until n more bytes may be held, then holds them. Returns an *Error (FETCH_ERROR)
// when n is more than the processing declared or than the budget, and ErrBusy when ctx ends first.
func (h *holding) take(ctx context.Context, n int64) error {
	g := h.g
	if g == nil {
		return nil
	}
	if h.held+n > min(h.claim, g.budget) {
		return failf(FetchError, "the document and its files are more than %d bytes", min(h.claim, g.budget))
	}
	for {
		g.mu.Lock()
		if g.grant(h, n) {
			g.mu.Unlock()
			return nil
		}
		freed := g.freed
		g.mu.Unlock()
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w: %v", ErrBusy, ctx.Err())
		case <-freed:
		}
	}
}

// grant holds n more bytes for h if that leaves the holdings able to end; g.mu is held.
func (g *Gate) grant(h *holding, n int64) bool {
	if g.held+n > g.budget {
		return false
	}
	h.held, g.held = h.held+n, g.held+n
	if !g.safe() {
		h.held, g.held = h.held-n, g.held-n
		return false
	}
	return true
}

// safe reports whether, with what the gate has left, every holding can end: taken in order of
// what they may still ask for, each must fit in what is left plus what those before it gave back.
func (g *Gate) safe() bool {
	free := g.budget - g.held
	byNeed := slices.Clone(g.holds)
	slices.SortFunc(byNeed, func(a, b *holding) int { return cmp.Compare(a.need(), b.need()) })
	for _, h := range byNeed {
		if h.need() > free {
			return false
		}
		free += h.held
	}
	return true
}

// need is what the holding may still take.
func (h *holding) need() int64 { return min(h.claim, h.g.budget) - h.held }

// release gives back all the holding holds and leaves the gate.
func (h *holding) release() {
	g := h.g
	if g == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.held -= h.held
	h.held = 0
	g.holds = slices.DeleteFunc(g.holds, func(x *holding) bool { return x == h })
	close(g.freed)
	g.freed = make(chan struct{})
}
