package rest_test

import (
	"context"
	"io"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testenv"
)

// limited starts a server with rate limits l, a clock the test moves, and 127.0.0.1 trusted as a
// proxy, so X-Forwarded-For gives each request the client address a test wants.
func limited(t *testing.T, l ratelimit.Limits) (*testenv.Env, *testClock) {
	t.Helper()
	clock := &testClock{now: time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)}
	e := testenv.New(t, func(o *server.Options) {
		o.RateLimits, o.Clock = l, clock.Now
		o.TrustedProxies = ratelimit.Proxies{netip.MustParsePrefix("127.0.0.1/32")}
	})
	return e, clock
}

// call sends a request to base from the client address from (none: the loopback peer's).
func call(t *testing.T, base, token, from, method, path, body string) testenv.Response {
	t.Helper()
	req, err := http.NewRequest(method, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if from != "" {
		req.Header.Set("X-Forwarded-For", from)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return testenv.Response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// budget is what the X-RateLimit-* headers of an answer say.
type budget struct {
	limit, remaining, used int
	reset                  int64
	resource               string
}

func budgetOf(t *testing.T, r testenv.Response) budget {
	t.Helper()
	num := func(name string) int64 {
		n, err := strconv.ParseInt(r.Header.Get(name), 10, 64)
		if err != nil {
			t.Fatalf("%s: %q (%d %s)", name, r.Header.Get(name), r.Status, r.Body)
		}
		return n
	}
	return budget{limit: int(num("X-RateLimit-Limit")), remaining: int(num("X-RateLimit-Remaining")),
		used: int(num("X-RateLimit-Used")), reset: num("X-RateLimit-Reset"), resource: r.Header.Get("X-RateLimit-Resource")}
}

// expectRefused checks a 429: the error body naming the budget, and a Retry-After that ends
// the window.
func expectRefused(t *testing.T, r testenv.Response, clock *testClock, names ...string) budget {
	t.Helper()
	msg := testenv.CheckError(t, r, http.StatusTooManyRequests)
	for _, n := range append(names, "rate limit exceeded") {
		if !strings.Contains(msg, n) {
			t.Errorf("the message does not name %q: %s", n, msg)
		}
	}
	b := budgetOf(t, r)
	wait, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil || wait < 1 || clock.Now().Unix()+int64(wait) != b.reset {
		t.Errorf("Retry-After %q does not reach X-RateLimit-Reset %d from %d", r.Header.Get("Retry-After"), b.reset, clock.Now().Unix())
	}
	return b
}

func TestRateLimitToken(t *testing.T) {
	e, clock := limited(t, ratelimit.Limits{Token: 12, Anonymous: 100, Window: time.Hour})
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	base := e.Server.URL
	r := call(t, base, admin.Token, "", "GET", "/v1/user", "")
	start := clock.Now()
	if got, want := budgetOf(t, r), (budget{12, 11, 1, start.Add(time.Hour).Unix(), "core"}); r.Status != 200 || got != want {
		t.Fatalf("first read: %d %+v, want 200 %+v", r.Status, got, want)
	}
	clock.Set(start.Add(10 * time.Minute))
	r = call(t, base, admin.Token, "", "POST", "/v1/orgs/"+org+"/spaces", `{"title":"Docs"}`)
	if b := budgetOf(t, r); r.Status != 201 || b.used != 6 || b.remaining != 6 {
		t.Fatalf("a write costs %d (%d %s), want 5", b.used-1, r.Status, r.Body)
	}
	for range 6 {
		if r = call(t, base, admin.Token, "", "GET", "/v1/orgs", ""); r.Status != 200 {
			t.Fatalf("read within the budget: %d %s", r.Status, r.Body)
		}
	}
	t.Run("ErrOverBudget", func(t *testing.T) {
		r := call(t, base, admin.Token, "", "GET", "/v1/orgs", "")
		b := expectRefused(t, r, clock, "token", "12 points per hour", "core")
		if b.remaining != 0 || b.used != 12 || b.reset != start.Add(time.Hour).Unix() {
			t.Errorf("headers of the refusal: %+v", b)
		}
		if w := r.Header.Get("Retry-After"); w != strconv.Itoa(50*60) {
			t.Errorf("Retry-After %s, want the 50 minutes left", w)
		}
	})
	t.Run("ErrRefusedWriteChangesNothing", func(t *testing.T) {
		expectRefused(t, call(t, base, admin.Token, "", "POST", "/v1/orgs/"+org+"/spaces", `{"title":"More"}`), clock)
		if n := e.Store.Client.Space.Query().CountX(accounts.System(context.Background())); n != 1 {
			t.Errorf("%d spaces after a refused create, want 1", n)
		}
	})
	t.Run("OKOtherTokenOwnBudget", func(t *testing.T) {
		bob := e.User("bob@example.com", org, nil)
		if r := call(t, base, bob.Token, "", "GET", "/v1/user", ""); r.Status != 200 || budgetOf(t, r).used != 1 {
			t.Fatalf("another token: %d %s", r.Status, r.Body)
		}
	})
	t.Run("OKAfterRetryAfter", func(t *testing.T) {
		clock.Set(start.Add(time.Hour))
		r := call(t, base, admin.Token, "", "GET", "/v1/orgs", "")
		if b := budgetOf(t, r); r.Status != 200 || b.used != 1 || b.reset != start.Add(2*time.Hour).Unix() {
			t.Fatalf("after the window: %d %+v", r.Status, b)
		}
	})
}
