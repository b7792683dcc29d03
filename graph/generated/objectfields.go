package generated

import (
	"io"
	"sync"

	"github.com/99designs/gqlgen/graphql"
)

// objectFields is what the generated marshaller of an object returns in place of its field set
// (internal/gqlgentune, decision 351). It writes the object as the field set's MarshalGQL does —
// each alias once, in the order collected, with the value resolved for it — without what that
// costs for every object of an answer: a copy of each field taken by address (one allocation
// per field) and a map of the aliases written. Each comes from its operation's objectArena,
// which also holds its field set (decision 363).
type objectFields struct {
	set    graphql.FieldSet         // its Values and Invalids, and its resolvers' dispatch; no fields
	fields []graphql.CollectedField // what set's values are of
}

// objectArena hands out the objectFields of an operation's answer, and their values' slots, from
// blocks that grow to objectsPerBlock objects and valuesPerBlock slots: one allocation per block
// where each object made three (its field set, the set's values, the objectFields boxed into the
// answer), for the ~1,000 objects of a nested list. The objects of an answer all live until it is
// written, so keeping them together holds nothing longer. An object's resolvers may run in
// goroutines (FieldSet.Dispatch), which make objects too: next takes a lock.
type objectArena struct {
	mu      sync.Mutex
	objects blocks[objectFields]
	values  []graphql.Marshaler
	// The field contexts of the answer's fields (one per field resolved through one), which also
	// live until the answer is written.
	contexts blocks[graphql.FieldContext]
}

const (
	objectsPerBlock = 64
	valuesPerBlock  = 256
)

// blocks hands out zeroed values of T from blocks that double from 4 (a point read makes two
// objects) up to objectsPerBlock.
type blocks[T any] struct {
	free  []T
	grown int // the size of the last block
}

func (b *blocks[T]) take() *T {
	if len(b.free) == 0 {
		b.grown = min(max(2*b.grown, 4), objectsPerBlock)
		b.free = make([]T, b.grown)
	}
	t := &b.free[0]
	b.free = b.free[1:]
	return t
}

// fieldContext returns a zeroed field context.
func (a *objectArena) fieldContext() *graphql.FieldContext {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.contexts.take()
}

// next returns a fresh object of fields, its set's Values one slot per field.
func (a *objectArena) next(fields []graphql.CollectedField) *objectFields {
	a.mu.Lock()
	defer a.mu.Unlock()
	o := a.objects.take()
	n := len(fields)
	if len(a.values) < n {
		a.values = make([]graphql.Marshaler, max(n, min(4*a.objects.grown, valuesPerBlock)))
	}
	o.fields, o.set.Values, a.values = fields, a.values[:n:n], a.values[n:]
	return o
}

var (
	openBrace  = []byte{'{'}
	closeBrace = []byte{'}'}
	comma      = []byte{','}
	colon      = []byte{':'}
	quote      = []byte{'"'}
)

func (o *objectFields) MarshalGQL(w io.Writer) {
	written := aliasesWritten{fields: o.fields}
	w.Write(openBrace)
	first := true
	for i := range o.fields {
		alias := o.fields[i].Alias
		if written.before(i, alias) {
			continue
		}
		if !first {
			w.Write(comma)
		}
		first = false
		writeName(w, alias)
		w.Write(colon)
		o.set.Values[i].MarshalGQL(w)
	}
	w.Write(closeBrace)
}

// manyFields is more fields than an object usually has: past it, aliasesWritten keeps a map.
const manyFields = 32

// aliasesWritten tells whether a field's alias was written before it. Collected fields have
// distinct aliases anyway, and an object has a few, so scanning the fields before is cheaper
// than a map; an object of many (operators may raise the alias and complexity limits) gets a
// map, so its cost stays linear.
type aliasesWritten struct {
	fields []graphql.CollectedField
	seen   map[string]bool
}

// before reports whether alias, field i's, was written before it, and records that it is now.
func (a *aliasesWritten) before(i int, alias string) bool {
	if len(a.fields) <= manyFields {
		for j := range i {
			if a.fields[j].Alias == alias {
				return true
			}
		}
		return false
	}
	if a.seen == nil {
		a.seen = make(map[string]bool, len(a.fields))
	}
	if a.seen[alias] {
		return true
	}
	a.seen[alias] = true
	return false
}

// writeName writes an alias as a JSON string. A GraphQL name is letters, digits and '_', which
// JSON writes as they are; anything else is written as gqlgen writes a string.
func writeName(w io.Writer, name string) {
	for i := range len(name) {
		if c := name[i]; !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			graphql.MarshalString(name).MarshalGQL(w)
			return
		}
	}
	w.Write(quote)
	io.WriteString(w, name)
	w.Write(quote)
}
