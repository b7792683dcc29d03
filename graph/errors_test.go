package graph

import (
	"context"
	"testing"
	"time"
)

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
