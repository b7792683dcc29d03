package rest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/jobs"
	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/internal/webhooks"
)

// receiver is a webhook receiver on a loopback address: it keeps what it is sent and answers
// with the status set.
type receiver struct {
	mu       sync.Mutex
	status   int
	redirect string
	got      []delivered
	url      string
}

type delivered struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T, addr string) *receiver {
	rc := &receiver{status: http.StatusNoContent}
	rc.url = fetchtest.Serve(t, addr, rc).URL + "/hook"
	return rc
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.got = append(rc.got, delivered{header: r.Header.Clone(), body: body})
	if rc.redirect != "" {
		http.Redirect(w, r, rc.redirect, http.StatusFound)
		return
	}
	w.WriteHeader(rc.status)
	_, _ = w.Write([]byte("answered " + http.StatusText(rc.status)))
}

func (rc *receiver) answer(status int) { rc.mu.Lock(); rc.status = status; rc.mu.Unlock() }

// take returns what was received since the last take.
func (rc *receiver) take() []delivered {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	got := rc.got
	rc.got = nil
	return got
}

// payload is a delivery's body as the README documents it.
type payload struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	Data      struct {
		ID           string `json:"id"`
		Organization string `json:"organization"`
		Object       struct{ Kind, ID string }
		Space        *string        `json:"space"`
		Actor        *string        `json:"actor"`
		Details      map[string]any `json:"details"`
	} `json:"data"`
}

