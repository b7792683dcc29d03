package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/store"
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
	l := startLimitedServers(t)
	first, second, st, ada, space := l.first, l.second, l.st, l.ada, l.space
	onFirst := testenv.DialSocket(t, first.base, nil)
	onFirst.Init(map[string]any{"Authorization": "Bearer " + ada.Token})
	onSecond := testenv.DialSocket(t, second.base, nil)
	onSecond.Init(map[string]any{"Authorization": "Bearer " + ada.Token})
	vars := map[string]any{"s": space}
	onFirst.Subscribe("a1", subChangeRequests, vars)
	onFirst.Subscribe("a2", subChangeRequests, vars)
	waitForLiveSlots(t, st, 2)

	onSecond.Subscribe("b1", subChangeRequests, vars)
	assertRefused(t, onSecond.Next("b1", 10*time.Second), "a third subscription, on the second server")

	onFirst.Send(map[string]any{"type": "complete", "id": "a1"})
	waitForLiveSlots(t, st, 1)
	onSecond.Subscribe("b2", subChangeRequests, vars)
	waitForLiveSlots(t, st, 2)
	time.Sleep(300 * time.Millisecond) // the subscription reads the feed once its slot is taken
	createChangeRequest(t, second.base, ada, space, "Live")
	onSecond.Data("b2", 10*time.Second)

	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.exited
	killed := time.Now()
	onSecond.Subscribe("b3", subChangeRequests, vars)
	assertRefused(t, onSecond.Next("b3", 10*time.Second), "a subscription while the killed server's slot is leased")
	waitForLiveSlots(t, st, 1) // the killed server's lease ends
	onSecond.Subscribe("b4", subChangeRequests, vars)
	waitForLiveSlots(t, st, 2)
	t.Logf("the killed server's slot was taken again %s after the kill (lease 5s)", time.Since(killed).Round(100*time.Millisecond))
}

// TestSubscriptionLimitAcrossProcessesOverSSE: the same limit over Server-Sent Events, one
// subscription a request: the token holding 2 streams on the first server is refused a third on
// the second (one next event carrying the error, then the stream ends); a stream the client closes
// on the first frees its slot; the slot of a killed server is free once its lease ends.
func TestSubscriptionLimitAcrossProcessesOverSSE(t *testing.T) {
	l := startLimitedServers(t)
	first, second, st, ada, space := l.first, l.second, l.st, l.ada, l.space
	vars := map[string]any{"s": space}
	open := func(p *process) *testenv.EventStream {
		return testenv.OpenEventStream(t, http.DefaultClient, p.base, ada.Token, subChangeRequests, vars)
	}
	a1 := open(first)
	open(first)
	waitForLiveSlots(t, st, 2)

	assertStreamRefused(t, open(second), "a third subscription, on the second server")

	a1.Close()
	waitForLiveSlots(t, st, 1)
	b2 := open(second)
	waitForLiveSlots(t, st, 2)
	time.Sleep(300 * time.Millisecond) // the subscription reads the feed once its slot is taken
	createChangeRequest(t, second.base, ada, space, "Live")
	select {
	case data := <-b2.C:
		if !strings.Contains(data, `"subject":"Live"`) {
			t.Fatalf("the stream on the second server got %s", data)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream on the second server got no event")
	}

	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-first.exited
	assertStreamRefused(t, open(second), "a subscription while the killed server's slot is leased")
	waitForLiveSlots(t, st, 1) // the killed server's lease ends
	open(second)
	waitForLiveSlots(t, st, 2)
}

// assertStreamRefused fails unless the stream's one event is the refusal of the credentials'
// limit, and the stream then ends.
func assertStreamRefused(t *testing.T, s *testenv.EventStream, what string) {
	t.Helper()
	var got []string
	deadline := time.After(10 * time.Second)
	for open := true; open; {
		select {
		case data, ok := <-s.C:
			if open = ok; ok {
				got = append(got, data)
			}
		case <-deadline:
			t.Fatalf("%s: the stream did not end; got %q", what, got)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%s: want one event, got %q", what, got)
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(got[0]), &p); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	assertRefusal(t, p, what)
}

// limitedServers are two servers on one database allowing a token 2 subscriptions, their slots
// leased 5 s, and a space of the bootstrap user.
type limitedServers struct {
	first, second *process
	st            *store.Store
	ada           bootstrapOut
	space         string
}

func startLimitedServers(t *testing.T) limitedServers {
	t.Helper()
	d := newDataDir(t)
	ada := bootstrapData(t, d)
	flags := []string{"--no-rate-limit", "--graphql-subscriptions-per-token", "2", "--graphql-subscription-lease", "5s"}
	first, second := startProcess(t, d, flags...), startProcess(t, d, flags...)
	space, err := createSpace(first.base, ada, "Shared")
	if err != nil {
		t.Fatal(err)
	}
	return limitedServers{first: first, second: second, st: d.open(t), ada: ada, space: space}
}

const subChangeRequests = `subscription($s: ID!) { changeRequestUpdated(spaceId: $s) { id subject } }`

// waitForLiveSlots waits until the slots table holds n unexpired slots (of the one token).
func waitForLiveSlots(t *testing.T, st *store.Store, n int) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		got := queryStrings(t, st, fmt.Sprintf("SELECT count(*) FROM slots WHERE expires_at > %d", time.Now().UnixMicro()))
		if got[0] == fmt.Sprint(n) {
			return
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("the slots table holds %s live slots, want %d", got[0], n)
		}
	}
}

// assertRefused fails unless m is the refusal of the credentials' limit as a server gives it for
// its own: gqlgen answers a subscription whose resolver failed with one next message carrying
// the error and no data (then complete).
func assertRefused(t *testing.T, m map[string]any, what string) {
	t.Helper()
	if m["type"] != "next" {
		t.Fatalf("%s: want a next message, got %v", what, m)
	}
	p, _ := m["payload"].(map[string]any)
	assertRefusal(t, p, what)
}

// assertRefusal fails unless p is an answer of one error, the credentials' limit of 2 reached.
func assertRefusal(t *testing.T, p map[string]any, what string) {
	t.Helper()
	errs, _ := p["errors"].([]any)
	if p["data"] != nil || len(errs) != 1 {
		t.Fatalf("%s: want an answer of one error, got %v", what, p)
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
