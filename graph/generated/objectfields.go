package generated

import (
	"io"

	"github.com/99designs/gqlgen/graphql"
)

// objectFields is what the generated marshaller of an object returns in place of its field set
// (internal/gqlgentune, decision 351). It writes the object as the field set's MarshalGQL does —
// each alias once, in the order collected, with the value resolved for it — without what that
// costs for every object of an answer: a copy of each field taken by address (one allocation
// per field) and a map of the aliases written.
type objectFields struct {
	set    *graphql.FieldSet
	fields []graphql.CollectedField // the fields set was made of
}

var (
	openBrace  = []byte{'{'}
	closeBrace = []byte{'}'}
	comma      = []byte{','}
	colon      = []byte{':'}
	quote      = []byte{'"'}
)

func (o objectFields) MarshalGQL(w io.Writer) {
	w.Write(openBrace)
	first := true
	for i := range o.fields {
		alias := o.fields[i].Alias
		if writtenBefore(o.fields[:i], alias) {
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

// writtenBefore reports whether one of fields has the alias. An object has a few fields, and
// collected fields have distinct aliases, so a scan is cheaper than a map.
func writtenBefore(fields []graphql.CollectedField, alias string) bool {
	for i := range fields {
		if fields[i].Alias == alias {
			return true
		}
	}
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
