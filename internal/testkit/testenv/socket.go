package testenv

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Socket is a client of GraphQL subscriptions over WebSocket (graphql-transport-ws), as Apollo
// Client and urql speak it.
type Socket struct {
	tb   testing.TB
	Conn *websocket.Conn
}

// DialSocket opens a WebSocket to base's /graphql (base is http://host:port) with header.
func DialSocket(tb testing.TB, base string, header http.Header) *Socket {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: header})
	if err != nil {
		tb.Fatalf("open the WebSocket: %v", err)
	}
	conn.SetReadLimit(32 << 20)
	tb.Cleanup(func() { conn.CloseNow() })
	return &Socket{tb: tb, Conn: conn}
}

// Connect opens a socket to the server and has it acknowledged with the actor's token, for the
// test tb.
func (e *Env) Connect(tb testing.TB, a Actor) *Socket {
	tb.Helper()
	s := DialSocket(tb, e.Server.URL, nil)
	s.Init(map[string]any{"Authorization": "Bearer " + a.Token})
	return s
}

// Send writes a message.
func (s *Socket) Send(msg any) {
	s.tb.Helper()
	raw, err := json.Marshal(msg)
	if err != nil {
		s.tb.Fatal(err)
	}
	s.SendRaw(raw)
}

// SendRaw writes a message as it is.
func (s *Socket) SendRaw(raw []byte) {
	s.tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Conn.Write(ctx, websocket.MessageText, raw); err != nil {
		s.tb.Fatalf("write to the WebSocket: %v", err)
	}
}

// Read reads the next message other than a ping (which it answers) or a pong, within timeout.
func (s *Socket) Read(timeout time.Duration) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		_, raw, err := s.Conn.Read(ctx)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, err
		}
		switch m["type"] {
		case "ping":
			s.Send(map[string]any{"type": "pong"})
		case "pong":
		default:
			return m, nil
		}
	}
}

// Init sends connection_init with payload and fails unless the server acknowledges it.
func (s *Socket) Init(payload any) {
	s.tb.Helper()
	s.Send(map[string]any{"type": "connection_init", "payload": payload})
	m, err := s.Read(10 * time.Second)
	if err != nil || m["type"] != "connection_ack" {
		s.tb.Fatalf("connection_init answered %v, %v", m, err)
	}
}

// Subscribe starts the subscription id.
func (s *Socket) Subscribe(id, query string, vars map[string]any) {
	s.tb.Helper()
	s.Send(map[string]any{"type": "subscribe", "id": id, "payload": map[string]any{"query": query, "variables": vars}})
}

// Next returns the next message of the subscription id (a next, error or complete), skipping
// other subscriptions' messages, within timeout.
func (s *Socket) Next(id string, timeout time.Duration) map[string]any {
	s.tb.Helper()
	deadline := time.Now().Add(timeout)
	for {
		m, err := s.Read(time.Until(deadline))
		if err != nil {
			s.tb.Fatalf("waiting for subscription %s: %v", id, err)
		}
		if m["id"] == id {
			return m
		}
	}
}

// Data returns the data of the next message of the subscription id, failing unless it is a next
// without errors.
func (s *Socket) Data(id string, timeout time.Duration) map[string]any {
	s.tb.Helper()
	m := s.Next(id, timeout)
	p, _ := m["payload"].(map[string]any)
	data, _ := p["data"].(map[string]any)
	if m["type"] != "next" || p["errors"] != nil || data == nil {
		s.tb.Fatalf("subscription %s: want data, got %v", id, m)
	}
	return data
}

// Closed reads until the server closes the connection (within timeout), and returns the close
// code (-1 when the connection ended without a close frame).
func (s *Socket) Closed(timeout time.Duration) websocket.StatusCode {
	s.tb.Helper()
	deadline := time.Now().Add(timeout)
	for {
		_, err := s.Read(time.Until(deadline))
		if err != nil {
			if time.Now().After(deadline) {
				s.tb.Fatalf("the server did not close the WebSocket within %s", timeout)
			}
			return websocket.CloseStatus(err)
		}
	}
}
