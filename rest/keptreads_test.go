package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/rest"
)

// TestKeptReadsAnswerWhileUnchanged: a read sent again to an unchanged database is answered from
// what the first one computed, at the cost of reading the database's version, the same
// bytes and headers; any write, through the API or to the database by another process, makes
// the next read compute again and see it.
func TestKeptReadsAnswerWhileUnchanged(t *testing.T) {
	e := testenv.New(t)
	ada, org := e.Bootstrap("ada@example.com", "Acme")
	space := createSpace(t, e, ada, org, map[string]any{"title": "Plans"})["id"].(string)
	path := "/v1/spaces/" + space
	query := `query($id: ID!) { space(id: $id) { id title } }`
	vars := map[string]any{"id": space}

	var first, again testenv.Response
	if computed := e.StatementsKeeping(func() { first = e.Do(ada, "GET", path, nil) }); computed < 2 {
		t.Fatalf("the first read sent %d statements", computed)
	}
	takeKept(t, e, func() { again = e.Do(ada, "GET", path, nil) })
	if !bytes.Equal(first.Body, again.Body) || first.Header.Get("Content-Type") != again.Header.Get("Content-Type") {
		t.Fatalf("the kept answer differs:\n%s %v\n%s %v", first.Body, first.Header, again.Body, again.Header)
	}
	if first.Header.Get("X-Request-Id") == again.Header.Get("X-Request-Id") {
		t.Fatal("a kept answer repeated the request id of the request that computed it")
	}
	e.GraphQL(ada, query, vars)
	takeKept(t, e, func() { e.GraphQL(ada, query, vars) })

	title := func(want string) {
		t.Helper()
		if got := e.Do(ada, "GET", path, nil).Map(t)["title"]; got != want {
			t.Fatalf("title read %v, want %q", got, want)
		}
		var out struct {
			Space struct{ Title string } `json:"space"`
		}
		if g := e.GraphQL(ada, query, vars); json.Unmarshal(g.Data, &out) != nil || out.Space.Title != want {
			t.Fatalf("GraphQL read %s, want the title %q", g.Data, want)
		}
	}
	e.Do(ada, "PATCH", path, map[string]any{"title": "Through the API"})
	title("Through the API")
	other := e.OpenAgain() // another process on the same database
	if _, err := other.Client.ExecContext(context.Background(), "UPDATE spaces SET title = 'By another process' WHERE id = '"+space+"'"); err != nil {
		t.Fatal(err)
	}
	title("By another process")

	metrics := string(e.Raw(testenv.Actor{}, "GET", "/metrics", "", nil).Body)
	for _, family := range []string{`bindery_read_cache_reads_total{result="taken"}`, `bindery_read_cache_reads_total{result="computed"}`,
		"bindery_read_cache_kept_total", "bindery_read_cache_bytes"} {
		if !regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(family) + ` [1-9]`).MatchString(metrics) {
			t.Errorf("/metrics has no positive %s", family)
		}
	}
}

// takeKept sends a read that was sent before until it is answered from what was kept, at the cost
// of reading the database's version (Env.VersionStatements). On PostgreSQL the version moves with
// every commit of the cluster (other test processes' too), so a few tries may compute it again.
func takeKept(t *testing.T, e *testenv.Env, read func()) {
	t.Helper()
	var sent []int64
	for range 50 {
		n := e.StatementsKeeping(read)
		if n == e.VersionStatements() {
			return
		}
		sent = append(sent, n)
	}
	t.Fatalf("a read sent again was never answered from what was kept: statements sent %v", sent)
}

// TestKeptReadsAreTheirSender: what one viewer's read found is never handed to another viewer
// of the same URL or query, nor to the same viewer with other parameters: the key is the whole
// request, credentials included.
func TestKeptReadsAreTheirSender(t *testing.T) {
	e := testenv.New(t)
	ada, org := e.Bootstrap("ada@example.com", "Acme")
	eve, _ := e.Bootstrap("eve@example.com", "Elsewhere")
	bob := e.User("bob@example.com", org, testenv.Role(viewer.RoleRead))
	space := createSpace(t, e, ada, org, map[string]any{"title": "Plans"})["id"].(string)
	e.Do(ada, "PATCH", "/v1/spaces/"+space, map[string]any{"defaultLevel": nil})
	for range 2 {
		if r := e.Do(ada, "GET", "/v1/spaces/"+space, nil); r.Status != http.StatusOK {
			t.Fatalf("Ada reads her space: %d %s", r.Status, r.Body)
		}
		for _, other := range []testenv.Actor{eve, bob, {}} {
			if r := e.Do(other, "GET", "/v1/spaces/"+space, nil); r.Status != http.StatusNotFound && r.Status != http.StatusUnauthorized {
				t.Fatalf("%s read a space she may not after Ada read it: %d %s", other.Email, r.Status, r.Body)
			}
			g := e.GraphQL(other, `query($id: ID!) { space(id: $id) { id title } }`, map[string]any{"id": space})
			if bytes.Contains(g.Data, []byte("Plans")) {
				t.Fatalf("%s read the space's title through GraphQL: %s", other.Email, g.Data)
			}
		}
	}
}

// TestKeptReadsRepeatNoWrite: a GraphQL mutation sent twice does its work twice.
func TestKeptReadsRepeatNoWrite(t *testing.T) {
	e := testenv.New(t)
	ada, org := e.Bootstrap("ada@example.com", "Acme")
	create := `mutation($org: ID!) { createSpace(organizationId: $org, input: {title: "Same"}) { id } }`
	var ids []string
	for range 2 {
		var out struct {
			CreateSpace struct{ ID string } `json:"createSpace"`
		}
		if g := e.GraphQL(ada, create, map[string]any{"org": org}); json.Unmarshal(g.Data, &out) != nil {
			t.Fatalf("createSpace answered %s", g.Data)
		}
		ids = append(ids, out.CreateSpace.ID)
	}
	if ids[0] == "" || ids[0] == ids[1] {
		t.Fatalf("the same mutation sent twice created %q", ids)
	}
}

