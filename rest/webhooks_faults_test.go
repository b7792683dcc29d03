package rest_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// holdUntilGone answers nothing until the client goes away (its request's context ends once the
// body is read).
func holdUntilGone(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	<-r.Context().Done()
}

// closeMidAnswer sends half a status line and closes the connection.
func closeMidAnswer(w http.ResponseWriter, r *http.Request) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	buf.WriteString("HTTP/1.1 20")
	buf.Flush()
	conn.Close()
}

// huge500 answers 500 with a body of 10 MB.
func huge500(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Length", "10485760")
	w.WriteHeader(http.StatusInternalServerError)
	chunk := []byte(strings.Repeat("x", 64<<10))
	for range 160 {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// trickle200 answers 200 at once, then a byte every 20 ms until the client goes away.
func trickle200(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	for {
		if _, err := w.Write([]byte("y")); err != nil || rc.Flush() != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestWebhookReceiverFaults delivers to receivers that misbehave, over real HTTP on loopback,
// with the attempt's deadline shortened to 1 s: each attempt ends by the deadline, what it met is
// in the delivery log (attempts, status, last status code, an excerpt of at most 1,000
// characters), and a failed one is retried at the next attempt's time.
func TestWebhookReceiverFaults(t *testing.T) {
	const deadline = time.Second
	clock := testenv.NewClock(time.Now().UTC())
	e := testenv.New(t, allowFetch(t, "127.0.0.2"), func(o *server.Options) {
		o.Clock, o.Jobs.Clock, o.WebhookTimeout = clock.Now, clock.Now, deadline
	})
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	base := "/v1/orgs/" + org + "/webhooks"
	// localhost resolves to 127.0.0.1, which --fetch-allow does not name: the guard refuses it.
	refused := fetchtest.Serve(t, "127.0.0.1", http.HandlerFunc(holdUntilGone))
	_, refusedPort, _ := net.SplitHostPort(refused.Listener.Addr().String())

	for _, c := range []struct {
		name    string
		url     string
		status  string // after the first attempt
		code    any    // lastStatusCode: nil when no answer came
		says    string // in lastResponse
		keeps   int    // bytes of lastResponse, when not 0
		minTook time.Duration
	}{
		{"TimesOut", fetchtest.Serve(t, "127.0.0.2", http.HandlerFunc(holdUntilGone)).URL, "pending", nil, "no answer within 1s", 0, deadline},
		{"ClosesMidAnswer", fetchtest.Serve(t, "127.0.0.2", http.HandlerFunc(closeMidAnswer)).URL, "pending", nil, "could not connect", 0, 0},
		{"Huge500", fetchtest.Serve(t, "127.0.0.2", http.HandlerFunc(huge500)).URL, "pending", float64(500), "HTTP 500: xxx", 1000, 0},
		// The status decides; the body is read for the log until the deadline.
		{"Trickle200", fetchtest.Serve(t, "127.0.0.2", http.HandlerFunc(trickle200)).URL, "succeeded", float64(200), "cut off", 0, deadline},
		{"NameOfRefusedAddress", "http://localhost:" + refusedPort + "/hook", "pending", nil, "is not a public address", 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			hook := e.Do(admin, "POST", base, map[string]any{"url": c.url}).Map(t)["id"].(string)
			if r := e.Do(admin, "POST", base+"/"+hook+"/test", nil); r.Status != http.StatusCreated {
				t.Fatalf("test event: %d %s", r.Status, r.Body)
			}
			start := time.Now()
			deliverEvents(t, e)
			took := time.Since(start)
			if took < c.minTook || took > deadline+3*time.Second {
				t.Errorf("the attempt took %s; the deadline is %s", took, deadline)
			}
			d := lastDelivery(t, e, admin, base+"/"+hook)
			if d["attempts"] != float64(1) || d["status"] != c.status || d["lastStatusCode"] != c.code ||
				!strings.Contains(d["lastResponse"].(string), c.says) || utf8.RuneCountInString(d["lastResponse"].(string)) > 1000 ||
				c.keeps > 0 && len(d["lastResponse"].(string)) != c.keeps {
				t.Fatalf("after the first attempt: %v", d)
			}
			if c.status == "succeeded" {
				if d["nextAttemptAt"] != nil {
					t.Fatalf("a succeeded delivery has a next attempt: %v", d)
				}
				return
			}
			wantNext(t, d, clock.Now(), 5*time.Second)
			clock.Add(6 * time.Second) // past the first retry's time, jitter included
			deliverEvents(t, e)
			d = lastDelivery(t, e, admin, base+"/"+hook)
			if d["attempts"] != float64(2) || d["status"] != "pending" {
				t.Fatalf("after the retry: %v", d)
			}
			wantNext(t, d, clock.Now(), 5*time.Minute)
		})
	}

}

// lastDelivery returns the newest entry of a webhook's delivery log.
func lastDelivery(t *testing.T, e *testenv.Env, admin testenv.Actor, hook string) map[string]any {
	t.Helper()
	r := e.Do(admin, "GET", hook+"/deliveries", nil)
	items, _ := r.Map(t)["items"].([]any)
	if r.Status != http.StatusOK || len(items) == 0 {
		t.Fatalf("delivery log: %d %s", r.Status, r.Body)
	}
	return items[0].(map[string]any)
}

// wantNext checks a delivery's next attempt is after delay from now, with up to a tenth of jitter.
func wantNext(t *testing.T, d map[string]any, now time.Time, delay time.Duration) {
	t.Helper()
	s, _ := d["nextAttemptAt"].(string)
	next, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("nextAttemptAt %q: %v (%v)", s, err, d)
	}
	if at := next.Sub(now); at < delay-time.Second || at > delay+delay/10+time.Second {
		t.Fatalf("the next attempt is %s from now, want %s with up to a tenth more", at, delay)
	}
}
