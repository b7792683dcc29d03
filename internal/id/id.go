// Package id makes the identifiers of every stored object: random, unguessable, never sequential.
package id

import "crypto/rand"

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Length of an identifier: 20 base62 characters carry about 119 bits.
const Length = 20

// New returns a fresh identifier.
func New() string { return Random(Length) }

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
