package graph

import (
	"context"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"

	"github.com/binderyhq/bindery/internal/apperr"
)

// interrupted is what SQLite answers for a statement whose context ended while it ran.
var interrupted = sqlite3.Error{Code: sqlite3.ErrInterrupt}

func TestAsAppErrorPastDeadline(t *testing.T) {
	ctx, cancel := context.WithDeadline(context.Background(), time.Now())
	defer cancel()
	<-ctx.Done()
	t.Run("TimedOut", func(t *testing.T) {
		if e := AsAppError(ctx, interrupted); e.Kind != apperr.TimedOut || e.Kind.Status() != 503 {
			t.Fatalf("got %v %q", e.Kind.Code(), e.Message)
		}
	})
	t.Run("NotFoundStays", func(t *testing.T) {
		if e := AsAppError(ctx, apperr.NotFoundf("no such page")); e.Kind != apperr.NotFound {
			t.Fatalf("got %v", e.Kind.Code())
		}
	})
	t.Run("InternalBeforeTheDeadline", func(t *testing.T) {
		if e := AsAppError(context.Background(), interrupted); e.Kind != apperr.Internal {
			t.Fatalf("got %v", e.Kind.Code())
		}
	})
}

func TestClientGone(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	past, cancel := context.WithDeadline(context.Background(), time.Now())
	defer cancel()
	<-past.Done()
	for _, c := range []struct {
		name string
		ctx  context.Context
		want bool
	}{{"Cancelled", cancelled, true}, {"PastDeadline", past, false}, {"Live", context.Background(), false}} {
		if got := ClientGone(c.ctx); got != c.want {
			t.Errorf("%s: ClientGone = %v, want %v", c.name, got, c.want)
		}
	}
}
