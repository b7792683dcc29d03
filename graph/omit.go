package graph

import (
	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/internal/check"
)

// nullable is an optional, nullable GraphQL input field as the domain packages take it.
func nullable[T any](in graphql.Omittable[*T]) check.Nullable[T] {
	return check.Nullable[T]{Set: in.IsSet(), Value: in.Value()}
}

// setOrClear applies an optional, nullable input field to an update (check.SetOrClear).
func setOrClear[T any, U any](in graphql.Omittable[*T], valid func(T) error, set func(T) U, clear func() U) error {
	return check.SetOrClear(nullable(in), valid, set, clear)
}

// trimmedOrNull trims a nullable update value; a blank text becomes null (check.TrimmedOrNull).
func trimmedOrNull(in graphql.Omittable[*string]) graphql.Omittable[*string] {
	if t := check.TrimmedOrNull(nullable(in)); t.Set {
		return graphql.OmittableOf(t.Value)
	}
	return in
}
