package sizedlru

import (
	"fmt"
	"sync"
	"testing"
)

// TestBudget keeps values within the budget of their sizes, evicting the least recently used,
// and refuses a value over a quarter of the budget.
func TestBudget(t *testing.T) {
	c := New[string, int](100)
	c.Add("a", 1, 10)
	if v, ok := c.Get("a"); !ok || v != 1 {
		t.Fatal("a value just added is not kept")
	}
	for i := range 30 {
		c.Add(fmt.Sprint(i), i, 10)
		if c.Bytes() > 100 {
			t.Fatalf("%d bytes kept, budget 100", c.Bytes())
		}
	}
	if _, ok := c.Get("a"); ok {
		t.Fatal("the least recently used value was not evicted")
	}
	if v, ok := c.Get("29"); !ok || v != 29 {
		t.Fatal("the most recent value was evicted")
	}
	c.Add("big", 0, 26)
	if _, ok := c.Get("big"); ok {
		t.Fatal("a value over a quarter of the budget was kept")
	}
}

// TestConcurrent adds and reads from several goroutines (go test -race).
func TestConcurrent(t *testing.T) {
	c := New[int, int](1000)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				c.Add(g*1000+i, i, 7)
				c.Get(i)
			}
		}()
	}
	wg.Wait()
	if c.Bytes() > 1000 {
		t.Fatalf("%d bytes kept", c.Bytes())
	}
}
