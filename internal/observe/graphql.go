package observe

import (
	"context"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/prometheus/client_golang/prometheus"
)

// graphqlMetrics count GraphQL operations by name and outcome.
type graphqlMetrics struct {
	operations *prometheus.CounterVec
	duration   *prometheus.HistogramVec
	names      *boundedNames
}

// maxOperationNames bounds the operation names a process keeps as label values; the operations
// of further names count as "other".
const maxOperationNames = 100

// Operation name labels that are not the operation's own name.
const (
	operationAnonymous = "anonymous" // an operation without a name
	operationOther     = "other"     // past the bound, too long, or refused before it ran
)

func newGraphQLMetrics(f factory) graphqlMetrics {
	return graphqlMetrics{
		operations: f.counter("bindery_graphql_operations_total",
			"GraphQL operations by name and outcome: ok, error (some fields failed), rejected (not run: a syntax, validation or limit error). "+
				"Names past the first 100 a process sees count as \"other\".",
			"operation", "outcome"),
		duration: f.histogram("bindery_graphql_operation_duration_seconds",
			"Time of GraphQL operations from parsing to the answer, by name.", latencyBuckets, "operation"),
		names: &boundedNames{max: maxOperationNames, seen: map[string]bool{}},
	}
}

// GraphQL returns the gqlgen extension that counts and times every operation the server answers.
func (o *Observer) GraphQL() graphql.HandlerExtension { return graphqlExtension{&o.graphql} }

type graphqlExtension struct{ m *graphqlMetrics }

func (graphqlExtension) ExtensionName() string                   { return "BinderyMetrics" }
func (graphqlExtension) Validate(graphql.ExecutableSchema) error { return nil }
func (e graphqlExtension) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	resp := next(ctx)
	if resp == nil || !graphql.HasOperationContext(ctx) {
		return resp
	}
	op := graphql.GetOperationContext(ctx)
	outcome := "ok"
	switch {
	case len(resp.Errors) == 0:
	case len(resp.Data) == 0:
		outcome = "rejected"
	default:
		outcome = "error"
	}
	name := operationOther
	if op.Operation != nil && outcome != "rejected" {
		name = e.m.names.label(op.Operation.Name)
	}
	e.m.operations.WithLabelValues(name, outcome).Inc()
	if !op.Stats.OperationStart.IsZero() {
		e.m.duration.WithLabelValues(name).Observe(time.Since(op.Stats.OperationStart).Seconds())
	}
	return resp
}

// boundedNames keeps the first max operation names it is asked for, as label values.
type boundedNames struct {
	mu   sync.RWMutex
	max  int
	seen map[string]bool
}

// label is the label of an operation name: the name itself while the bound allows, else "other".
func (b *boundedNames) label(name string) string {
	if name == "" {
		return operationAnonymous
	}
	if len(name) > 64 {
		return operationOther
	}
	b.mu.RLock()
	known, full := b.seen[name], len(b.seen) >= b.max
	b.mu.RUnlock()
	if known {
		return name
	}
	if full {
		return operationOther
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.seen[name] || len(b.seen) < b.max {
		b.seen[name] = true
		return name
	}
	return operationOther
}
