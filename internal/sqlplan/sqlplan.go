// Package sqlplan lets a caller say how the statements it runs may be planned. PostgreSQL
// connections plan every statement for its parameters (plan_cache_mode=force_custom_plan,
// decision 332), which a search needs and a read by a unique key does not: the store sends the
// statements of a context marked by ByKey to connections that may keep one plan for any
// parameters (decision 334). SQLite plans every statement once when it is prepared, whatever the
// mark.
package sqlplan

import "context"

type byKey struct{}

// ByKey marks ctx: the statements run under it find their rows by a unique key (an id, a token's
// hash, a grant's space and user), so the best plan is the same for every parameter and
// PostgreSQL may keep the one it made.
func ByKey(ctx context.Context) context.Context { return context.WithValue(ctx, byKey{}, true) }

// IsByKey reports whether ctx was marked by ByKey.
func IsByKey(ctx context.Context) bool {
	marked, _ := ctx.Value(byKey{}).(bool)
	return marked
}
