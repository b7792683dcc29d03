package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestSubscriptionsAcrossProcesses: a change request created through one server process reaches
// a GraphQL subscriber of another process on the same database: on PostgreSQL woken by the
// commit's notification, on SQLite by the feed's poll.
func TestSubscriptionsAcrossProcesses(t *testing.T) {
	d := newDataDir(t)
	ada := bootstrapData(t, d)
	first := startProcess(t, d, "--no-rate-limit")
	second := startProcess(t, d, "--no-rate-limit")
	space, err := createSpace(first.base, ada, "Shared")
	if err != nil {
		t.Fatal(err)
	}
	s := testenv.DialSocket(t, first.base, nil)
	s.Init(map[string]any{"Authorization": "Bearer " + ada.Token})
	s.Subscribe("cr", subChangeRequests, map[string]any{"s": space})
	time.Sleep(300 * time.Millisecond) // the subscription starts before the write

	createChangeRequest(t, second.base, ada, space, "From the second")
	committed := time.Now()
	got := s.Data("cr", 10*time.Second)["changeRequestUpdated"].(map[string]any)
	if got["subject"] != "From the second" {
		t.Fatalf("the first process's subscriber got %v", got)
	}
	t.Logf("from the commit in one process to the subscriber of the other: %s", time.Since(committed).Round(time.Millisecond))
}

// TestSubscriptionLimitAcrossProcesses: a token's subscriptions count on every server of the
// database. With two servers allowing a token 2: the token holding 2 on the first is refused a
// third on the second, with the refusal a server gives over its own limit (graphql-transport-ws
// error, RATE_LIMITED); a subscription completed on the first frees its slot for the second; the
// slot of a killed server is free once its lease ends.
func TestSubscriptionLimitAcrossProcesses(t *testing.T) {
	d := newDataDir(t)
	ada := bootstrapData(t, d)
	flags := []string{"--no-rate-limit", "--graphql-subscriptions-per-token", "2", "--graphql-subscription-lease", "5s"}
	first, second := startProcess(t, d, flags...), startProcess(t, d, flags...)
	space, err := createSpace(first.base, ada, "Shared")
	if err != nil {
		t.Fatal(err)
	}
	onFirst := testenv.DialSocket(t, first.base, nil)
	onFirst.Init(map[string]any{"Authorization": "Bearer " + ada.Token})
	onSecond := testenv.DialSocket(t, second.base, nil)
	onSecond.Init(map[string]any{"Authorization": "Bearer " + ada.Token})
	vars := map[string]any{"s": space}
	onFirst.Subscribe("a1", subChangeRequests, vars)
	onFirst.Subscribe("a2", subChangeRequests, vars)
	createChangeRequest(t, first.base, ada, space, "Live") // both run once an event reaches them
	onFirst.Data("a1", 10*time.Second)
	onFirst.Data("a2", 10*time.Second)

	onSecond.Subscribe("b1", subChangeRequests, vars)
	assertRefused(t, onSecond.Next("b1", 10*time.Second), "the third subscription, on the second server")

	onFirst.Send(map[string]any{"type": "complete", "id": "a1"})
	subscribeUntilAccepted(t, onSecond, second.base, ada, space, "b2", 10*time.Second)

	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.exited
	killed := time.Now()
	onSecond.Subscribe("b3", subChangeRequests, vars)
	assertRefused(t, onSecond.Next("b3", 10*time.Second), "a subscription while the killed server's slot is leased")
	subscribeUntilAccepted(t, onSecond, second.base, ada, space, "b4", 20*time.Second)
	t.Logf("the killed server's slot was free %s after the kill (lease 5s)", time.Since(killed).Round(100*time.Millisecond))
}

const subChangeRequests = `subscription($s: ID!) { changeRequestUpdated(spaceId: $s) { id subject } }`

// subscribeUntilAccepted subscribes again (id-1, id-2, …) while the server refuses for the
// credentials' limit, until a subscription receives an event (a change request created through
// base), within timeout.
func subscribeUntilAccepted(t *testing.T, s *testenv.Socket, base string, ada bootstrapOut, space, id string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for try := 1; ; try++ {
		sub := fmt.Sprintf("%s-%d", id, try)
		s.Subscribe(sub, subChangeRequests, map[string]any{"s": space})
		createChangeRequest(t, base, ada, space, "Live")
		m := s.Next(sub, 10*time.Second)
		if m["type"] == "next" {
			return
		}
		assertRefused(t, m, "subscription "+sub)
		if time.Now().After(deadline) {
			t.Fatalf("subscription %s still refused after %s", id, timeout)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// assertRefused fails unless m is the graphql-transport-ws error of the credentials' limit.
func assertRefused(t *testing.T, m map[string]any, what string) {
	t.Helper()
	errs, _ := m["payload"].([]any)
	if m["type"] != "error" || len(errs) != 1 {
		t.Fatalf("%s: want the protocol's error, got %v", what, m)
	}
	e := errs[0].(map[string]any)
	ext, _ := e["extensions"].(map[string]any)
	if ext["code"] != "RATE_LIMITED" || !strings.Contains(e["message"].(string), "these credentials have 2 subscriptions") {
		t.Fatalf("%s: refused with %v", what, e)
	}
}

// createChangeRequest creates a change request through the API of the server at base.
func createChangeRequest(t *testing.T, base string, ada bootstrapOut, space, subject string) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/v1/spaces/"+space+"/change-requests", strings.NewReader(fmt.Sprintf(`{"subject":%q}`, subject)))
	req.Header.Set("Authorization", "Bearer "+ada.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create a change request: %d", res.StatusCode)
	}
}
