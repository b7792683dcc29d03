package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"

	"github.com/binderyhq/bindery/internal/apperr"
)

// The transports of subscriptions: gqlgen's WebSocket (graphql-transport-ws, and the older
// graphql-ws) and Server-Sent Events, over github.com/coder/websocket through gqlgen's adapter
// interface, with what gqlgen's own adapter leaves out: a deadline on each write (a client that
// does not read is dropped), and graphql-transport-ws's close codes.

// Close codes of graphql-transport-ws (and 4429, which many servers use for a spent budget).
const (
	closeBadRequest  = 4400 // a malformed message, connection_init among them
	closeForbidden   = 4403 // credentials refused
	closeInitTimeout = 4408 // no connection_init in time
	closeRateLimited = 4429
)

// Connect authenticates a WebSocket from its connection_init payload, returning the context of
// its subscriptions (the viewer, and WithSubscriber's subscriber). Package rest sets it for each
// upgrade request (WithConnect).
type Connect func(ctx context.Context, payload map[string]any) (context.Context, error)

type connectKey struct{}

// WithConnect returns ctx carrying how its WebSocket authenticates.
func WithConnect(ctx context.Context, c Connect) context.Context {
	return context.WithValue(ctx, connectKey{}, c)
}

// socketTransport is the WebSocket transport with Bindery's limits and authentication; a
// connection is closed once it has held no subscription for the slots' Idle limit.
func socketTransport(slots *subscriptionSlots) graphql.Transport {
	l := slots.limits
	return socketCloser{transport.Websocket{
		Implementation: sockets{writeTimeout: l.WriteTimeout},
		InitFunc: func(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
			ctx, ack, err := initSocket(ctx, payload)
			if err == nil {
				ctx = slots.closeWhenIdle(ctx)
			}
			return ctx, ack, err
		},
		InitTimeout:           l.InitTimeout,
		PingPongInterval:      l.Ping, // graphql-transport-ws
		KeepAlivePingInterval: l.Ping, // graphql-ws
	}}
}

// initSocket authenticates a connection_init, closing with 4403 (4429 once the budget is spent,
// 4400 for a malformed payload) when it fails.
func initSocket(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	connect, _ := ctx.Value(connectKey{}).(Connect)
	if connect == nil {
		return transport.WithWebsocketCloseCode(ctx, closeForbidden), nil, errors.New("subscriptions are not served here")
	}
	sctx, err := connect(ctx, payload)
	if err == nil {
		return context.WithValue(sctx, overSocketKey{}, true), nil, nil
	}
	code := closeForbidden
	if e := apperr.As(err); e != nil && e.Kind == apperr.RateLimited {
		code = closeRateLimited
	} else if e != nil && e.Kind == apperr.Invalid {
		code = closeBadRequest
	}
	reason := err.Error()
	if len(reason) > 120 { // a close frame's reason holds 123 bytes
		reason = reason[:120]
	}
	return transport.AppendCloseReason(transport.WithWebsocketCloseCode(ctx, code), reason), nil, err
}

// overSocketKey marks the context of a WebSocket's subscriptions, which may end with an error
// message (transport.AddSubscriptionError; Server-Sent Events have none).
type overSocketKey struct{}

// socketCloser closes with 4400 a connection gqlgen leaves without a close frame: one whose
// connection_init payload is not a JSON object.
type socketCloser struct{ transport.Websocket }

type socketKey struct{}

func (t socketCloser) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	var s *socket
	t.Websocket.Do(w, r.WithContext(context.WithValue(r.Context(), socketKey{}, &s)), exec)
	if s != nil {
		s.closeUnanswered()
	}
}

// sockets accepts WebSockets over github.com/coder/websocket. The Origin is not checked here:
// package rest takes a session cookie only from trusted origins, and a bearer token from any (as
// CORS lets a token's requests come from any page).
type sockets struct{ writeTimeout time.Duration }

