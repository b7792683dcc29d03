package orderkey

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestKeyBetween(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, c := range [][2]string{{"", ""}, {"", "1"}, {"", "01"}, {"i", ""}, {"z", ""}, {"zz", ""},
			{"a", "b"}, {"a", "a1"}, {"a1", "a2"}, {"az", "b"}, {"0001", "0002"}, {"1", "11"},
			{"i1", ""}, {"", "i1"}, {"iz", ""}, {"", "h1"}, {"i1", "i2"}, {"hz", "i1"}} {
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
	t.Run("CountsUpAndDown", func(t *testing.T) {
		for _, c := range [][3]string{{"", "", "i1"}, {"i1", "", "i2"}, {"i9", "", "ia"}, {"iz", "", "j01"},
			{"i5i", "", "i6"}, {"jzz", "", "k001"}, {"", "i1", "hz"}, {"", "h1", "gzz"}, {"", "jb1", "jaz"},
			{"hz", "", "i1"}} {
			if k, _ := Between(c[0], c[1]); k != c[2] {
				t.Errorf("Between(%q, %q) = %q, want %q", c[0], c[1], k, c[2])
			}
		}
	})
}

// TestRandomEditsKeepOrder inserts keys at random places (mostly at either end, as lists grow)
// into lists that start empty, spread, or of keys of the earlier scheme, and checks that the keys
// in the intended order are increasing.
func TestRandomEditsKeepOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, start := range []struct {
		name string
		keys []string
	}{{"empty", nil}, {"spread", Spread(50)}, {"old", oldKeys(rng, 50)}} {
		t.Run(start.name, func(t *testing.T) {
			keys := start.keys
			for range 5000 {
				i := len(keys)
				switch rng.IntN(4) {
				case 0:
					i = 0
				case 1:
					i = rng.IntN(len(keys) + 1)
				}
				keys = insertAt(t, keys, i)
			}
			checkIncreasing(t, keys)
		})
	}
}

// oldKeys returns n sorted, different keys of the earlier scheme: random digits and letters, some
// long runs of "z" or "0" (where its appends and prepends went), none ending in "0".
func oldKeys(rng *rand.Rand, n int) []string {
	var keys []string
	for len(keys) < n {
		var b strings.Builder
		b.WriteString(strings.Repeat([]string{"", "z", "0"}[rng.IntN(3)], rng.IntN(40)))
		for range rng.IntN(5) {
			b.WriteByte(keyDigits[rng.IntN(len(keyDigits))])
		}
		b.WriteByte(keyDigits[1+rng.IntN(len(keyDigits)-1)])
		keys = append(keys, b.String())
		slices.Sort(keys)
		keys = slices.Compact(keys)
	}
	return keys
}

// insertAt puts a new key at index i of keys, between its neighbours there.
func insertAt(t *testing.T, keys []string, i int) []string {
	t.Helper()
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
	return slices.Insert(keys, i, k)
}

func checkIncreasing(t *testing.T, keys []string) {
	t.Helper()
	for i, k := range keys {
		if !Valid(k) || k == "" || (i > 0 && keys[i-1] >= k) {
			t.Fatalf("key %d %q (after %q) is not a valid key above the previous one", i, k, keys[max(i-1, 0)])
		}
	}
}

// TestAppendsStayShort: a million appends, or prepends, make keys of at most 5 characters (the
// earlier scheme passed 128 and renumbered about every 600 appends).
func TestAppendsStayShort(t *testing.T) {
	for _, at := range []string{"end", "start"} {
		keys := make([]string, 0, 1_000_000)
		k := ""
		for range cap(keys) {
			var ok bool
			if at == "end" {
				k, ok = Between(k, "")
			} else {
				k, ok = Between("", k)
			}
			if !ok || len(k) > 5 {
				t.Fatalf("%s: key %d is %q", at, len(keys), k)
			}
			keys = append(keys, k)
		}
		if at == "start" {
			slices.Reverse(keys)
		}
		checkIncreasing(t, keys)
	}
}

// TestAppendsAfterOldKeys: the first append after a key of the earlier scheme (or prepend before
// one) adds at most 19 characters to it, and the next 10,000 add at most 3 more.
func TestAppendsAfterOldKeys(t *testing.T) {
	olds := []string{"i", "r", "zr", "y", strings.Repeat("z", 62) + "v", strings.Repeat("z", 109), "a0099999",
		"1", "01", strings.Repeat("0", 40) + "1"}
	for _, old := range olds {
		for _, end := range []func(string) (string, bool){
			func(k string) (string, bool) { return Between(k, "") },
			func(k string) (string, bool) { return Between("", k) },
		} {
			k, _ := end(old)
			limit := len(k) + 3
			if len(k) > len(old)+19 {
				t.Fatalf("first after %q: %q", old, k)
			}
			for n := range 10_000 {
				next, ok := end(k)
				if !ok || next == k || !Valid(next) || len(next) > limit {
					t.Fatalf("%d after %q: %q next to %q", n, old, next, k)
				}
				k = next
			}
		}
	}
}

func TestSpreadKeys(t *testing.T) {
	for _, n := range []int{0, 1, 2, 35, 36, 37, 1300, 50000} {
		keys := Spread(n)
		if len(keys) != n {
			t.Fatalf("Spread(%d) has %d keys", n, len(keys))
		}
		checkIncreasing(t, keys)
		if n > 0 && len(keys[n-1]) > 5 {
			t.Fatalf("Spread(%d): last key %q is long", n, keys[n-1])
		}
	}
	if got := Spread(35); got[0] != "i1" || got[34] != "iz" {
		t.Fatalf("Spread(35) = %q … %q, want the first 35 appends", got[0], got[34])
	}
}

// FuzzBetween: for any two valid keys lo < hi (of this scheme or the earlier one, "" for no
// bound), Between finds a valid key strictly between them, surely when they are 19 characters
// shorter than the column; for any other input it finds none.
func FuzzBetween(f *testing.F) {
	for _, c := range [][2]string{{"", ""}, {"i1", ""}, {"", "i1"}, {"i1", "i2"}, {"iz", "j01"}, {"i", "r"},
		{"zzzzzzzzzzzzzzzzzzzzr", ""}, {"", "0000000000000000000001"}, {"a0099999", ""}, {"hz", "i"}, {"a0", "b"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, lo, hi string) {
		key, ok := Between(lo, hi)
		want := Valid(lo) && Valid(hi) && (hi == "" || lo < hi)
		if !want {
			if ok {
				t.Fatalf("Between(%q, %q) = %q for bounds that leave no key", lo, hi, key)
			}
			return
		}
		if !ok && max(len(lo), len(hi)) <= maxKeyLen-19 {
			t.Fatalf("Between(%q, %q): no key", lo, hi)
		}
		if ok && (key <= lo || (hi != "" && key >= hi) || !Valid(key) || key == "") {
			t.Fatalf("Between(%q, %q) = %q", lo, hi, key)
		}
	})
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		keyA, idA, keyB, idB string
		want                 int
	}{
		{"i1", "z", "i2", "a", -1},
		{"i2", "a", "i1", "z", 1},
		{"i1", "a", "i1", "b", -1},
		{"", "z", "i1", "a", -1},
		{"i1", "a", "i1", "a", 0},
	} {
		if got := Compare(tc.keyA, tc.idA, tc.keyB, tc.idB); got != tc.want {
			t.Errorf("Compare(%q, %q, %q, %q) = %d, want %d (by key, then id)", tc.keyA, tc.idA, tc.keyB, tc.idB, got, tc.want)
		}
	}
}
