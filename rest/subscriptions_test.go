package rest_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/rest"
)

// Subscriptions, through a real WebSocket client (graphql-transport-ws) and a real reader of
// Server-Sent Events, after writes through the API.

const (
	subCR      = `subscription($s: ID!) { changeRequestUpdated(spaceId: $s) { id number status subject } }`
	subComment = `subscription($s: ID!) { commentAdded(spaceId: $s) { id body } }`
	subContent = `subscription($s: ID!) { spaceContentUpdated(spaceId: $s) { eventId space { id } revisionBefore revisionAfter changedPages } }`
	subSite    = `subscription($s: ID!) { siteUpdated(siteId: $s) { id published } }`
	subSpec    = `subscription($o: ID!) { openAPISpecProcessed(organizationId: $o) { slug processingState } }`
)

// wait is how long a test waits for an event: the feed polls every 250 ms on SQLite.
const wait = 10 * time.Second

// subscriptionLimits are the limits of the tests' servers: short timeouts, few subscriptions.
func subscriptionLimits(o *server.Options) {
	o.Limits.Subscriptions.InitTimeout = 500 * time.Millisecond
	o.Limits.Subscriptions.WriteTimeout = 300 * time.Millisecond
	o.Limits.Subscriptions.PerConnection = 5
}

func TestSubscriptions(t *testing.T) {
	e := testenv.New(t, subscriptionLimits)
	admin, org := e.Bootstrap("ada@acme.io", "Acme")
	reader := e.User("rae@acme.io", org, testenv.Role(viewer.RoleRead))
	outsider, _ := e.Bootstrap("zed@zeta.io", "Zeta")
	space := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Guides"}).Map(t)["id"].(string)
	site := e.Do(admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs", "spaces": []string{space}}).Map(t)["id"].(string)
	e.RunJobs()

	t.Run("OKEachSubscriptionOverWebSocket", func(t *testing.T) {
		s := e.Connect(t, admin)
		s.Subscribe("cr", subCR, map[string]any{"s": space})
		s.Subscribe("comment", subComment, map[string]any{"s": space})
		s.Subscribe("content", subContent, map[string]any{"s": space})
		s.Subscribe("site", subSite, map[string]any{"s": site})
		s.Subscribe("spec", subSpec, map[string]any{"o": org})
		time.Sleep(200 * time.Millisecond) // the subscriptions start before the writes

		cr := e.Do(admin, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Draft"}).Map(t)
		if got := s.Data("cr", wait)["changeRequestUpdated"].(map[string]any); got["id"] != cr["id"] || got["status"] != "OPEN" {
			t.Fatalf("changeRequestUpdated: %v, want %v", got, cr["id"])
		}
		e.Do(admin, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "Typo"}})
		if got := s.Data("comment", wait)["commentAdded"].(map[string]any); !strings.Contains(got["body"].(string), "Typo") {
			t.Fatalf("commentAdded: %v", got)
		}
		page := map[string]any{"path": "intro.md", "base64": base64.StdEncoding.EncodeToString([]byte("# Intro\n\nHello."))}
		imported := e.Do(admin, "POST", "/v1/spaces/"+space+"/content/import", map[string]any{"source": "markdown", "files": []any{page}}).Map(t)
		got := s.Data("content", wait)["spaceContentUpdated"].(map[string]any)
		if got["space"].(map[string]any)["id"] != space || got["revisionAfter"] != imported["revision"] || len(got["changedPages"].([]any)) == 0 {
			t.Fatalf("spaceContentUpdated: %v after %v", got, imported)
		}
		e.Do(admin, "POST", "/v1/orgs/"+org+"/sites/"+site+"/publish", nil)
		if got := s.Data("site", wait)["siteUpdated"].(map[string]any); got["id"] != site || got["published"] != true {
			t.Fatalf("siteUpdated: %v", got)
		}
		e.Do(admin, "POST", "/v1/orgs/"+org+"/openapi", map[string]any{"slug": "pets", "source": map[string]any{"text": petstoreYAML}})
		if got := s.Data("spec", wait)["openAPISpecProcessed"].(map[string]any); got["slug"] != "pets" || got["processingState"] != "COMPLETE" {
			t.Fatalf("openAPISpecProcessed: %v", got)
		}
		s.Subscribe("sixth", subCR, map[string]any{"s": space})
		if m := s.Next("sixth", wait); !strings.Contains(string(mustJSON(t, m)), `"code":"RATE_LIMITED"`) {
			t.Fatalf("a sixth subscription on a connection of five: %v", m)
		}
	})

	t.Run("OKNestedFieldsAsTheViewerAtEachEvent", func(t *testing.T) {
		writer := e.User("wes@acme.io", org, testenv.Role(viewer.RoleRead))
		s := e.Connect(t, writer)
		s.Subscribe("cr", `subscription($s: ID!) { changeRequestUpdated(spaceId: $s) { id space { permissions { edit } } } }`, map[string]any{"s": space})
		time.Sleep(200 * time.Millisecond)
		for _, role := range []string{"read", "edit"} {
			e.Do(admin, "PATCH", "/v1/orgs/"+org+"/members/"+writer.UserID, map[string]any{"role": role})
			e.Do(admin, "POST", "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Draft"})
			got := s.Data("cr", wait)["changeRequestUpdated"].(map[string]any)
			edit := got["space"].(map[string]any)["permissions"].(map[string]any)["edit"]
			if edit != (role == "edit") {
				t.Fatalf("space.permissions.edit of a member whose role became %s: %v", role, got)
			}
		}
	})

	t.Run("OKServerSentEvents", func(t *testing.T) {
		events := openEventStream(t, e, admin, subComment, map[string]any{"s": space})
		time.Sleep(200 * time.Millisecond)
		e.Do(admin, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "Over SSE"}})
		select {
		case got := <-events:
			if !strings.Contains(got, "Over SSE") {
				t.Fatalf("event: %s", got)
			}
		case <-time.After(wait):
			t.Fatal("no event over Server-Sent Events")
		}
	})

	t.Run("ErrLosesAccess", func(t *testing.T) {
		member := e.User("mo@acme.io", org, testenv.Role(viewer.RoleRead))
		s := e.Connect(t, member)
		s.Subscribe("c", subComment, map[string]any{"s": space})
		sse := openEventStream(t, e, member, subComment, map[string]any{"s": space})
		time.Sleep(200 * time.Millisecond)
		e.Do(admin, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "Seen"}})
		s.Data("c", wait)
		e.Do(admin, "DELETE", "/v1/orgs/"+org+"/members/"+member.UserID, nil)
		e.Do(admin, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "Not seen"}})
		if m := s.Next("c", wait); m["type"] != "error" || !strings.Contains(string(mustJSON(t, m)), "NOT_FOUND") {
			t.Fatalf("after the member was removed: %v", m)
		}
		ended := time.After(wait)
		var last string
		for open := true; open; { // Server-Sent Events: the first comment, the error, then the end
			select {
			case got, ok := <-sse:
				if strings.Contains(got, "Not seen") {
					t.Fatalf("over SSE after the member was removed: %s", got)
				}
				if ok {
					last = got
				}
				open = ok
			case <-ended:
				t.Fatal("the stream of Server-Sent Events did not end when the member was removed")
			}
		}
		if !strings.Contains(last, "NOT_FOUND") || !strings.Contains(last, `"data":null`) {
			t.Fatalf("the last event over SSE: %s, want the error that ended it", last)
		}
	})

	t.Run("ErrTokenRevoked", func(t *testing.T) {
		g := e.GraphQL(admin, `mutation { createAPIToken(input: {label: "Live"}) { token apiToken { id } } }`, nil)
		var created struct {
			CreateAPIToken struct {
				Token    string
				APIToken struct{ ID string }
			}
		}
		if err := json.Unmarshal(g.Data, &created); err != nil || created.CreateAPIToken.Token == "" {
			t.Fatalf("createAPIToken: %s %v", g.Data, g.Errors)
		}
		s := e.Connect(t, testenv.Actor{Token: created.CreateAPIToken.Token})
		s.Subscribe("c", subComment, map[string]any{"s": space})
		time.Sleep(200 * time.Millisecond)
		e.Do(admin, "DELETE", "/v1/user/tokens/"+created.CreateAPIToken.APIToken.ID, nil)
		e.Do(admin, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "After"}})
		if m := s.Next("c", wait); m["type"] != "error" || !strings.Contains(string(mustJSON(t, m)), "UNAUTHENTICATED") {
			t.Fatalf("after the token was revoked: %v", m)
		}
	})

	t.Run("OKSessionCookieOfTrustedOrigin", func(t *testing.T) {
		secret, err := accounts.CreateSession(context.Background(), e.Store.Client.Session,
			accounts.NewSession{UserID: admin.UserID, OrganizationID: org, ProviderID: "test", ExpiresAt: time.Now().Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		cookie := rest.SessionCookie + "=" + secret
		s := testenv.DialSocket(t, e.Server.URL, http.Header{"Cookie": {cookie}, "Origin": {e.Server.URL}})
		s.Init(map[string]any{})
		s.Subscribe("c", subComment, map[string]any{"s": space})
		time.Sleep(200 * time.Millisecond)
		e.Do(admin, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "Cookie"}})
		s.Data("c", wait)
		evil := testenv.DialSocket(t, e.Server.URL, http.Header{"Cookie": {cookie}, "Origin": {"https://evil.example"}})
		evil.Send(map[string]any{"type": "connection_init"})
		if code := evil.Closed(wait); code != 4403 {
			t.Errorf("the session's cookie from another origin: closed with %d, want 4403", code)
		}
	})

	t.Run("ErrNotReadable", func(t *testing.T) {
		s := e.Connect(t, outsider)
		s.Subscribe("c", subComment, map[string]any{"s": space})
		if m := s.Next("c", wait); !strings.Contains(string(mustJSON(t, m)), `"code":"NOT_FOUND"`) {
			t.Fatalf("another organization's space: %v", m)
		}
		r := e.Connect(t, reader)
		r.Subscribe("s", subSpec, map[string]any{"o": org})
		if m, err := r.Read(time.Second); err == nil {
			t.Fatalf("a reader of the organization, before any event: %v", m)
		}
	})

	t.Run("ErrCredentials", func(t *testing.T) {
		for name, payload := range map[string]any{
			"absent": map[string]any{},
			"bad":    map[string]any{"Authorization": "Bearer bdy_nope"},
		} {
			s := testenv.DialSocket(t, e.Server.URL, nil)
			s.Send(map[string]any{"type": "connection_init", "payload": payload})
			if code := s.Closed(wait); code != 4403 {
				t.Errorf("%s token: closed with %d, want 4403", name, code)
			}
		}
		s := testenv.DialSocket(t, e.Server.URL, http.Header{"Cookie": {"bindery_session=forged"}, "Origin": {"https://evil.example"}})
		s.Send(map[string]any{"type": "connection_init"})
		if code := s.Closed(wait); code != 4403 {
			t.Errorf("a session cookie from another origin: closed with %d, want 4403", code)
		}
	})

	t.Run("ErrMalformedInit", func(t *testing.T) {
		for name, raw := range map[string]string{
			"payload not an object": `{"type":"connection_init","payload":"Bearer x"}`,
			"authorization number":  `{"type":"connection_init","payload":{"Authorization":5}}`,
			"not JSON":              `{"type":"connection_init",`,
			"unknown type":          `{"type":"hello"}`,
		} {
			s := testenv.DialSocket(t, e.Server.URL, nil)
			s.SendRaw([]byte(raw))
			if code := s.Closed(wait); code != 4400 {
				t.Errorf("%s: closed with %d, want 4400", name, code)
			}
		}
		s := testenv.DialSocket(t, e.Server.URL, nil)
		if code := s.Closed(wait); code != 4408 {
			t.Errorf("no connection_init: closed with %d, want 4408", code)
		}
	})

	t.Run("OKNeverReadingClientDropped", func(t *testing.T) {
		s := e.Connect(t, admin)
		s.Subscribe("c", subComment, map[string]any{"s": space})
		time.Sleep(200 * time.Millisecond)
		big := strings.Repeat("All work and no play. ", 900) // ~20 KB a message
		for range 400 {
			e.Do(admin, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": big}})
		}
		time.Sleep(time.Second) // the server gives up writing after 300 ms
		n := 0
		for {
			m, err := s.Read(wait)
			if err != nil {
				break
			}
			if m["type"] == "next" {
				n++
			}
		}
		if n >= 400 {
			t.Fatalf("a client that did not read got all %d events: it was not dropped", n)
		}
	})
}

