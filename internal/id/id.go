// Package id makes the identifiers of every stored object: random, unguessable, never sequential.
package id

import (
	"crypto/rand"
	"time"
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Length of an identifier: 20 base62 characters carry about 119 bits.
const Length = 20

// New returns a fresh identifier.
func New() string { return Random(Length) }

// timeChars is how many characters of an ordered identifier hold its time in milliseconds: 62^8
// milliseconds last about 6,900 years.
const timeChars = 8

// Ordered returns a fresh identifier that sorts (byte by byte) after those made in earlier
// milliseconds: the time, then random characters (12, about 71 bits). For rows written at a high
// rate, whose index of ids then grows at its end instead of taking each insert at a random page.
func Ordered() string {
	var b [Length]byte
	ms := uint64(time.Now().UnixMilli())
	for i := timeChars - 1; i >= 0; i-- {
		b[i] = alphabet[ms%62]
		ms /= 62
	}
	copy(b[timeChars:], Random(Length-timeChars))
	return string(b[:])
}

// Random returns n random base62 characters from the operating system's secure source, read
// in one call: bytes below 248 (4 × 62) map to a character each, the rest are dropped, so every
// character is equally likely.
func Random(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, n+n/4+4) // about 3 % of the bytes are dropped
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			panic("id: the system's random source failed: " + err.Error())
		}
		for _, b := range buf {
			if b < 248 && len(out) < n {
				out = append(out, alphabet[b%62])
			}
		}
	}
	return string(out)
}
