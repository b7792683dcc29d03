package generated

import (
	"io"

	"github.com/99designs/gqlgen/graphql"
)

// A plain field of an object — a string, ID, Int or Boolean read from a struct field — is
// answered by the field's address converted to one of these types (internal/gqlgentune,
// decision 353), which writes the value as gqlgen's built-in marshaller does when the answer is
// written. gqlgen's marshallers return a closure holding a copy of the value: an allocation
// for each field of each object. An address fits in an interface as it is.
type (
	directString string
	directInt    int
	directBool   bool
)

func (s *directString) MarshalGQL(w io.Writer) { graphql.MarshalString(string(*s)).MarshalGQL(w) }
func (i *directInt) MarshalGQL(w io.Writer)    { graphql.MarshalInt(int(*i)).MarshalGQL(w) }
func (b *directBool) MarshalGQL(w io.Writer)   { graphql.MarshalBoolean(bool(*b)).MarshalGQL(w) }