// openEventStream subscribes over Server-Sent Events and sends the data of each event on the
// returned channel.
func openEventStream(t *testing.T, e *testenv.Env, a testenv.Actor, query string, vars map[string]any) <-chan string {
	t.Helper()
	return testenv.OpenEventStream(t, e.Server.Client(), e.Server.URL, a.Token, query, vars).C
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestWebhookDispatcherWakesOnFeed: with the job runner's poll an hour long, an event reaches a
// webhook only because the feed wakes the dispatcher.
func TestWebhookDispatcherWakesOnFeed(t *testing.T) {
	rc := newReceiver(t, "127.0.0.2")
	e := testenv.New(t, allowFetch(t, "127.0.0.2"), func(o *server.Options) { o.Jobs.Poll = time.Hour })
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	e.Do(admin, "POST", "/v1/orgs/"+org+"/webhooks", map[string]any{"url": rc.url, "events": []string{"space.created"}})
	e.RunJobs()
	time.Sleep(300 * time.Millisecond) // the runner has looked once, and waits
	e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Woken"})
	deadline := time.Now().Add(wait)
	for len(rc.take()) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no delivery within %s: the dispatcher was not woken", wait)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSubscriptionsRateLimited: connection_init is charged to the token's budget; once it is spent
// the WebSocket closes with 4429.
func TestSubscriptionsRateLimited(t *testing.T) {
	e := testenv.New(t, func(o *server.Options) {
		o.RateLimits = ratelimit.Limits{Token: 3, Window: time.Hour}
	})
	admin, _ := e.Bootstrap("ada@acme.io", "Acme")
	for range 3 {
		e.Connect(t, admin)
	}
	s := testenv.DialSocket(t, e.Server.URL, nil)
	s.Send(map[string]any{"type": "connection_init", "payload": map[string]any{"Authorization": "Bearer " + admin.Token}})
	if code := s.Closed(wait); code != 4429 {
		t.Fatalf("connection_init past the token's budget: closed with %d, want 4429", code)
	}
}

// TestSubscriptionsIdleConnectionClosed: a WebSocket that holds no subscription for the Idle
// limit is closed; one that holds one stays open past it, and is closed once it ends it.
func TestSubscriptionsIdleConnectionClosed(t *testing.T) {
	e := testenv.New(t, func(o *server.Options) { subscriptionLimits(o); o.Limits.Subscriptions.Idle = 400 * time.Millisecond })
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	space := authCreated(t, e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Docs"}))

	if code := e.Connect(t, admin).Closed(wait); code != 1000 {
		t.Fatalf("a connection without subscriptions: closed with %d, want 1000", code)
	}
	s := e.Connect(t, admin)
	s.Subscribe("c", subComment, map[string]any{"s": space})
	time.Sleep(time.Second) // past the limit, with a subscription
	e.Do(admin, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "Still here?"}})
	if data := s.Data("c", wait); data["commentAdded"] == nil {
		t.Fatalf("after the idle limit, with a subscription: %v", data)
	}
	s.Send(map[string]any{"type": "complete", "id": "c"})
	if code := s.Closed(wait); code != 1000 {
		t.Fatalf("once its subscription ended: closed with %d, want 1000", code)
	}
}
