package graph

import (
	"context"
	"errors"
	"log/slog"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/generated"
	"github.com/binderyhq/bindery/graph/limits"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/readcache"
)

// Limits bound what one GraphQL operation may cost; each over-limit operation answers a GraphQL
// error, never a 500.
type Limits struct {
	Depth         int  // nesting of field selections
	Complexity    int  // fields, with a connection costing first × its children
	Aliases       int  // aliased fields in one operation
	Tokens        int  // lexer tokens of the query text
	Introspection bool // let clients (GraphiQL) read the schema
	// Shape bounds a document's selections before it is validated (limits.Shape).
	Shape limits.Shape
	// Subscriptions bound subscriptions and their connections.
	Subscriptions SubscriptionLimits
}

// DefaultLimits are the limits of a server started without flags.
var DefaultLimits = Limits{Depth: 12, Complexity: 5000, Aliases: 30, Tokens: 15000, Introspection: true,
	Shape:         limits.Shape{FieldsPerSet: 200, Fields: 2000, Directives: 50, Spreads: 500, Variables: 500, Values: 2000, NameLength: 256},
	Subscriptions: DefaultSubscriptionLimits}

// The query cache keeps up to 1,000 validated documents within 8 MiB of query text.
const (
	cachedDocuments     = 1000
	cachedDocumentBytes = 8 << 20
)

// NewHandler returns the GraphQL endpoint over the resolvers: POST (no queries in URLs), its
// parameters decoded by package rest (WithParams); subscriptions over WebSocket or Server-Sent
// Events (socket.go).
func NewHandler(r *Resolver, l Limits) *handler.Server {
	cfg := generated.Config{Resolvers: r}
	connectionComplexity(&cfg.Complexity)
	srv := handler.New(generated.NewExecutableSchema(cfg))
	srv.AddTransport(transport.Options{})
	r.subscriptions = &subscriptionSlots{limits: l.Subscriptions, shared: r.SubscriptionSlots}
	srv.AddTransport(socketTransport(r.subscriptions))
	srv.AddTransport(eventStream{SSE: transport.SSE{KeepAlivePingInterval: l.Subscriptions.Ping}, writeTimeout: l.Subscriptions.WriteTimeout})
	// A client that accepts multipart/mixed gets the fields it asked with @defer in later parts of
	// the answer (gqlgen's incremental delivery); one JSON body carries the first part only.
	srv.AddTransport(incremental{})
	srv.AddTransport(decodedPOST{}) // rest decodes the body
	cache := limits.NewDocumentCache(cachedDocuments, cachedDocumentBytes)
	srv.SetQueryCache(cache)
	// Automatic persisted queries (Apollo's protocol): first, as it fills in the query of a known hash.
	srv.Use(persistedQueries{extension.AutomaticPersistedQuery{Cache: limits.NewPersistedQueries(cachedDocumentBytes)}})
	srv.Use(limits.ShapeLimit{Shape: l.Shape, Tokens: l.Tokens, Cache: cache})
	if l.Introspection {
		srv.Use(extension.Introspection{})
	}
	// The complexity, depth and alias limits walk a document once: a document sent again without
	// variables is not walked again (limits.Static).
	srv.Use(limits.NewStatic(cachedDocumentBytes, extension.FixedComplexityLimit(l.Complexity), limits.Depth(l.Depth), limits.Aliases(l.Aliases)))
	srv.Use(limits.ChargeCost{}) // after the complexity limit, which computes the cost
	srv.Use(textLiterals{})
	srv.Use(eventViewers{}) // each event's answer as its subscriber's viewer then
	srv.Use(keepQueriesOnly{})
	srv.SetParserTokenLimit(l.Tokens)
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		slog.ErrorContext(ctx, "panic in a resolver", "panic", p)
		return apperr.Internalw(errors.New("panic in a resolver"))
	})
	return srv
}

// persistedQueries is gqlgen's automatic persisted queries with its refusals coded (a hash that
// does not match its query is the client's error) and never kept by the read cache: a hash
// unknown now is known once its client sends the query.
type persistedQueries struct {
	extension.AutomaticPersistedQuery
}

func (p persistedQueries) MutateOperationParameters(ctx context.Context, params *graphql.RawParams) *gqlerror.Error {
	err := p.AutomaticPersistedQuery.MutateOperationParameters(ctx, params)
	if err == nil {
		return nil
	}
	readcache.DoNotKeep(ctx)
	if err.Extensions == nil {
		err.Extensions = map[string]any{"code": "BAD_USER_INPUT"}
	}
	return err
}

