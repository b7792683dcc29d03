package id

import (
	"strings"
	"testing"
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
