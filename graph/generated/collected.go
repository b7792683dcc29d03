package generated

import (
	"slices"
	"sync"
	"unsafe"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// collectedFields keeps, for one operation, the fields graphql.CollectFields collected of each
// selection set for each object type (internal/gqlgentune, decision 352). gqlgen keeps them too,
// but finds them again under a key it hashes from the names of the type's interfaces for every
// object of an answer (a hasher and two byte slices each); here the key is where the selection
// set and the generated list of the type's names are, which stay put for the operation.
type collectedFields struct {
	mu sync.RWMutex
	by map[collectedKey][]graphql.CollectedField
}

type collectedKey struct {
	selection     *ast.Selection
	selections    int
	satisfies     *string
	satisfiesSize int
}

// of returns graphql.CollectFields(oc, sel, satisfies), collecting them once per operation, with
// every field resolved at once (notDeferred).
func (c *collectedFields) of(oc *graphql.OperationContext, sel ast.SelectionSet, satisfies []string) []graphql.CollectedField {
	key := collectedKey{unsafe.SliceData(sel), len(sel), unsafe.SliceData(satisfies), len(satisfies)}
	c.mu.RLock()
	fields, ok := c.by[key]
	c.mu.RUnlock()
	if ok {
		return fields
	}
	fields = notDeferred(graphql.CollectFields(oc, sel, satisfies))
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[collectedKey][]graphql.CollectedField{}
	}
	c.by[key] = fields
	return fields
}

// notDeferred returns fields with none deferred: a copy when @defer asked for some (gqlgen's
// cache keeps the original). @defer is a hint a server may leave aside, and Bindery's transports
// answer one JSON body: gqlgen would resolve the deferred fields in goroutines that outlive the
// request, for payloads nobody sends, and its v0.17.95 races on a set of several (decision 355).
func notDeferred(fields []graphql.CollectedField) []graphql.CollectedField {
	if !slices.ContainsFunc(fields, graphql.CollectedField.IsDeferred) {
		return fields
	}
	fields = slices.Clone(fields)
	for i := range fields {
		fields[i].IsNonDeferrable = true
	}
	return fields
}