// presentError gives every resolver error its extensions.code and a message for people;
// internal errors are logged and shown as "Internal error.". Once the client went away, every
// field fails and the answer is dropped (rest's access log records 499): nothing is logged.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gerr := graphql.DefaultErrorPresenter(ctx, err)
	if ClientGone(ctx) {
		readcache.DoNotKeep(ctx)
		return gerr
	}
	var already *gqlerror.Error
	if errors.As(err, &already) && apperr.As(err) == nil && already.Extensions != nil {
		return gerr // a parse, validation or limit error: it has its code
	}
	if apperr.As(err) == nil && isIntrospection(gerr.Path) {
		// With introspection off, gqlgen answers __schema and __type with a plain error: the
		// client's request is refused, nothing failed here (Apollo uses the same code).
		gerr.Message = "introspection is disabled on this server: __schema and __type cannot be queried"
		gerr.Extensions = map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}
		return gerr
	}
	e := AsAppError(ctx, err)
	if e.Kind == apperr.Internal || e.Kind == apperr.TimedOut {
		readcache.DoNotKeep(ctx) // the next request may well succeed
	}
	if e.Kind == apperr.Internal {
		slog.ErrorContext(ctx, "internal error", "err", err)
	}
	gerr.Message = e.Message
	gerr.Extensions = map[string]any{"code": e.Kind.Code()}
	return gerr
}

// keepQueriesOnly lets the read cache keep the answer of a query alone: a mutation's answer tells
// what it did, and doing it again must do it again.
type keepQueriesOnly struct{}

var _ interface {
	graphql.OperationContextMutator
	graphql.HandlerExtension
} = keepQueriesOnly{}

func (keepQueriesOnly) ExtensionName() string                   { return "keepQueriesOnly" }
func (keepQueriesOnly) Validate(graphql.ExecutableSchema) error { return nil }

func (keepQueriesOnly) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	if opCtx.Operation == nil || opCtx.Operation.Operation != ast.Query {
		readcache.DoNotKeep(ctx)
	}
	return nil
}

// isIntrospection reports whether an error's path is a top-level introspection field.
func isIntrospection(p ast.Path) bool {
	if len(p) != 1 {
		return false
	}
	name, ok := p[0].(ast.PathName)
	return ok && (name == "__schema" || name == "__type")
}

// connectionComplexity makes each connection cost first × its children.
func connectionComplexity(c *generated.ComplexityRoot) {
	c.Query.Organizations = func(child int, first *int, _ *string) int { return limits.ConnectionComplexity(first, child) }
	c.Organization.Members = func(child int, first *int, _ *string, _ *model.MemberRoleFilter, _ *string, _ *model.MemberSort, _ *model.SortOrder) int {
		return limits.ConnectionComplexity(first, child)
	}
	c.Organization.Teams = func(child int, first *int, _, _, _ *string) int { return limits.ConnectionComplexity(first, child) }
	c.Organization.Invites = func(child int, first *int, _ *string) int { return limits.ConnectionComplexity(first, child) }
	c.Organization.CustomFields = func(child int, first *int, _ *string) int { return limits.ConnectionComplexity(first, child) }
	c.Organization.Sites = func(child int, first *int, _, _, _ *string, _ *bool) int {
		return limits.ConnectionComplexity(first, child)
	}
	c.Site.ShareLinks = func(child int, first *int, _, _ *string) int { return limits.ConnectionComplexity(first, child) }
	c.Member.Teams = func(child int, first *int, _, _ *string) int { return limits.ConnectionComplexity(first, child) }
	c.Team.Members = func(child int, first *int, _ *string) int { return limits.ConnectionComplexity(first, child) }
	c.Organization.Collections = func(child int, first *int, _ *string, _ *bool) int { return limits.ConnectionComplexity(first, child) }
	c.Collection.Collections = func(child int, first *int, _ *string) int { return limits.ConnectionComplexity(first, child) }
	c.Collection.Spaces = func(child int, first *int, _ *string) int { return limits.ConnectionComplexity(first, child) }
	c.Organization.Spaces = func(child int, first *int, _ *string) int { return limits.ConnectionComplexity(first, child) }
	c.Member.Spaces = func(child int, first *int, _ *string, _ *model.SortOrder) int {
		return limits.ConnectionComplexity(first, child)
	}
	grants := func(child int, first *int, _ *string, _ *model.GrantSubjectKind) int {
		return limits.ConnectionComplexity(first, child)
	}
	access := func(child int, first *int, _ *string, _ *viewer.Role) int {
		return limits.ConnectionComplexity(first, child)
	}
	c.Space.Grants, c.Collection.Grants, c.Space.Access, c.Collection.Access = grants, grants, access, access
}
