package limits

import (
	"context"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/binderyhq/bindery/internal/sizedlru"

	"github.com/99designs/gqlgen/graphql"
)

// StaticCheck is a check of an operation whose verdict, and the statistics it records, depend
// on the operation's document alone when the operation declares no variables: the depth and
// alias limits, and gqlgen's extension.FixedComplexityLimit (its complexity functions read
// arguments, which without variables are the document's literals).
type StaticCheck interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
}

// Static runs its checks in order and remembers, for each operation without variables that
// passed them all, the statistics they recorded (the complexity ChargeCost charges), which it
// records again for a later request of the same query text and operation name without running
// them: without variables the verdict depends on that text alone. What it remembers is bounded
// by the bytes of the texts, least recently used first out. An operation with variables, one a
// check refused, or one without a query text, is checked on every request.
type Static struct {
	Checks []StaticCheck
	passed *sizedlru.Cache[staticKey, []recordedStat]
}

// staticKey names an operation of a query text.
type staticKey struct{ query, operation string }

// recordedStat is a statistic a check recorded under its extension's name.
type recordedStat struct {
	name  string
	value any
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = Static{}

// NewStatic returns Static over checks, remembering operations within budget bytes of query text.
func NewStatic(budget int, checks ...StaticCheck) Static {
	return Static{Checks: checks, passed: sizedlru.New[staticKey, []recordedStat](budget)}
}

// ExtensionName implements graphql.HandlerExtension.
func (Static) ExtensionName() string { return "StaticLimits" }

// Validate implements graphql.HandlerExtension: it validates each check.
func (s Static) Validate(schema graphql.ExecutableSchema) error {
	for _, c := range s.Checks {
		if err := c.Validate(schema); err != nil {
			return err
		}
	}
	return nil
}

// MutateOperationContext implements graphql.OperationContextMutator.
func (s Static) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	op := operation(opCtx)
	remember := op != nil && len(op.VariableDefinitions) == 0 && opCtx.RawQuery != "" && s.passed != nil
	key := staticKey{opCtx.RawQuery, opCtx.OperationName}
	if remember {
		if stats, ok := s.passed.Get(key); ok {
			for _, st := range stats {
				opCtx.Stats.SetExtension(st.name, st.value)
			}
			return nil
		}
	}
	for _, c := range s.Checks {
		if err := c.MutateOperationContext(ctx, opCtx); err != nil {
			return err
		}
	}
	if !remember {
		return nil
	}
	var stats []recordedStat
	for _, c := range s.Checks {
		if v := opCtx.Stats.GetExtension(c.ExtensionName()); v != nil {
			stats = append(stats, recordedStat{c.ExtensionName(), v})
		}
	}
	s.passed.Add(key, stats, len(key.query)+len(key.operation))
	return nil
}
