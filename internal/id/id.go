// Package id makes the identifiers of every stored object: random, unguessable, never sequential.
package id

import (
	"crypto/rand"
	"math/big"
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Length of an identifier: 20 base62 characters carry about 119 bits.
const Length = 20

// New returns a fresh identifier.
func New() string { return Random(Length) }

// Random returns n random base62 characters from the operating system's secure source.
func Random(n int) string {
	b := make([]byte, n)
	max := big.NewInt(int64(len(alphabet)))
	for i := range b {
		k, err := rand.Int(rand.Reader, max)
		if err != nil {
			panic("id: the system's random source failed: " + err.Error())
		}
		b[i] = alphabet[k.Int64()]
	}
	return string(b)
}
