package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/slots"
)

// Subscriptions hand the events of this process's feed (events.Feed) to GraphQL subscribers.
// Each subscription checks access when it starts, through the resolvers of reads, and again at
// each event as its credentials show the viewer then (Subscriber.SignIn): a viewer who lost
// access gets an error and the subscription ends.

// SubscriptionLimits bound the subscriptions of a server.
type SubscriptionLimits struct {
	PerConnection int // subscriptions at once on one WebSocket connection
	PerCredential int // subscriptions at once of one token or session, on every server of the database
	// Lease is how long a subscription's slot of its credentials outlives its server's last
	// renewal: a server that dies frees its slots within it (slots.DefaultLease when zero;
	// server.New makes the Resolver's SubscriptionSlots with it).
	Lease        time.Duration
	InitTimeout  time.Duration // for connection_init after the WebSocket opens
	Ping         time.Duration // the server pings this often; a pong missing for twice as long closes
	WriteTimeout time.Duration // a message the client does not take within it closes the connection
	Idle         time.Duration // a WebSocket without a subscription for this long is closed (0: never)
}

// DefaultSubscriptionLimits are the limits of a server started without flags.
var DefaultSubscriptionLimits = SubscriptionLimits{PerConnection: 50, PerCredential: 200,
	InitTimeout: 10 * time.Second, Ping: 30 * time.Second, WriteTimeout: 10 * time.Second, Idle: 5 * time.Minute}

// Subscriber is who runs the subscriptions of a connection (a WebSocket) or a request (Server-Sent
// Events): the key of their credentials, which counts against PerCredential, and how to find
// their viewer again at each event.
type Subscriber struct {
	Credential string
	// SignIn finds the viewer of the credentials now, and returns what puts it in a context
	// (with the ent client and fresh loaders).
	SignIn func(ctx context.Context) (bind func(context.Context) context.Context, err error)
	active int         // subscriptions of the connection
	idle   *time.Timer // closes the connection when it has had none for SubscriptionLimits.Idle
}

type subscriberKey struct{}

// WithSubscriber returns ctx carrying the subscriber of its subscriptions (package rest sets it).
func WithSubscriber(ctx context.Context, s *Subscriber) context.Context {
	return context.WithValue(ctx, subscriberKey{}, s)
}

func subscriberOf(ctx context.Context) *Subscriber {
	s, _ := ctx.Value(subscriberKey{}).(*Subscriber)
	return s
}

// subscriptionSlots counts the subscriptions of each connection, in this process, and of each
// credentials, on every server of the database (the slots table).
type subscriptionSlots struct {
	limits SubscriptionLimits
	shared *slots.Table
	mu     sync.Mutex
}

// take holds a slot of the subscriber's connection and credentials, or says which limit is
// reached; release gives it back.
func (s *subscriptionSlots) take(ctx context.Context, sub *Subscriber) (release func(), err error) {
	if err := s.takeOfConnection(sub); err != nil {
		return nil, err
	}
	releaseShared := func() {}
	if s.limits.PerCredential > 0 && s.shared != nil {
		var held int
		releaseShared, held, err = s.shared.Take(ctx, sub.Credential, s.limits.PerCredential)
		if errors.Is(err, slots.ErrFull) {
			err = apperr.RateLimitedf("these credentials have %d subscriptions, the most they may have", held)
		}
		if err != nil {
			s.releaseOfConnection(sub)
			return nil, err
		}
	}
	return func() {
		releaseShared()
		s.releaseOfConnection(sub)
	}, nil
}

func (s *subscriptionSlots) takeOfConnection(sub *Subscriber) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limits.PerConnection > 0 && sub.active >= s.limits.PerConnection {
		return apperr.RateLimitedf("this connection has %d subscriptions, the most it may have", sub.active)
	}
	if sub.active++; sub.idle != nil {
		sub.idle.Stop()
	}
	return nil
}

func (s *subscriptionSlots) releaseOfConnection(sub *Subscriber) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sub.active--; sub.active == 0 && sub.idle != nil {
		sub.idle.Reset(s.limits.Idle)
	}
}

// closeWhenIdle returns the context of a WebSocket's subscriptions, ended (which closes the
// connection) once the connection has held no subscription for limits.Idle, from now.
func (s *subscriptionSlots) closeWhenIdle(ctx context.Context) context.Context {
	sub := subscriberOf(ctx)
	if sub == nil || s.limits.Idle <= 0 {
		return ctx
	}
	reason := fmt.Sprintf("closed: no subscription for %s", s.limits.Idle)
	ctx, cancel := context.WithCancel(transport.AppendCloseReason(ctx, reason))
	s.mu.Lock()
	defer s.mu.Unlock()
	sub.idle = time.AfterFunc(s.limits.Idle, cancel)
	context.AfterFunc(ctx, func() { sub.idle.Stop() })
	return ctx
}

