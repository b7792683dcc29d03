package limits

import (
	"context"
	"runtime"
	"sync"
	"weak"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

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
// records again for that operation without running them. gqlgen's query cache hands every
// request of a kept document the same parsed operation, so a document sent again is not walked
// again; a memory is dropped when its operation is collected, as the cache lets it go. An
// operation with variables, or one a check refused, is checked on every request.
type Static struct {
	Checks []StaticCheck
	passed *sync.Map // weak.Pointer[ast.OperationDefinition] → []recordedStat
}

// recordedStat is a statistic a check recorded under its extension's name.
type recordedStat struct {
	name  string
	value any
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = Static{}

// NewStatic returns Static over checks.
func NewStatic(checks ...StaticCheck) Static {
	return Static{Checks: checks, passed: &sync.Map{}}
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
	remember := op != nil && len(op.VariableDefinitions) == 0 && s.passed != nil
	var key weak.Pointer[ast.OperationDefinition]
	if remember {
		key = weak.Make(op)
		if stats, ok := s.passed.Load(key); ok {
			for _, st := range stats.([]recordedStat) {
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
	if _, loaded := s.passed.LoadOrStore(key, stats); !loaded {
		passed := s.passed
		runtime.AddCleanup(op, func(k weak.Pointer[ast.OperationDefinition]) { passed.Delete(k) }, key)
	}
	return nil
}
