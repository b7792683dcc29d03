// Package orderkey makes sibling order keys (the position column of collections and spaces, the
// order of pages in a revision): fractional-index keys over the digits and lower-case letters,
// compared byte by byte. Strings of those characters sort the same under SQLite's BINARY and
// PostgreSQL's C and ICU collations, so SQL and Go agree on the order. A key never
// ends with the lowest digit "0", so there is always room for another key between two different
// keys, and moving one item writes one row. The empty key (the column's default) sorts before
// every other key.
//
// Appends and prepends grow keys logarithmically, as in David Greenspan's fractional indexing: a
// key is read as an integer followed by a fraction, and the integer's first character (its head)
// says how many digits follow it. Heads "i" to "z" start integers of 1 to 18 digits counting up
// from the first key "i1", heads "h" down to "0" integers of 1 to 18 digits below it. Appending
// adds one to the integer of the last key and drops its fraction (the next head's smallest
// integer when the digits run out); prepending subtracts one from the first; integers ending in
// "0" are skipped. A million appends make keys of 5 characters. Only inserts between two
// neighbours take the midpoint, which grows keys as any fractional index must.
//
// Every key of the earlier scheme (any key of this alphabet not ending in "0"; its appends went
// "i", "r", "v", …, a character longer every 5) is a key of this one, read with its integer's
// missing digits as zeros, so stored keys need no migration. The first append after an old key
// (or prepend before one) adds at most 19 characters to it, and later ones grow logarithmically
// from there; after an old key of over 109 characters that may renumber the siblings once.
package orderkey

import "strings"

const keyDigits = "0123456789abcdefghijklmnopqrstuvwxyz"

// maxKeyLen is the longest key the position column holds.
const maxKeyLen = 128

// zeroHead is the index in keyDigits of the head of the one-digit integers counting up ("i");
// first is the key of the only item of a new list.
const (
	zeroHead = 18
	first    = "i1"
)

// Between returns a key strictly between lo and hi: lo "" means no lower bound, hi "" no upper
// bound. ok is false when there is no such key of at most maxKeyLen characters (lo >= hi, a key
// that is not of this alphabet, or keys grown too long), and the caller should renumber.
func Between(lo, hi string) (key string, ok bool) {
	if !Valid(lo) || !Valid(hi) || (hi != "" && lo >= hi) {
		return "", false
	}
	switch {
	case hi == "":
		key = after(lo)
	case lo == "":
		key = before(hi)
	default:
		key = midpoint(lo, hi)
	}
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

// after returns a key above lo: first for "", lo's integer plus one, or the smallest integer of
// the next head when lo's digits are all "z".
func after(lo string) string {
	if lo == "" {
		return first
	}
	head, digits := integer(lo)
	if step(digits, 1) {
		return string(head) + string(digits)
	}
	if head != keyDigits[len(keyDigits)-1] {
		next := keyDigits[strings.IndexByte(keyDigits, head)+1]
		return string(next) + strings.Repeat("0", width(next)-1) + "1"
	}
	// lo starts with more "z" than the last head has digits (an old key): every key above it
	// starts with that run, so count on after it.
	run := len(lo) - len(strings.TrimLeft(lo, "z"))
	return lo[:run] + after(lo[run:])
}

// before returns a key below hi (not "") and above "": hi's integer minus one, or the largest
// integer of the previous head when there is none.
func before(hi string) string {
	head, digits := integer(hi)
	if step(digits, -1) {
		return string(head) + string(digits)
	}
	if head != keyDigits[0] {
		prev := keyDigits[strings.IndexByte(keyDigits, head)-1]
		return string(prev) + strings.Repeat("z", width(prev))
	}
	// hi starts with more "0" than the first head has digits (an old key): count down after
	// that run (hi does not end in "0").
	run := len(hi) - len(strings.TrimLeft(hi, "0"))
	return hi[:run] + before(hi[run:])
}

// integer returns the head of k (not "") and a copy of the digits of its integer, the missing
// ones of a short key taken as "0" (the key reads the same: a shorter key sorts first).
func integer(k string) (head byte, digits []byte) {
	head = k[0]
	digits = []byte(strings.Repeat("0", width(head)))
	copy(digits, k[1:])
	return head, digits
}

// width is the number of digits of the integers under head.
func width(head byte) int {
	i := strings.IndexByte(keyDigits, head)
	if i >= zeroHead {
		return i - zeroHead + 1
	}
	return zeroHead - i
}

// step adds delta (1 or -1) to the base-36 number digits in place, and again while it ends in
// "0" (a key may not). It reports false when the result would not fit in the same digits.
func step(digits []byte, delta int) bool {
	for {
		i := len(digits) - 1
		for ; i >= 0; i-- {
			d := strings.IndexByte(keyDigits, digits[i]) + delta
			if d >= 0 && d < len(keyDigits) {
				digits[i] = keyDigits[d]
				break
			}
			digits[i] = keyDigits[(d+len(keyDigits))%len(keyDigits)]
		}
		if i < 0 {
			return false
		}
		if digits[len(digits)-1] != '0' {
			return true
		}
	}
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

// Compare orders two items of a list, a with key keyA and id idA, b likewise: by key, then by id
// (the order of siblings whose keys are equal, or empty).
func Compare(keyA, idA, keyB, idB string) int {
	if c := strings.Compare(keyA, keyB); c != 0 {
		return c
	}
	return strings.Compare(idA, idB)
}

// Spread returns n increasing keys for renumbering siblings: integers of the fewest digits that
// hold n+1 steps, spread evenly over them, so that there is room between any two and appends
// after the last (and prepends before the first) count on from there.
func Spread(n int) []string {
	width := 1
	for capacity := len(keyDigits); capacity <= n; capacity *= len(keyDigits) {
		width++
	}
	head := string(keyDigits[zeroHead+width-1])
	keys := make([]string, n)
	for i := range keys {
		keys[i] = head + evenKey(i+1, n+1, width)
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