// stream runs one subscription: check decides access now, as the viewer of ctx; then each event
// of the feed that wants accepts is loaded by load as the subscriber's viewer at that event, and
// sent. An error (access lost, the subscriber fell behind) ends the subscription with it.
func stream[T any](ctx context.Context, r *Resolver, check func(context.Context) error, wants events.Filter,
	load func(context.Context, *ent.Event) (T, error)) (<-chan T, error) {
	sub := subscriberOf(ctx)
	if sub == nil || r.Feed == nil || r.subscriptions == nil {
		return nil, apperr.Invalidf("subscriptions are served over WebSocket (graphql-transport-ws) or Server-Sent Events at /graphql")
	}
	release, err := r.subscriptions.take(ctx, sub)
	if err != nil {
		return nil, err
	}
	if err := checkAgain(ctx, sub, check); err != nil {
		release()
		return nil, err
	}
	feed := r.Feed.Subscribe(wants)
	out := make(chan T)
	go func() {
		defer release()
		defer feed.Close()
		defer close(out)
		for {
			var e *ent.Event
			var ok bool
			select {
			case <-ctx.Done():
				return
			case e, ok = <-feed.C:
			}
			if !ok {
				endWith(ctx, out, apperr.RateLimitedf("the subscription ended: its client did not keep up with the events"))
				return
			}
			v, bind, err := loadAgain(ctx, sub, e, load)
			if err != nil {
				endWith(ctx, out, err)
				return
			}
			answerAs(ctx, bind)
			select {
			case out <- v:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// checkAgain decides access as the subscriber's viewer now (a WebSocket's viewer was found when
// it opened, with loaders that keep what they read).
func checkAgain(ctx context.Context, sub *Subscriber, check func(context.Context) error) error {
	_, _, err := loadAgain(ctx, sub, nil, func(ctx context.Context, _ *ent.Event) (struct{}, error) { return struct{}{}, check(ctx) })
	return err
}

// loadAgain loads what an event says as the subscriber's viewer now, and returns what binds
// that viewer to a context.
func loadAgain[T any](ctx context.Context, sub *Subscriber, e *ent.Event, load func(context.Context, *ent.Event) (T, error)) (T, func(context.Context) context.Context, error) {
	bind := func(ctx context.Context) context.Context { return ctx }
	if sub.SignIn != nil {
		var err error
		if bind, err = sub.SignIn(ctx); err != nil {
			var zero T
			return zero, nil, err
		}
	}
	v, err := load(bind(ctx), e)
	return v, bind, err
}

// eventViewers makes the fields of each event's answer resolve as the subscriber's viewer at
// that event, with loaders of that event alone: gqlgen resolves them in the context of the
// answer, which a subscription keeps for as long as it lasts (its viewer and loaders would be
// those of its start). The subscription's resolver passes each event's viewer (answerAs) to the
// context of the answers (liveContext) through a box put in the operation's context.
type eventViewers struct{}

var _ interface {
	graphql.OperationInterceptor
	graphql.ResponseInterceptor
	graphql.HandlerExtension
} = eventViewers{}

type viewerBox struct {
	mu   sync.Mutex
	bind *binding
	end  *gqlerror.Error // the error that ends the subscription (over Server-Sent Events)
}

type binding struct {
	bind func(context.Context) context.Context
}

type viewerBoxKey struct{}

func (eventViewers) ExtensionName() string                   { return "eventViewers" }
func (eventViewers) Validate(graphql.ExecutableSchema) error { return nil }

func (eventViewers) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	if op := graphql.GetOperationContext(ctx).Operation; op == nil || op.Operation != ast.Subscription {
		return next(ctx)
	}
	return next(context.WithValue(ctx, viewerBoxKey{}, &viewerBox{}))
}

func (eventViewers) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	box, _ := ctx.Value(viewerBoxKey{}).(*viewerBox)
	if box == nil {
		return next(ctx)
	}
	resp := next(&liveContext{Context: ctx, box: box})
	box.mu.Lock()
	end := box.end
	box.mu.Unlock()
	if end != nil && resp != nil {
		return &graphql.Response{Errors: gqlerror.List{end}}
	}
	return resp
}

// answerAs makes the answers of the subscription of ctx resolve their fields with bind's viewer.
func answerAs(ctx context.Context, bind func(context.Context) context.Context) {
	if box, _ := ctx.Value(viewerBoxKey{}).(*viewerBox); box != nil {
		box.mu.Lock()
		box.bind = &binding{bind}
		box.mu.Unlock()
	}
}

// liveContext is an answer's context whose values are those of the last event's viewer bound to
// it (bound once per event).
type liveContext struct {
	context.Context
	box   *viewerBox
	mu    sync.Mutex
	of    *binding
	bound context.Context
}

func (c *liveContext) Value(key any) any {
	c.box.mu.Lock()
	b := c.box.bind
	c.box.mu.Unlock()
	if b == nil {
		return c.Context.Value(key)
	}
	c.mu.Lock()
	if c.of != b {
		c.of, c.bound = b, b.bind(c.Context)
	}
	bound := c.bound
	c.mu.Unlock()
	return bound.Value(key)
}

// endWith ends a subscription with err, presented as every GraphQL error is: over WebSocket as
// the protocol's error message; over Server-Sent Events as a last answer that carries the error
// alone (an answer without data: InterceptResponse puts the error in place of the answer to the
// zero value sent for it), after which the stream completes.
func endWith[T any](ctx context.Context, out chan<- T, err error) {
	if ctx.Err() != nil {
		return
	}
	if ctx.Value(overSocketKey{}) != nil {
		transport.AddSubscriptionError(ctx, presentError(ctx, err))
		return
	}
	box, _ := ctx.Value(viewerBoxKey{}).(*viewerBox)
	if box == nil {
		return
	}
	box.mu.Lock()
	box.end = presentError(ctx, err)
	box.mu.Unlock()
	var zero T
	select {
	case out <- zero:
	case <-ctx.Done():
	}
}

// ofTypes accepts the events of these types about the object with this id in the field that
// field reads.
func ofTypes(field func(*ent.Event) string, id string, types ...string) events.Filter {
	return func(e *ent.Event) bool { return field(e) == id && slices.Contains(types, e.Type) }
}

func eventSpace(e *ent.Event) string { return e.SpaceID }
func eventSite(e *ent.Event) string  { return e.SiteID }
func eventOrg(e *ent.Event) string   { return e.OrganizationID }

// spaceContentUpdated is Subscription.spaceContentUpdated.
func (r *Resolver) spaceContentUpdated(ctx context.Context, spaceID string) (<-chan *model.SpaceContentUpdate, error) {
	check := func(ctx context.Context) error { _, err := r.space(ctx, spaceID); return err }
	return stream(ctx, r, check, ofTypes(eventSpace, spaceID, events.SpaceContentUpdated),
		func(ctx context.Context, e *ent.Event) (*model.SpaceContentUpdate, error) {
			s, err := r.space(ctx, spaceID)
			if err != nil {
				return nil, err
			}
			before, _ := e.Details["revisionBefore"].(string)
			after, _ := e.Details["revisionAfter"].(string)
			return &model.SpaceContentUpdate{EventID: e.PublicID, Space: s, RevisionBefore: before, RevisionAfter: after,
				ChangedPages: stringList(e.Details["pages"])}, nil
		})
}

// changeRequestUpdated is Subscription.changeRequestUpdated.
func (r *Resolver) changeRequestUpdated(ctx context.Context, spaceID string) (<-chan *ent.ChangeRequest, error) {
	check := func(ctx context.Context) error { _, err := r.space(ctx, spaceID); return err }
	return stream(ctx, r, check, ofTypes(eventSpace, spaceID, events.ChangeRequestCreated, events.ChangeRequestUpdated,
		events.ChangeRequestStatusChanged, events.ChangeRequestMerged),
		func(ctx context.Context, e *ent.Event) (*ent.ChangeRequest, error) {
			return r.spaceChangeRequest(ctx, spaceID, e.ObjectID)
		})
}

// commentAdded is Subscription.commentAdded.
func (r *Resolver) commentAdded(ctx context.Context, spaceID string) (<-chan *ent.Comment, error) {
	check := func(ctx context.Context) error { _, err := r.space(ctx, spaceID); return err }
	return stream(ctx, r, check, ofTypes(eventSpace, spaceID, events.CommentCreated),
		func(ctx context.Context, e *ent.Event) (*ent.Comment, error) {
			var cr *string
			if id, _ := e.Details["changeRequest"].(string); id != "" {
				cr = &id
			}
			return r.ReadComment(ctx, spaceID, cr, e.ObjectID)
		})
}

// siteUpdated is Subscription.siteUpdated.
func (r *Resolver) siteUpdated(ctx context.Context, siteID string) (<-chan *ent.Site, error) {
	var orgID string
	check := func(ctx context.Context) error {
		var err error
		if orgID, err = r.Client.Site.Query().Where(site.ID(siteID)).Select(site.FieldOrganizationID).String(ctx); err != nil {
			return apperr.NotFoundf("no site %s", siteID)
		}
		_, err = r.site(ctx, orgID, siteID)
		return err
	}
	return stream(ctx, r, check, ofTypes(eventSite, siteID, events.SitePublished, events.SiteUnpublished, events.SiteUpdated),
		func(ctx context.Context, e *ent.Event) (*ent.Site, error) { return r.site(ctx, orgID, siteID) })
}

// openAPISpecProcessed is Subscription.openAPISpecProcessed.
func (r *Resolver) openAPISpecProcessed(ctx context.Context, orgID string) (<-chan *ent.OpenAPISpec, error) {
	check := func(ctx context.Context) error {
		o, err := r.Query().Organization(ctx, orgID)
		if err == nil && o == nil {
			err = apperr.NotFoundf("no organization %s", orgID)
		}
		if err == nil {
			_, err = r.openAPISpecs(ctx, o, new(0), nil)
		}
		return err
	}
	return stream(ctx, r, check, ofTypes(eventOrg, orgID, events.OpenAPISpecProcessed, events.OpenAPISpecFailed),
		func(ctx context.Context, e *ent.Event) (*ent.OpenAPISpec, error) {
			slug, _ := e.Details["slug"].(string)
			return r.openAPISpec(ctx, orgID, slug)
		})
}

// stringList is a JSON list of strings as decoded ([]any), or none.
func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, s := range list {
		if s, ok := s.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
