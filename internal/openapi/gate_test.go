package openapi

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// heldNow reads what the gate's processings hold together.
func (g *Gate) heldNow() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.held
}

// waitHeld waits until the gate holds n bytes.
func waitHeld(t *testing.T, g *Gate, n int64) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); g.heldNow() != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the gate holds %d bytes, want %d", g.heldNow(), n)
		}
	}
}

func TestGate(t *testing.T) {
	ctx := context.Background()
	t.Run("OKBudgetNeverPassed", func(t *testing.T) {
		const budget, claim = 100, 60
		g := NewGate(budget)
		var wg sync.WaitGroup
		var mu sync.Mutex
		peak := int64(0)
		for range 8 { // 8 workers, each processing documents of random sizes in pieces
			wg.Go(func() {
				for range 20 {
					h := g.holding(claim)
					for left := rand.Int64N(claim) + 1; left > 0; {
						n := min(left, rand.Int64N(20)+1)
						if err := h.take(ctx, n); err != nil {
							t.Error(err)
						}
						left -= n
						mu.Lock()
						peak = max(peak, g.heldNow())
						mu.Unlock()
					}
					h.release()
				}
			})
		}
		wg.Wait()
		if peak > budget || g.heldNow() != 0 {
			t.Fatalf("peak %d of a budget of %d; %d still held", peak, budget, g.heldNow())
		}
	})
	t.Run("OKNoDeadlock", func(t *testing.T) {
		// a holds 6 of 10; were b given 4, each would wait for what the other holds.
		g := NewGate(10)
		a, b := g.holding(10), g.holding(10)
		if err := a.take(ctx, 6); err != nil {
			t.Fatal(err)
		}
		took := make(chan error)
		go func() { took <- b.take(ctx, 4) }()
		time.Sleep(20 * time.Millisecond)
		if err := a.take(ctx, 4); err != nil { // granted at once: b waits without holding
			t.Fatal(err)
		}
		select {
		case err := <-took:
			t.Fatalf("b was given bytes a needed: %v", err)
		default:
		}
		a.release()
		if err := <-took; err != nil {
			t.Fatal(err)
		}
		waitHeld(t, g, 4)
	})
	t.Run("ErrTooLarge", func(t *testing.T) {
		h := NewGate(10).holding(100)
		var e *Error
		if err := h.take(ctx, 11); !errors.As(err, &e) || e.Code != FetchError {
			t.Fatalf("want FETCH_ERROR, got %v", err)
		}
	})
	t.Run("ErrBusy", func(t *testing.T) {
		g := NewGate(10)
		g.holding(10).take(ctx, 8)
		short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		if err := g.holding(10).take(short, 5); !errors.Is(err, ErrBusy) {
			t.Fatalf("want ErrBusy, got %v", err)
		}
	})
	t.Run("OKNoGate", func(t *testing.T) {
		h := (*Gate)(nil).holding(10)
		if err := h.take(ctx, 1<<40); err != nil {
			t.Fatal(err)
		}
		h.release()
	})
}
