package testenv

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// EventStream is a GraphQL subscription over Server-Sent Events (POST /graphql with Accept:
// text/event-stream): C carries the data of each event, and is closed when the stream ends.
type EventStream struct {
	C    <-chan string
	body interface{ Close() error }
}

// OpenEventStream subscribes to query with vars at base's /graphql (base is http://host:port)
// through client, with the bearer token.
func OpenEventStream(tb testing.TB, client *http.Client, base, token, query string, vars map[string]any) *EventStream {
	tb.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest("POST", base+"/graphql", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		tb.Fatalf("SSE answered %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan string, 16)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				out <- data
			}
		}
	}()
	return &EventStream{C: out, body: resp.Body}
}

// Close ends the subscription: the client goes away.
func (s *EventStream) Close() { s.body.Close() }
