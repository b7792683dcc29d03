package id

import (
	"strings"
	"testing"
	"time"
)

// TestRandom checks lengths, the alphabet, and that every character comes up about equally often.
func TestRandom(t *testing.T) {
	counts := map[rune]int{}
	for _, n := range []int{1, 16, Length, 40, 1000} {
		s := Random(n)
		if len(s) != n {
			t.Fatalf("Random(%d) has %d characters", n, len(s))
		}
		for _, r := range s {
			if !strings.ContainsRune(alphabet, r) {
				t.Fatalf("Random(%d) = %q holds %q, not base62", n, s, r)
			}
		}
	}
	for range 200 {
		for _, r := range Random(620) {
			counts[r]++
		}
	}
	// 124,000 characters: 2,000 expected of each; 1,800–2,200 is more than 4 standard deviations.
	for _, r := range alphabet {
		if c := counts[r]; c < 1800 || c > 2200 {
			t.Errorf("%q came up %d times in 124,000, want about 2,000", r, c)
		}
	}
	if New() == New() {
		t.Error("two identifiers are equal")
	}
}

// TestOrdered checks that ordered identifiers are base62 of the usual length and sort by the
// millisecond they were made in.
func TestOrdered(t *testing.T) {
	first := Ordered()
	time.Sleep(2 * time.Millisecond)
	second := Ordered()
	if len(first) != Length || len(second) != Length {
		t.Fatalf("Ordered() = %q, %q: want %d characters", first, second, Length)
	}
	if strings.Trim(first+second, alphabet) != "" {
		t.Fatalf("Ordered() = %q, %q: not base62", first, second)
	}
	if first >= second {
		t.Errorf("Ordered() made %q after %q: want it to sort after", second, first)
	}
	if Ordered()[timeChars:] == Ordered()[timeChars:] {
		t.Error("two ordered identifiers share their random part")
	}
}
