package graph

import "github.com/99designs/gqlgen/graphql"

// setOrClear applies an optional, nullable input field to an update: absent leaves the field as it
// is, null clears it, a value is checked (when check is set) and stored.
func setOrClear[T any, U any](in graphql.Omittable[*T], check func(T) error, set func(T) U, clear func() U) error {
	if !in.IsSet() {
		return nil
	}
	v := in.Value()
	if v == nil {
		clear()
		return nil
	}
	if check != nil {
		if err := check(*v); err != nil {
			return err
		}
	}
	set(*v)
	return nil
}
