package limits

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/readcache"
)

// CodeRateLimited is set in extensions.code when an operation's cost exceeds what its client's
// budget has left (rest answers 429 with the error body instead).
const CodeRateLimited = "RATE_LIMITED"

// ChargeCost charges an operation's cost (ratelimit.GraphQLCost of the complexity gqlgen's
// complexity limit computed) to the request's rate-limit meter, less the point the request paid
// on arrival. Use it after extension.FixedComplexityLimit.
type ChargeCost struct{}

var _ interface {
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = ChargeCost{}

// ExtensionName implements graphql.HandlerExtension.
func (ChargeCost) ExtensionName() string { return "ChargeCost" }

// Validate implements graphql.HandlerExtension.
func (ChargeCost) Validate(graphql.ExecutableSchema) error { return nil }

// MutateOperationContext charges the operation before it runs.
func (ChargeCost) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	m := ratelimit.FromContext(ctx)
	stats, _ := opCtx.Stats.GetExtension("ComplexityLimit").(*extension.ComplexityStats)
	if m == nil || stats == nil {
		return nil
	}
	op := operation(opCtx)
	cost := ratelimit.GraphQLCost(stats.Complexity, op != nil && op.Operation == ast.Mutation) - ratelimit.ReadCost
	if cost <= 0 {
		return nil
	}
	if err := m.Charge(ctx, cost); err != nil {
		gerr := gqlerror.Errorf("%s", err.Error())
		errcode.Set(gerr, CodeRateLimited)
		return gerr
	}
	readcache.Charged(ctx, cost) // taking its answer again costs the same
	return nil
}