func (s sockets) Accept(w http.ResponseWriter, r *http.Request, o transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	for k, vs := range o.ResponseHeader {
		w.Header()[k] = append(w.Header()[k], vs...)
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: o.Subprotocols, InsecureSkipVerify: true})
	if err != nil {
		return nil, err
	}
	sock := &socket{conn: conn, writeTimeout: s.writeTimeout}
	if held, ok := r.Context().Value(socketKey{}).(**socket); ok {
		*held = sock
	}
	return sock, nil
}

// socket is one WebSocket as gqlgen's transport uses it.
type socket struct {
	conn         *websocket.Conn
	writeTimeout time.Duration

	mu       sync.Mutex
	wrote    bool // a message was written (the connection was acknowledged)
	closing  bool
	deadline *time.Timer
}

// Close closes the connection at once, unless the closing handshake WriteClose started runs.
func (s *socket) Close() error {
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		return nil
	}
	return s.conn.CloseNow()
}

func (s *socket) Subprotocol() string { return s.conn.Subprotocol() }

func (s *socket) SetReadLimit(limit int64) { s.conn.SetReadLimit(limit) }

// NextReader reads the next message; a normal close is transport.ErrWebsocketClosed.
func (s *socket) NextReader() (int, io.Reader, error) {
	typ, data, err := s.conn.Read(context.Background())
	switch websocket.CloseStatus(err) {
	case websocket.StatusNormalClosure, websocket.StatusNoStatusRcvd:
		return int(typ), nil, transport.ErrWebsocketClosed
	}
	if err != nil {
		return int(typ), nil, err
	}
	return int(typ), bytes.NewReader(data), nil
}

// WriteJSON writes a message within the write timeout; past it the connection is closed.
func (s *socket) WriteJSON(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if s.writeTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.writeTimeout)
		defer cancel()
	}
	s.mu.Lock()
	s.wrote = true
	s.mu.Unlock()
	return s.conn.Write(ctx, websocket.MessageText, data)
}

// WriteClose starts the closing handshake (in the background: it waits for the client's close
// frame), with graphql-transport-ws's codes for gqlgen's protocol errors.
func (s *socket) WriteClose(code int, reason string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return nil
	}
	s.closing = true
	if code == transport.WebsocketCloseProtocolError && s.conn.Subprotocol() == "graphql-transport-ws" {
		code = closeBadRequest
		if reason == "connection initialisation timeout" {
			code = closeInitTimeout
		}
	}
	go s.conn.Close(websocket.StatusCode(code), reason)
	return nil
}

// SetReadDeadline closes the connection at t unless it is set again (gqlgen's wait for a pong).
func (s *socket) SetReadDeadline(t time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.deadline != nil {
		s.deadline.Stop()
		s.deadline = nil
	}
	if !t.IsZero() {
		s.deadline = time.AfterFunc(time.Until(t), func() { s.conn.CloseNow() })
	}
	return nil
}

// closeUnanswered closes with 4400 a connection that was neither acknowledged nor closed.
func (s *socket) closeUnanswered() {
	s.mu.Lock()
	unanswered := !s.wrote && !s.closing
	s.mu.Unlock()
	if unanswered {
		s.WriteClose(closeBadRequest, "connection_init: the payload must be a JSON object")
	}
	s.SetReadDeadline(time.Time{})
}

// eventStream is gqlgen's Server-Sent Events transport, whose writes flush through the
// middleware's writers and fail past the write timeout.
type eventStream struct {
	transport.SSE
	writeTimeout time.Duration
}

func (t eventStream) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	sw := &streamWriter{ResponseWriter: w, rc: http.NewResponseController(w), timeout: t.writeTimeout, fail: cancel}
	t.SSE.Do(sw, r.WithContext(ctx), exec)
}

// streamWriter writes within the timeout, and ends the stream (fail) when a write fails.
type streamWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	fail    context.CancelFunc
}

func (w *streamWriter) Write(b []byte) (int, error) {
	if w.timeout > 0 {
		_ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	}
	n, err := w.ResponseWriter.Write(b)
	if err != nil {
		w.fail()
	}
	return n, err
}

func (w *streamWriter) Flush() {
	if w.rc.Flush() != nil {
		w.fail()
	}
}
