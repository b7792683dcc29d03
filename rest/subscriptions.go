package rest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/rest/playground"
)

// GraphQL subscriptions come over a WebSocket opened by GET /graphql (authenticated by its
// connection_init payload, or by the session cookie of a page of a trusted origin), or as
// Server-Sent Events answering POST /graphql (authenticated as every API request). Either way
// the subscriber's credentials are checked again at each event (graph.Subscriber).

// isEventStream reports whether a request opens a stream of subscription events: it keeps no
// request deadline (the subscriptions' limits bound it) and its answer is never kept.
func isEventStream(r *http.Request) bool {
	if r.URL.Path != "/graphql" {
		return false
	}
	return r.Method == http.MethodGet && strings.EqualFold(r.Header.Get("Upgrade"), "websocket") ||
		r.Method == http.MethodPost && strings.Contains(r.Header.Get("Accept"), "text/event-stream")
}

// graphQLPage serves GET /graphql: the WebSocket of subscriptions for an upgrade request, else
// the GraphiQL page.
func (a *api) graphQLPage(gql http.Handler, auth, session Authenticator, client *ent.Client) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !isEventStream(r) {
			playground.Page(w, r)
			return
		}
		gql.ServeHTTP(w, r.WithContext(graph.WithConnect(r.Context(), a.connect(r, auth, session, client))))
	}
}

// connect authenticates a WebSocket's connection_init, charging it to the credentials (or, when
// they fail, to the client address).
func (a *api) connect(r *http.Request, auth, session Authenticator, client *ent.Client) graph.Connect {
	return func(ctx context.Context, payload map[string]any) (context.Context, error) {
		cred, err := a.socketCredentials(r, payload, auth, session)
		var v *viewer.Viewer
		if err == nil {
			v, err = cred.login(ctx)
		}
		if err == nil {
			err = chargeCredentials(r, cred.who)
		} else {
			err = chargeRefused(r, err)
		}
		if err != nil {
			return ctx, err
		}
		return cred.subscriberContext(viewerContext(ctx, v, client), client), nil
	}
}

// socketCredentials are the credentials of a WebSocket: the bearer token of connection_init's
// payload ({"Authorization": "Bearer …"}), else the session cookie when the page that opened it
// is of a trusted origin.
func (a *api) socketCredentials(r *http.Request, payload map[string]any, auth, session Authenticator) (credentials, error) {
	raw, ok := payload["Authorization"]
	if !ok {
		raw, ok = payload["authorization"]
	}
	if ok {
		header, _ := raw.(string)
		token, ok := bearer(header)
		if !ok {
			return credentials{}, apperr.Invalidf(`connection_init: payload.Authorization must be "Bearer <token>"`)
		}
		return tokenCredentials(token, auth), nil
	}
	if c, err := r.Cookie(SessionCookie); err == nil && c.Value != "" && session != nil {
		if !a.origins.allows(r) {
			return credentials{}, apperr.Forbiddenf("a WebSocket with a session cookie must come from a page of this server or of an allowed origin (Origin header)")
		}
		return sessionCredentials(c.Value, session), nil
	}
	return credentials{}, apperr.Unauthenticatedf(`authentication required: send {"Authorization": "Bearer <token>"} as connection_init's payload, or sign in`)
}

// credentials authenticate a request, and a subscriber at each event: a bearer token or a
// session cookie.
type credentials struct {
	who   ratelimit.Subject
	key   string // the credentials' hash: a subscriber's count of subscriptions
	login func(context.Context) (*viewer.Viewer, error)
}

func tokenCredentials(token string, auth Authenticator) credentials {
	return credentials{who: ratelimit.Token(token), key: hashOf("token", token),
		login: func(ctx context.Context) (*viewer.Viewer, error) { return auth(ctx, token) }}
}

func sessionCredentials(secret string, session Authenticator) credentials {
	return credentials{who: ratelimit.Session(secret), key: hashOf("session", secret),
		login: func(ctx context.Context) (*viewer.Viewer, error) { return session(ctx, secret) }}
}

func hashOf(kind, secret string) string {
	sum := sha256.Sum256([]byte(kind + ":" + secret))
	return hex.EncodeToString(sum[:])
}

// subscriberContext is ctx with the subscriber of these credentials, who signs in again at each
// event.
func (c credentials) subscriberContext(ctx context.Context, client *ent.Client) context.Context {
	return graph.WithSubscriber(ctx, &graph.Subscriber{Credential: c.key,
		SignIn: func(ctx context.Context) (func(context.Context) context.Context, error) {
			v, err := c.login(ctx)
			if err != nil {
				return nil, err
			}
			return func(ctx context.Context) context.Context { return viewerContext(ctx, v, client) }, nil
		}})
}

// viewerContext is ctx with the viewer, the ent client (content privacy rules read through it)
// and fresh loaders.
func viewerContext(ctx context.Context, v *viewer.Viewer, client *ent.Client) context.Context {
	return loader.NewContext(ent.NewContext(viewer.NewContext(ctx, v), client), client)
}
