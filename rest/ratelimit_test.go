package rest_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/rest"
)

// limited starts a server with rate limits l, a clock the test moves, and 127.0.0.1 trusted as a
// proxy, so X-Forwarded-For gives each request the client address a test wants.
func limited(t *testing.T, l ratelimit.Limits) (*testenv.Env, *testenv.Clock) {
	t.Helper()
	clock := testenv.NewClock(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))
	e := testenv.New(t, func(o *server.Options) {
		o.RateLimits, o.Clock = l, clock.Now
		o.TrustedProxies = ratelimit.Proxies{netip.MustParsePrefix("127.0.0.1/32")}
	})
	return e, clock
}

// call sends a request to base (e's server or another) from the client address from (none:
// the loopback peer's).
func call(t *testing.T, e *testenv.Env, base, token, from, method, path, body string) testenv.Response {
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
	return e.Send(req)
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
func expectRefused(t *testing.T, r testenv.Response, clock *testenv.Clock, names ...string) budget {
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
	r := call(t, e, base, admin.Token, "", "GET", "/v1/user", "")
	start := clock.Now()
	if got, want := budgetOf(t, r), (budget{12, 11, 1, start.Add(time.Hour).Unix(), "core"}); r.Status != 200 || got != want {
		t.Fatalf("first read: %d %+v, want 200 %+v", r.Status, got, want)
	}
	clock.Set(start.Add(10 * time.Minute))
	r = call(t, e, base, admin.Token, "", "POST", "/v1/orgs/"+org+"/spaces", `{"title":"Docs"}`)
	if b := budgetOf(t, r); r.Status != 201 || b.used != 6 || b.remaining != 6 {
		t.Fatalf("a write costs %d (%d %s), want 5", b.used-1, r.Status, r.Body)
	}
	for range 6 {
		if r = call(t, e, base, admin.Token, "", "GET", "/v1/orgs", ""); r.Status != 200 {
			t.Fatalf("read within the budget: %d %s", r.Status, r.Body)
		}
	}
	t.Run("ErrOverBudget", func(t *testing.T) {
		r := call(t, e, base, admin.Token, "", "GET", "/v1/orgs", "")
		b := expectRefused(t, r, clock, "token", "12 points per hour", "core")
		if b.remaining != 0 || b.used != 12 || b.reset != start.Add(time.Hour).Unix() {
			t.Errorf("headers of the refusal: %+v", b)
		}
		if w := r.Header.Get("Retry-After"); w != strconv.Itoa(50*60) {
			t.Errorf("Retry-After %s, want the 50 minutes left", w)
		}
	})
	t.Run("ErrRefusedWriteChangesNothing", func(t *testing.T) {
		expectRefused(t, call(t, e, base, admin.Token, "", "POST", "/v1/orgs/"+org+"/spaces", `{"title":"More"}`), clock)
		if n := e.Store.Client.Space.Query().CountX(accounts.System(context.Background())); n != 1 {
			t.Errorf("%d spaces after a refused create, want 1", n)
		}
	})
	t.Run("OKOtherTokenOwnBudget", func(t *testing.T) {
		bob := e.User("bob@example.com", org, nil)
		if r := call(t, e, base, bob.Token, "", "GET", "/v1/user", ""); r.Status != 200 || budgetOf(t, r).used != 1 {
			t.Fatalf("another token: %d %s", r.Status, r.Body)
		}
	})
	t.Run("OKAfterRetryAfter", func(t *testing.T) {
		clock.Set(start.Add(time.Hour))
		r := call(t, e, base, admin.Token, "", "GET", "/v1/orgs", "")
		if b := budgetOf(t, r); r.Status != 200 || b.used != 1 || b.reset != start.Add(2*time.Hour).Unix() {
			t.Fatalf("after the window: %d %+v", r.Status, b)
		}
	})
}

func TestRateLimitAnonymous(t *testing.T) {
	e, clock := limited(t, ratelimit.Limits{Token: 100, Anonymous: 30, Sites: 2, Window: time.Hour})
	admin, _ := e.Bootstrap("ada@example.com", "Acme")
	base := e.Server.URL
	t.Run("OKPerAddress", func(t *testing.T) {
		for i := range 30 {
			r := call(t, e, base, "", "198.51.100.1", "GET", "/v1/user", "")
			if b := budgetOf(t, r); r.Status != 401 || b.used != i+1 || b.limit != 30 {
				t.Fatalf("request %d without a token: %d %+v", i+1, r.Status, b)
			}
		}
		expectRefused(t, call(t, e, base, "", "198.51.100.1", "GET", "/v1/user", ""), clock, "client address", "30 points per hour")
		if r := call(t, e, base, "", "198.51.100.2", "GET", "/v1/user", ""); r.Status != 401 || budgetOf(t, r).used != 1 {
			t.Fatalf("another address shares the budget: %d %s", r.Status, r.Body)
		}
		if r := call(t, e, base, "", "2001:db8:1:2::7", "GET", "/v1/", ""); budgetOf(t, r).used != 1 {
			t.Fatal("first request of an IPv6 client")
		}
		if r := call(t, e, base, "", "2001:db8:1:2::8", "GET", "/v1/", ""); budgetOf(t, r).used != 2 {
			t.Fatal("an IPv6 /64 is one client")
		}
	})
	t.Run("ErrFailedAuthCostsMore", func(t *testing.T) {
		for i := range 3 {
			r := call(t, e, base, "bdy_wrong", "198.51.100.3", "GET", "/v1/user", "")
			if b := budgetOf(t, r); r.Status != 401 || b.used != 10*(i+1) {
				t.Fatalf("wrong token %d: %d %+v, want 401 costing 10", i+1, r.Status, b)
			}
		}
		expectRefused(t, call(t, e, base, "bdy_wrong", "198.51.100.3", "GET", "/v1/user", ""), clock, "client address")
		if r := call(t, e, base, "bdy_other", "198.51.100.3", "POST", "/graphql", `{"query":"{ viewer { id } }"}`); budgetOf(t, r).used != 10 {
			t.Fatalf("GraphQL, a budget of its own: %d %+v", r.Status, budgetOf(t, r))
		}
		r := call(t, e, base, admin.Token, "198.51.100.3", "GET", "/v1/user", "")
		if b := budgetOf(t, r); r.Status != 200 || b.limit != 100 {
			t.Fatalf("a valid token from that address: %d %+v, want its own budget", r.Status, b)
		}
	})
	t.Run("OKSitesAndUnmetered", func(t *testing.T) {
		r := call(t, e, base, "", "198.51.100.4", "GET", "/sites/nothing/", "")
		if b := budgetOf(t, r); r.Status != 404 || b.resource != "sites" || b.limit != 2 {
			t.Fatalf("a site: %d %+v", r.Status, b)
		}
		call(t, e, base, "", "198.51.100.4", "GET", "/sites/nothing/", "")
		expectRefused(t, call(t, e, base, "", "198.51.100.4", "GET", "/sites/nothing/", ""), clock, "sites")
		if r := call(t, e, base, "", "198.51.100.4", "GET", "/v1/", ""); budgetOf(t, r).resource != "core" {
			t.Fatal("sites and the API share a budget")
		}
		if r := call(t, e, base, "", "198.51.100.4", "GET", "/sites/~assets/site.css", ""); r.Header.Get("X-RateLimit-Limit") != "" {
			t.Fatalf("a static asset is metered: %d %v", r.Status, r.Header)
		}
	})
	t.Run("OKSiteHostname", func(t *testing.T) {
		req, _ := http.NewRequest("GET", base+"/", nil)
		req.Host = "docs.example.com"
		req.Header.Set("X-Forwarded-For", "198.51.100.6")
		if r := e.Send(req); budgetOf(t, r).resource != "sites" {
			t.Fatalf("a site's own hostname: %d %v", r.Status, r.Header)
		}
	})
	t.Run("OKRouteWithoutCredentials", func(t *testing.T) {
		r := call(t, e, base, admin.Token, "198.51.100.7", "GET", "/v1/orgs/nothing/sso", "")
		if b := budgetOf(t, r); b.limit != 30 || b.used != 1 {
			t.Fatalf("%d %+v, want charged to the address, the token unused there", r.Status, b)
		}
	})
	t.Run("OKUnknownPathWithToken", func(t *testing.T) {
		r := call(t, e, base, admin.Token, "198.51.100.5", "GET", "/v1/nothing/here", "")
		if b := budgetOf(t, r); r.Status != 404 || b.limit != 100 {
			t.Fatalf("%d %+v, want 404 charged to the token", r.Status, b)
		}
	})
}

func TestRateLimitGraphQLCost(t *testing.T) {
	e, clock := limited(t, ratelimit.Limits{Token: 200, Anonymous: 100, Window: time.Hour})
	admin, _ := e.Bootstrap("ada@example.com", "Acme")
	base := e.Server.URL
	used := func(t *testing.T, query string) int {
		t.Helper()
		r := call(t, e, base, admin.Token, "", "POST", "/graphql", `{"query":`+strconv.Quote(query)+`}`)
		if r.Status != 200 || strings.Contains(string(r.Body), `"errors"`) {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
		b := budgetOf(t, r)
		if b.resource != "graphql" {
			t.Fatalf("resource %q", b.resource)
		}
		return b.used
	}
	const big = `{ organizations(first: 1000) { edges { node { id title } } } }`
	if u := used(t, `{ viewer { id } }`); u != 1 {
		t.Fatalf("a small query costs %d, want 1", u)
	}
	before := used(t, `{ viewer { id } }`)
	cost := used(t, big) - before
	if cost <= 1 {
		t.Fatalf("a connection of 1,000 costs %d", cost)
	}
	if again := used(t, big); again-before != 2*cost {
		t.Fatalf("the same query cost %d then %d", cost, again-before-cost)
	}
	m := used(t, `mutation { createOrganization(input: {title: "Beta"}) { id } }`)
	if m-(before+2*cost) != ratelimit.WriteCost {
		t.Fatalf("a mutation costs %d, want %d", m-(before+2*cost), ratelimit.WriteCost)
	}
	t.Run("ErrCostOverWhatIsLeft", func(t *testing.T) {
		for 200-m >= cost {
			m = used(t, big)
		}
		r := call(t, e, base, admin.Token, "", "POST", "/graphql", `{"query":`+strconv.Quote(big)+`}`)
		expectRefused(t, r, clock, "graphql", "this request costs")
		if b := budgetOf(t, r); b.used != m+1 {
			t.Errorf("a refused query was charged %d, want only its point on arrival", b.used-m)
		}
		if u := used(t, `{ viewer { id } }`); u != m+2 {
			t.Errorf("a small query still fits: used %d, want %d", u, m+2)
		}
	})
	t.Run("OKRESTBudgetApart", func(t *testing.T) {
		if r := call(t, e, base, admin.Token, "", "GET", "/v1/user", ""); r.Status != 200 || budgetOf(t, r).used != 1 {
			t.Fatalf("REST after GraphQL: %d %s", r.Status, r.Body)
		}
	})
}

// TestRateLimitSharedByTwoServers: two servers on one database (two processes' worth of
// limiters) spend one budget.
func TestRateLimitSharedByTwoServers(t *testing.T) {
	l := ratelimit.Limits{Token: 10, Anonymous: 100, Window: time.Hour}
	e, clock := limited(t, l)
	admin, _ := e.Bootstrap("ada@example.com", "Acme")
	o := server.Defaults("")
	o.RateLimits, o.Clock = l, clock.Now
	h, _ := server.New(e.Store, o)
	second := httptest.NewServer(h)
	defer second.Close()
	for i := range 10 {
		base := []string{e.Server.URL, second.URL}[i%2]
		if r := call(t, e, base, admin.Token, "", "GET", "/v1/user", ""); r.Status != 200 {
			t.Fatalf("request %d: %d %s", i+1, r.Status, r.Body)
		}
	}
	for _, base := range []string{e.Server.URL, second.URL} {
		expectRefused(t, call(t, e, base, admin.Token, "", "GET", "/v1/user", ""), clock, "10 points per hour")
	}
}

// TestRateLimitStatements: a token's points reach the database once a hundredth of its budget
// is spent, so 100 reads under a budget of 5,000 cost 2 statements more than without limits.
func TestRateLimitStatements(t *testing.T) {
	count := func(l ratelimit.Limits) int64 {
		e, _ := limited(t, l)
		admin, _ := e.Bootstrap("ada@example.com", "Acme")
		call(t, e, e.Server.URL, admin.Token, "", "GET", "/v1/user", "") // the first reads memberships
		return e.Statements(func() {
			for range 100 {
				call(t, e, e.Server.URL, admin.Token, "", "GET", "/v1/user", "")
			}
		})
	}
	off, on := count(ratelimit.Off), count(ratelimit.DefaultLimits)
	if on-off != 2 {
		t.Fatalf("100 reads cost %d statements with limits, %d without: want 2 more", on, off)
	}
}

// TestRateLimitRefusedBeforeBody: a client whose budget is spent is refused before its body is
// read. Each request declares a body of a megabyte and sends its first bytes only: a server that
// read it before refusing would wait for the rest until the client gives up.
func TestRateLimitRefusedBeforeBody(t *testing.T) {
	e, clock := limited(t, ratelimit.Limits{Token: 2, Anonymous: 100, Window: time.Hour})
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	for _, path := range []string{"/v1/user", "/graphql"} { // each resource's two points
		for range 2 {
			call(t, e, e.Server.URL, admin.Token, "", "POST", path, `{"query":"{ viewer { id } }"}`)
		}
	}
	for _, c := range []struct{ name, path, resource string }{
		{"ErrREST", "/v1/orgs/" + org + "/spaces", "core"},
		{"ErrGraphQL", "/graphql", "graphql"},
	} {
		t.Run(c.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			req, err := http.NewRequest("POST", e.Server.URL+c.path, &stalledBody{release: release})
			if err != nil {
				t.Fatal(err)
			}
			req.ContentLength = 1 << 20
			req.Header.Set("Authorization", "Bearer "+admin.Token)
			req.Header.Set("Content-Type", "application/json")
			res, err := e.Server.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			expectRefused(t, testenv.Response{Status: res.StatusCode, Header: res.Header, Body: body}, clock, c.resource)
		})
	}
}

// stalledBody sends the first bytes of a JSON body, then nothing until release is closed, or for
// 10 seconds before it fails.
type stalledBody struct {
	sent    bool
	release <-chan struct{}
}

func (b *stalledBody) Read(p []byte) (int, error) {
	if !b.sent {
		b.sent = true
		return copy(p, `{"query":"`), nil
	}
	select {
	case <-b.release:
	case <-time.After(10 * time.Second):
	}
	return 0, io.ErrUnexpectedEOF
}

// TestRateLimitSession: a browser signed in by single sign-on spends its session's own budget,
// over real HTTP with the session cookie the sign-in set: reads 1 point, writes 5, GraphQL apart,
// then 429 naming the session; another session and the address keep theirs, and a session
// cookie that is refused costs the client address a failed authentication.
func TestRateLimitSession(t *testing.T) {
	clock := testenv.NewClock(time.Now().UTC().Truncate(time.Second)) // SAML assertions are checked against it
	f := newSSOFixture(t, func(o *server.Options) {
		o.RateLimits, o.Clock = ratelimit.Limits{Token: 12, Anonymous: 100, Window: time.Hour}, clock.Now
	})
	start := f.provider["service"].(map[string]any)["startURL"].(string)
	signedIn := func(email string) *browser {
		f.idp.SignIn(email, email)
		b := f.browser(t)
		b.signIn(start, "", f.e.Server.URL+"/")
		return b
	}
	bea := signedIn("bea@example.com")
	send := func(b *browser, method, path, body string) testenv.Response {
		t.Helper()
		status, out, h := b.do(method, path, f.e.Server.URL, "application/json", strings.NewReader(body))
		return testenv.Response{Status: status, Body: out, Header: h}
	}
	spent := func(t *testing.T, r testenv.Response, want budget) {
		t.Helper()
		if got := budgetOf(t, r); r.Status/100 != 2 || got.limit != want.limit || got.used != want.used || got.resource != want.resource {
			t.Fatalf("%d %s: budget %+v, want %+v", r.Status, r.Body, got, want)
		}
	}
	spent(t, send(bea, "GET", "/v1/user", ""), budget{limit: 12, used: 1, resource: "core"})
	spent(t, send(bea, "POST", "/v1/orgs/"+f.org+"/ping", ""), budget{limit: 12, used: 6, resource: "core"})
	spent(t, send(bea, "POST", "/graphql", `{"query":"{ viewer { id } }"}`), budget{limit: 12, used: 1, resource: "graphql"})
	for used := 7; used <= 12; used++ {
		spent(t, send(bea, "GET", "/v1/user", ""), budget{limit: 12, used: used, resource: "core"})
	}
	t.Run("ErrOverBudget", func(t *testing.T) {
		expectRefused(t, send(bea, "GET", "/v1/user", ""), clock, "this session", "12 points per hour", "core")
	})
	t.Run("OKOtherSessionOwnBudget", func(t *testing.T) {
		spent(t, send(signedIn("cal@example.com"), "GET", "/v1/user", ""), budget{limit: 12, used: 1, resource: "core"})
	})
	t.Run("OKTokenOwnBudget", func(t *testing.T) {
		dan := f.e.User("dan@example.com", f.org, nil)
		spent(t, call(t, f.e, f.e.Server.URL, dan.Token, "", "GET", "/v1/user", ""), budget{limit: 12, used: 1, resource: "core"})
	})
	t.Run("ErrRefusedSessionChargesAddress", func(t *testing.T) {
		refused := func() budget {
			req, err := http.NewRequest("GET", f.e.Server.URL+"/v1/user", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.AddCookie(&http.Cookie{Name: rest.SessionCookie, Value: "not-a-session"})
			r := f.e.Send(req)
			testenv.CheckError(t, r, http.StatusUnauthorized)
			return budgetOf(t, r)
		}
		before, after := refused(), refused() // the address also paid for the sign-ins' requests
		if after.limit != 100 || after.used-before.used != ratelimit.FailedAuthCost {
			t.Fatalf("a refused session cost the address %d of %d, want %d", after.used-before.used, after.limit, ratelimit.FailedAuthCost)
		}
	})
}
