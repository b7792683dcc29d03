package orderkey

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestKeyBetween(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, c := range [][2]string{{"", ""}, {"", "1"}, {"", "01"}, {"i", ""}, {"z", ""}, {"zz", ""},
			{"a", "b"}, {"a", "a1"}, {"a1", "a2"}, {"az", "b"}, {"0001", "0002"}, {"1", "11"}} {
			k, ok := Between(c[0], c[1])
			if !ok || k <= c[0] || (c[1] != "" && k >= c[1]) || !Valid(k) {
				t.Errorf("Between(%q, %q) = %q, %v", c[0], c[1], k, ok)
			}
		}
	})
	t.Run("ErrNoRoom", func(t *testing.T) {
		for _, c := range [][2]string{{"a", "a"}, {"b", "a"}, {"a0", ""}, {"A", ""}, {"", "-"}} {
			if k, ok := Between(c[0], c[1]); ok {
				t.Errorf("Between(%q, %q) = %q, want no key", c[0], c[1], k)
			}
		}
	})
	t.Run("RandomInsertsStayOrdered", func(t *testing.T) {
		keys := []string{}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 2000 {
			i := rng.IntN(len(keys) + 1)
			lo, hi := "", ""
			if i > 0 {
				lo = keys[i-1]
			}
			if i < len(keys) {
				hi = keys[i]
			}
			k, ok := Between(lo, hi)
			if !ok {
				t.Fatalf("no key between %q and %q", lo, hi)
			}
			keys = slices.Insert(keys, i, k)
		}
		if !slices.IsSorted(keys) || len(slices.Compact(slices.Clone(keys))) != len(keys) {
			t.Fatal("keys are not strictly increasing")
		}
	})
}

func TestSpreadKeys(t *testing.T) {
	for _, n := range []int{0, 1, 2, 35, 36, 37, 1300, 50000} {
		keys := Spread(n)
		if len(keys) != n || !slices.IsSorted(keys) || len(slices.Compact(slices.Clone(keys))) != n {
			t.Fatalf("Spread(%d) is not %d increasing keys", n, n)
		}
		for _, k := range keys {
			if !Valid(k) || k == "" {
				t.Fatalf("Spread(%d): invalid key %q", n, k)
			}
		}
	}
}