// verified checks a delivery's signature with the Standard Webhooks reference library (an
// implementation of the scheme independent of Bindery's) under secret, and decodes it.
func verified(t *testing.T, d delivered, secret string) payload {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(d.body, d.header); err != nil {
		t.Fatalf("signature: %v (headers %v)", err, d.header)
	}
	var p payload
	if err := json.Unmarshal(d.body, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// deliverEvents runs the webhook dispatcher now (it otherwise looks every second) and the
// deliveries it makes.
func deliverEvents(t *testing.T, e *testenv.Env) {
	t.Helper()
	if err := jobs.Enqueue(accounts.System(context.Background()), e.Store.Client, webhooks.DispatchJob, webhooks.DispatchKey, time.Now()); err != nil {
		t.Fatal(err)
	}
	e.RunDueJobs()
}

func TestWebhooks(t *testing.T) {
	rc := newReceiver(t, "127.0.0.2")
	e := testenv.New(t, allowFetch(t, "127.0.0.2"))
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	reader := e.User("rob@example.com", org, testenv.Role(viewer.RoleRead))
	outsider, otherOrg := e.Bootstrap("zed@zeta.io", "Zeta")
	base := "/v1/orgs/" + org + "/webhooks"

	created := e.Do(admin, "POST", base, map[string]any{"url": rc.url})
	hook := created.Map(t)
	if created.Status != http.StatusCreated || hook["object"] != "webhook" || hook["active"] != true ||
		!strings.HasPrefix(hook["secret"].(string), "whsec_") || len(toStrings(hook["events"])) != 0 {
		t.Fatalf("create: %d %s", created.Status, created.Body)
	}
	id, secret := hook["id"].(string), hook["secret"].(string)

	t.Run("OKSecretShownOnce", func(t *testing.T) {
		for _, r := range []testenv.Response{e.Do(admin, "GET", base+"/"+id, nil), e.Do(admin, "GET", base, nil)} {
			if r.Status != http.StatusOK || strings.Contains(string(r.Body), "whsec_") || strings.Contains(string(r.Body), "secret") {
				t.Fatalf("a read shows the secret: %d %s", r.Status, r.Body)
			}
		}
	})

	t.Run("OKSignedDelivery", func(t *testing.T) {
		space := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Guides"}).Map(t)["id"].(string)
		deliverEvents(t, e)
		got := rc.take()
		if len(got) != 1 {
			t.Fatalf("deliveries received: %d, want 1", len(got))
		}
		p := verified(t, got[0], secret)
		if p.Type != "space.created" || p.Data.Organization != org || p.Data.Object.ID != space || p.Data.Object.Kind != "space" ||
			p.Data.Actor == nil || *p.Data.Actor != admin.UserID || got[0].header.Get("webhook-id") != p.Data.ID {
			t.Fatalf("payload: %s", got[0].body)
		}
		log := e.Do(admin, "GET", base+"/"+id+"/deliveries", nil).Map(t)
		item := log["items"].([]any)[0].(map[string]any)
		if item["object"] != "webhook-delivery" || item["status"] != "succeeded" || item["lastStatusCode"] != float64(204) ||
			item["attempts"] != float64(1) || item["eventId"] != p.Data.ID || item["eventType"] != "space.created" {
			t.Fatalf("delivery log: %v", item)
		}
	})

	t.Run("OKFailedWriteRecordsNothing", func(t *testing.T) {
		space := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Kept"}).Map(t)["id"].(string)
		deliverEvents(t, e)
		rc.take()
		if r := e.Do(admin, "PATCH", "/v1/spaces/"+space, map[string]any{"title": strings.Repeat("x", 500)}); r.Status != http.StatusBadRequest {
			t.Fatalf("a too long title: %d", r.Status)
		}
		deliverEvents(t, e)
		if got := rc.take(); len(got) != 0 {
			t.Fatalf("a failed write delivered %d events", len(got))
		}
	})

	t.Run("OKRetryAndRedeliver", func(t *testing.T) {
		rc.answer(http.StatusInternalServerError)
		e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Flaky"})
		deliverEvents(t, e)
		if got := rc.take(); len(got) != 1 {
			t.Fatalf("attempts: %d, want 1", len(got))
		}
		d := e.Do(admin, "GET", base+"/"+id+"/deliveries", nil).Map(t)["items"].([]any)[0].(map[string]any)
		if d["status"] != "pending" || d["lastStatusCode"] != float64(500) || d["nextAttemptAt"] == nil ||
			!strings.Contains(d["lastResponse"].(string), "HTTP 500") {
			t.Fatalf("after a 500: %v", d)
		}
		hookNow := e.Do(admin, "GET", base+"/"+id, nil).Map(t)
		if hookNow["failingSince"] == nil {
			t.Fatalf("a failing webhook says since when: %v", hookNow)
		}
		rc.answer(http.StatusOK)
		r := e.Do(admin, "POST", base+"/"+id+"/deliveries/"+d["id"].(string)+"/redeliver", nil)
		if r.Status != http.StatusOK || r.Map(t)["status"] != "pending" {
			t.Fatalf("redeliver: %d %s", r.Status, r.Body)
		}
		deliverEvents(t, e)
		if got := rc.take(); len(got) != 1 {
			t.Fatalf("redelivered: %d, want 1", len(got))
		}
		d = e.Do(admin, "GET", base+"/"+id+"/deliveries", nil).Map(t)["items"].([]any)[0].(map[string]any)
		if d["status"] != "succeeded" || e.Do(admin, "GET", base+"/"+id, nil).Map(t)["failingSince"] != nil {
			t.Fatalf("after the redelivery: %v", d)
		}
	})

	t.Run("OKRotationSignsWithBoth", func(t *testing.T) {
		r := e.Do(admin, "POST", base+"/"+id+"/rotate-secret", nil)
		fresh := r.Map(t)["secret"].(string)
		if r.Status != http.StatusOK || fresh == secret || !strings.HasPrefix(fresh, "whsec_") {
			t.Fatalf("rotate: %d %s", r.Status, r.Body)
		}
		test := e.Do(admin, "POST", base+"/"+id+"/test", nil)
		if test.Status != http.StatusCreated || test.Map(t)["eventType"] != "webhook.test" {
			t.Fatalf("test: %d %s", test.Status, test.Body)
		}
		deliverEvents(t, e)
		got := rc.take()
		if len(got) != 1 {
			t.Fatalf("test deliveries: %d", len(got))
		}
		if p := verified(t, got[0], fresh); p.Type != "webhook.test" {
			t.Fatalf("test payload: %s", got[0].body)
		}
		verified(t, got[0], secret) // the previous secret still signs during the overlap
	})

	t.Run("OKNarrowed", func(t *testing.T) {
		other := newReceiver(t, "127.0.0.2")
		watched := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Watched"}).Map(t)["id"].(string)
		ignored := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Ignored"}).Map(t)["id"].(string)
		deliverEvents(t, e)
		rc.take()
		narrow := e.Do(admin, "POST", base, map[string]any{"url": other.url, "events": []string{"space.updated"}, "spaces": []string{watched}})
		if narrow.Status != http.StatusCreated {
			t.Fatalf("narrowed: %d %s", narrow.Status, narrow.Body)
		}
		for _, s := range []string{watched, ignored} {
			e.Do(admin, "PATCH", "/v1/spaces/"+s, map[string]any{"title": "Renamed"})
			e.Do(admin, "POST", "/v1/spaces/"+s+"/change-requests", map[string]any{"subject": "Draft"})
		}
		deliverEvents(t, e)
		got := other.take()
		if len(got) != 1 {
			t.Fatalf("narrowed webhook got %d deliveries, want 1", len(got))
		}
		if p := verified(t, got[0], narrow.Map(t)["secret"].(string)); p.Type != "space.updated" || p.Data.Object.ID != watched {
			t.Fatalf("narrowed payload: %s", got[0].body)
		}
		if n := len(rc.take()); n != 4 {
			t.Fatalf("the unnarrowed webhook got %d deliveries, want 4", n)
		}
	})

	t.Run("OKEventTypes", func(t *testing.T) {
		deliverEvents(t, e)
		rc.take()
		space := e.Do(admin, "POST", "/v1/orgs/"+org+"/spaces", map[string]any{"title": "Handbook"}).Map(t)["id"].(string)
		e.Do(admin, "POST", "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "Typo"}})
		e.Do(admin, "PATCH", "/v1/orgs/"+org+"/members/"+reader.UserID, map[string]any{"role": "edit"})
		team := e.Do(admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Writers"}).Map(t)["id"].(string)
		e.Do(admin, "PATCH", "/v1/orgs/"+org+"/teams/"+team, map[string]any{"title": "Editors"})
		site := e.Do(admin, "POST", "/v1/orgs/"+org+"/sites", map[string]any{"title": "Docs", "spaces": []string{space}}).Map(t)["id"].(string)
		e.Do(admin, "POST", "/v1/orgs/"+org+"/sites/"+site+"/publish", nil)
		deliverEvents(t, e)
		var types []string
		for _, d := range rc.take() {
			p := verified(t, d, secret)
			types = append(types, p.Type)
			if p.Type == "member.role_changed" && (p.Data.Object.ID != reader.UserID || p.Data.Details["to"] != "edit") {
				t.Fatalf("member.role_changed: %s", d.body)
			}
		}
		slices.Sort(types) // deliveries are independent jobs: receivers see them in any order
		want := "comment.created,member.role_changed,site.published,space.created,team.created,team.updated"
		if got := strings.Join(types, ","); got != want {
			t.Fatalf("event types delivered: %s, want %s", got, want)
		}
		e.Do(admin, "PATCH", "/v1/orgs/"+org+"/members/"+reader.UserID, map[string]any{"role": "read"})
	})

	t.Run("OKGuardRefusesLoopback", func(t *testing.T) {
		refused := newReceiver(t, "127.0.0.3") // a loopback address --fetch-allow does not name
		r := e.Do(admin, "POST", base, map[string]any{"url": refused.url})
		wid := r.Map(t)["id"].(string)
		d := e.Do(admin, "POST", base+"/"+wid+"/test", nil).Map(t)
		deliverEvents(t, e)
		if got := refused.take(); len(got) != 0 {
			t.Fatalf("the guard let a delivery through to 127.0.0.3")
		}
		log := e.Do(admin, "GET", base+"/"+wid+"/deliveries", nil).Map(t)["items"].([]any)[0].(map[string]any)
		if log["id"] != d["id"] || log["lastStatusCode"] != nil || !strings.Contains(log["lastResponse"].(string), "refused") {
			t.Fatalf("refused delivery: %v", log)
		}
	})

	t.Run("OKRedirectNotFollowed", func(t *testing.T) {
		target := newReceiver(t, "127.0.0.2")
		hop := newReceiver(t, "127.0.0.2")
		hop.redirect = target.url
		wid := e.Do(admin, "POST", base, map[string]any{"url": hop.url}).Map(t)["id"].(string)
		e.Do(admin, "POST", base+"/"+wid+"/test", nil)
		deliverEvents(t, e)
		if len(hop.take()) != 1 || len(target.take()) != 0 {
			t.Fatalf("a redirect was followed")
		}
		log := e.Do(admin, "GET", base+"/"+wid+"/deliveries", nil).Map(t)["items"].([]any)[0].(map[string]any)
		if log["lastStatusCode"] != float64(302) || log["status"] != "pending" {
			t.Fatalf("redirected delivery: %v", log)
		}
	})

	t.Run("OKGraphQL", func(t *testing.T) {
		res := e.GraphQL(admin, `mutation($org: ID!, $url: String!) { createWebhook(organizationId: $org, input: {url: $url, events: ["comment.created"]}) { secret webhook { id events active deliveries { totalCount } } } }`,
			map[string]any{"org": org, "url": rc.url})
		if len(res.Errors) > 0 {
			t.Fatalf("createWebhook: %v", res.Errors)
		}
		var out struct {
			CreateWebhook struct {
				Secret  string
				Webhook struct {
					ID     string
					Events []string
				}
			}
		}
		if err := json.Unmarshal(res.Data, &out); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out.CreateWebhook.Secret, "whsec_") || strings.Join(out.CreateWebhook.Webhook.Events, ",") != "comment.created" {
			t.Fatalf("createWebhook: %+v", out)
		}
		if r := e.Do(admin, "GET", base+"/"+out.CreateWebhook.Webhook.ID, nil); r.Status != http.StatusOK {
			t.Fatalf("the GraphQL webhook over REST: %d", r.Status)
		}
	})

	for _, c := range []struct {
		name   string
		actor  testenv.Actor
		method string
		path   string
		body   any
		status int
		says   string
	}{
		{"ErrNoURL", admin, "POST", base, map[string]any{"events": []string{"space.created"}}, 400, "url: is required"},
		{"ErrNotHTTP", admin, "POST", base, map[string]any{"url": "file:///etc/passwd"}, 400, "only http and https"},
		{"ErrRelativeURL", admin, "POST", base, map[string]any{"url": "/hook"}, 400, "not an absolute URL"},
		{"ErrCredentials", admin, "POST", base, map[string]any{"url": "https://u:p@example.com/"}, 400, "credentials"},
		{"ErrUnknownEvent", admin, "POST", base, map[string]any{"url": rc.url, "events": []string{"space.created", "space.exploded"}}, 400, `events[1]: \"space.exploded\" is not an event type`},
		{"ErrForeignSpace", admin, "POST", base, map[string]any{"url": rc.url, "spaces": []string{"nope"}}, 400, "spaces: every entry"},
		{"ErrNullActive", admin, "PATCH", base + "/" + id, map[string]any{"active": nil}, 400, "active"},
		{"ErrReader", reader, "GET", base, nil, 403, "admin"},
		{"ErrReaderCreates", reader, "POST", base, map[string]any{"url": rc.url}, 403, "admin"},
		{"ErrOutsider", outsider, "GET", base + "/" + id, nil, 404, "not found"},
		{"ErrOtherOrgsWebhook", outsider, "GET", "/v1/orgs/" + otherOrg + "/webhooks/" + id, nil, 404, "webhook not found"},
		{"ErrUnknownDelivery", admin, "POST", base + "/" + id + "/deliveries/nope/redeliver", nil, 404, "not found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(c.actor, c.method, c.path, c.body)
			if r.Status != c.status || !strings.Contains(string(r.Body), c.says) {
				t.Fatalf("%s %s: %d %s, want %d saying %q", c.method, c.path, r.Status, r.Body, c.status, c.says)
			}
		})
	}

	t.Run("OKDelete", func(t *testing.T) {
		if r := e.Do(admin, "DELETE", base+"/"+id, nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		if r := e.Do(admin, "GET", base+"/"+id, nil); r.Status != http.StatusNotFound {
			t.Fatalf("after delete: %d", r.Status)
		}
	})
}
