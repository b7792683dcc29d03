// Package orderkey makes sibling order keys (the position column of collections and spaces, the
// order of pages in a revision): fractional-index keys over the digits and lower-case letters,
// compared byte by byte. A key never ends with the lowest digit "0", so there is always room for
// another key between two different keys, and moving one item writes one row. The empty key (the
// column's default) sorts before every other key.
package orderkey

import "strings"

const keyDigits = "0123456789abcdefghijklmnopqrstuvwxyz"

// maxKeyLen is the longest key the position column holds.
const maxKeyLen = 128

// Between returns a key strictly between lo and hi: lo "" means no lower bound, hi "" no upper
// bound. ok is false when there is no such key of at most maxKeyLen characters (lo >= hi, a key
// that is not of this alphabet, or keys grown too long), and the caller should renumber.
func Between(lo, hi string) (key string, ok bool) {
	if !Valid(lo) || !Valid(hi) || (hi != "" && lo >= hi) {
		return "", false
	}
	key = midpoint(lo, hi)
	return key, len(key) <= maxKeyLen
}

// Valid reports whether k is a key of this alphabet that leaves room after it.
func Valid(k string) bool {
	for i := 0; i < len(k); i++ {
		if strings.IndexByte(keyDigits, k[i]) < 0 {
			return false
		}
	}
	return !strings.HasSuffix(k, "0")
}

// midpoint returns a key between lo and hi (lo < hi, or hi "" for no bound), neither ending in "0".
func midpoint(lo, hi string) string {
	if hi != "" {
		// Skip the common prefix (lo padded with "0").
		n := 0
		for n < len(hi) && digitAt(lo, n) == hi[n] {
			n++
		}
		if n > 0 {
			return hi[:n] + midpoint(suffix(lo, n), hi[n:])
		}
	}
	a := 0
	if lo != "" {
		a = strings.IndexByte(keyDigits, lo[0])
	}
	b := len(keyDigits)
	if hi != "" {
		b = strings.IndexByte(keyDigits, hi[0])
	}
	if b-a > 1 {
		return string(keyDigits[(a+b+1)/2])
	}
	// Consecutive first digits: hi's first digit alone is between when hi goes on; otherwise keep
	// lo's first digit and find room after lo's rest.
	if len(hi) > 1 {
		return hi[:1]
	}
	return string(keyDigits[a]) + midpoint(suffix(lo, 1), "")
}

func digitAt(k string, i int) byte {
	if i < len(k) {
		return k[i]
	}
	return '0'
}

func suffix(k string, n int) string {
	if n >= len(k) {
		return ""
	}
	return k[n:]
}

// Spread returns n increasing keys spread evenly, for renumbering siblings.
func Spread(n int) []string {
	width := 1
	for capacity := len(keyDigits) - 1; capacity < n; capacity *= len(keyDigits) {
		width++
	}
	keys := make([]string, n)
	prev := ""
	for i := range keys {
		// The i-th of n points of the key space, then trimmed of trailing zeros and made larger
		// than the previous key if trimming met it.
		k := evenKey(i+1, n+1, width)
		if k <= prev {
			k, _ = Between(prev, "")
		}
		keys[i], prev = k, k
	}
	return keys
}

// evenKey is the key of fraction num/den written with width digits, without trailing zeros.
func evenKey(num, den, width int) string {
	var b strings.Builder
	for range width {
		num *= len(keyDigits)
		b.WriteByte(keyDigits[num/den])
		num %= den
	}
	return strings.TrimRight(b.String(), "0")
}
