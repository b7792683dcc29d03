package adaptive

import (
	"crypto/sha256"

	lru "github.com/hashicorp/golang-lru/v2"
)

// Parsed schemas and compiled conditions are kept by the text they were made from: a site's
// schema or a condition changes only by being written anew, so a new revision of the setting is
// a new key and nothing needs invalidating, in this process or in another. A published page
// therefore compiles each condition once per revision of the setting, not once per request.
// Failures are kept too, so a stored condition that no longer compiles is not retried on every
// request. The bounds keep the worst case small: 64 schemas of at most 256 KiB, and 4,096
// conditions of at most 1,024 characters.
const (
	cachedSchemas    = 64
	cachedConditions = 4096
)

var (
	schemas    = newCache[schemaKey, parsedSchema](cachedSchemas)
	conditions = newCache[conditionKey, compiledCondition](cachedConditions)
)

// schemaKey is the SHA-256 of a schema's JSON text; the zero key stands for no schema.
type schemaKey [sha256.Size]byte

type parsedSchema struct {
	schema *Schema
	err    error
}

type conditionKey struct {
	schema    schemaKey
	condition string
	kind      resultKind
}

type compiledCondition struct {
	condition *Condition
	err       error
}

func newCache[K comparable, V any](size int) *lru.Cache[K, V] {
	c, err := lru.New[K, V](size)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return c
}

// keyOf is the key of conditions compiled against s (nil: no schema).
func keyOf(s *Schema) schemaKey {
	if s == nil {
		return schemaKey{}
	}
	return s.key
}
