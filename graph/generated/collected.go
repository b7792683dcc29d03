package generated

import (
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

// of returns graphql.CollectFields(oc, sel, satisfies), collecting them once per operation.
func (c *collectedFields) of(oc *graphql.OperationContext, sel ast.SelectionSet, satisfies []string) []graphql.CollectedField {
	key := collectedKey{unsafe.SliceData(sel), len(sel), unsafe.SliceData(satisfies), len(satisfies)}
	c.mu.RLock()
	fields, ok := c.by[key]
	c.mu.RUnlock()
	if ok {
		return fields
	}
	fields = graphql.CollectFields(oc, sel, satisfies)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.by == nil {
		c.by = map[collectedKey][]graphql.CollectedField{}
	}
	c.by[key] = fields
	return fields
}