// TestKeptReadsOfTheClockAreComputed: an answer that read the clock (a signed link that expires)
// is computed again at every request, so its expiry moves with the time.
func TestKeptReadsOfTheClockAreComputed(t *testing.T) {
	clock := testenv.NewClock(time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC))
	e := testenv.New(t, func(o *server.Options) { o.Clock = clock.Now })
	ada, org := e.Bootstrap("ada@example.com", "Acme")
	space := createSpace(t, e, ada, org, map[string]any{"title": "Plans"})["id"].(string)
	cr := e.Do(ada, "POST", "/v1/spaces/"+space+"/change-requests", nil).Map(t)["id"].(string)
	path := "/v1/spaces/" + space + "/change-requests/" + cr + "/pdf"
	first := e.Do(ada, "GET", path, nil).Map(t)["url"]
	if n := e.StatementsKeeping(func() { e.Do(ada, "GET", path, nil) }); n < 2 {
		t.Fatalf("a signed link read again sent %d statements: it was kept", n)
	}
	clock.Add(time.Hour)
	if again := e.Do(ada, "GET", path, nil).Map(t)["url"]; again == first {
		t.Fatalf("an hour later, the same signed link: %v", again)
	}
}

// TestKeptReadsChargeTheirCost: with rate limits on, a kept answer costs what computing it cost
// (a GraphQL query's complexity beyond its first point), and its X-RateLimit headers are the
// budget's of the moment, not those of the request that computed it.
func TestKeptReadsChargeTheirCost(t *testing.T) {
	clock := testenv.NewClock(time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC))
	e := testenv.New(t, func(o *server.Options) {
		o.RateLimits, o.Clock = ratelimit.Limits{Token: 1000, Anonymous: 100, Window: time.Hour}, clock.Now
	})
	ada, org := e.Bootstrap("ada@example.com", "Acme")
	query := `query($org: ID!) { organization(id: $org) { spaces(first: 50) { edges { node { id title } } } } }`
	body := map[string]any{"query": query, "variables": map[string]any{"org": org}}
	used := func() int {
		t.Helper()
		r := e.Do(ada, "POST", "/graphql", body)
		if r.Status != http.StatusOK {
			t.Fatalf("the query answered %d %s", r.Status, r.Body)
		}
		n, err := strconv.Atoi(r.Header.Get("X-RateLimit-Used"))
		if err != nil {
			t.Fatalf("X-RateLimit-Used: %q", r.Header.Get("X-RateLimit-Used"))
		}
		return n
	}
	first := used()
	second := used()
	third := used()
	if first < 2 || second-first != first || third-second != first {
		t.Fatalf("points used after each of three identical queries: %d, %d, %d; want each to cost %d", first, second, third, first)
	}
}

// TestKeptReadsOfASession: a browser session's read is kept like a token's, but its expiry is
// decided at each request's own time: the same read after it answers 401.
func TestKeptReadsOfASession(t *testing.T) {
	clock := testenv.NewClock(time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC))
	e := testenv.New(t, func(o *server.Options) { o.Clock = clock.Now })
	ada, org := e.Bootstrap("ada@example.com", "Acme")
	secret, err := accounts.CreateSession(context.Background(), e.Store.Client.Session,
		accounts.NewSession{UserID: ada.UserID, OrganizationID: org, ProviderID: "test", ExpiresAt: clock.Now().Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	read := func() testenv.Response {
		req, err := http.NewRequest("GET", e.Server.URL+"/v1/orgs/"+org, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.AddCookie(&http.Cookie{Name: rest.SessionCookie, Value: secret})
		return e.Send(req)
	}
	read()
	var again testenv.Response
	if takeKept(t, e, func() { again = read() }); again.Status != http.StatusOK {
		t.Fatalf("the session's read again: %d %s", again.Status, again.Body)
	}
	clock.Add(time.Hour)
	testenv.CheckError(t, read(), http.StatusUnauthorized)
}

// TestTokensKeptWithoutAnswers: a server that keeps no answers (--read-cache-mb 0) computes every
// read, but reads a token's row again only when the database changed since it last did: a read
// sent again costs the version and the space. A token revoked by another process is refused at
// its next request.
func TestTokensKeptWithoutAnswers(t *testing.T) {
	e := testenv.New(t, testenv.KeepingNoAnswers)
	ada, org := e.Bootstrap("ada@example.com", "Acme")
	path := "/v1/spaces/" + createSpace(t, e, ada, org, map[string]any{"title": "Plans"})["id"].(string)
	e.Do(ada, "GET", path, nil)
	var sent []int64
	for range 50 { // on PostgreSQL the version moves with other test processes' commits
		n := e.StatementsKeeping(func() {
			if r := e.Do(ada, "GET", path, nil); r.Status != http.StatusOK {
				t.Fatalf("read: %d %s", r.Status, r.Body)
			}
		})
		if n == e.VersionStatements()+1 {
			break
		}
		sent = append(sent, n)
	}
	if len(sent) == 50 {
		t.Fatalf("a read sent again never took its token's row kept: statements sent %v", sent)
	}
	if err := accounts.RevokeToken(context.Background(), e.OpenAgain().Client, ada.Token); err != nil {
		t.Fatal(err)
	}
	testenv.CheckError(t, e.Do(ada, "GET", path, nil), http.StatusUnauthorized)
}
