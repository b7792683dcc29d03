package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
)

// hookReceiver is a webhook receiver on 127.0.0.2 that counts the deliveries of each event
// (webhook-id), checking each signature with the Standard Webhooks reference library. While held,
// it keeps the requests it gets unanswered until their connection closes.
type hookReceiver struct {
	mu      sync.Mutex
	url     string
	secret  string
	held    bool
	arrived chan string // the webhook-id of every request, as it arrives
	got     map[string]int
	errs    []string
}

func newHookReceiver(t *testing.T, held bool) *hookReceiver {
	rc := &hookReceiver{held: held, arrived: make(chan string, 1000), got: map[string]int{}}
	rc.url = fetchtest.Serve(t, "127.0.0.2", rc).URL + "/hook"
	return rc
}

func (rc *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	id := r.Header.Get("webhook-id")
	rc.mu.Lock()
	held := rc.held
	wh, err := standardwebhooks.NewWebhook(rc.secret)
	if err == nil {
		err = wh.Verify(body, r.Header)
	}
	var p struct{ Data struct{ ID string } }
	if err == nil {
		err = json.Unmarshal(body, &p)
	}
	if err == nil && p.Data.ID != id {
		err = fmt.Errorf("webhook-id %q names another event than the payload's %q", id, p.Data.ID)
	}
	if err != nil {
		rc.errs = append(rc.errs, err.Error())
	}
	if !held {
		rc.got[id]++
	}
	rc.mu.Unlock()
	rc.arrived <- id
	if held {
		<-r.Context().Done()
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// release makes the receiver answer every request from now on.
func (rc *hookReceiver) release() { rc.mu.Lock(); rc.held = false; rc.mu.Unlock() }

// counts returns how many deliveries of each event were answered, and the signature failures.
func (rc *hookReceiver) counts() (map[string]int, []string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	got := make(map[string]int, len(rc.got))
	for id, n := range rc.got {
		got[id] = n
	}
	return got, append([]string(nil), rc.errs...)
}

// next waits for the next request to arrive and returns its webhook-id.
func (rc *hookReceiver) next(t *testing.T, within time.Duration) string {
	t.Helper()
	select {
	case id := <-rc.arrived:
		return id
	case <-time.After(within):
		t.Fatalf("no delivery arrived within %s", within)
		return ""
	}
}

// subscribe creates a webhook of Ada's organization to space.created events, sent to rc.
func (rc *hookReceiver) subscribe(t *testing.T, base string, ada bootstrapOut) string {
	t.Helper()
	hook := mustCall(t, base, ada.Token, "POST", "/v1/orgs/"+ada.Organization.ID+"/webhooks",
		fmt.Sprintf(`{"url":%q,"events":["space.created"]}`, rc.url))
	rc.mu.Lock()
	rc.secret = hook["secret"].(string)
	rc.mu.Unlock()
	return hook["id"].(string)
}

// TestWebhookDeliverySurvivesKill: `bindery serve` is killed (SIGKILL) while it delivers an event,
// the receiver holding the request; started again on the same database (PostgreSQL when
// BINDERY_TEST_DB names one), it delivers the event once the dead process's lease on the delivery
// ends: the event is not lost, and it comes with the same webhook-id.
func TestWebhookDeliverySurvivesKill(t *testing.T) {
	d := newDataDir(t)
	ada := bootstrapData(t, d)
	rc := newHookReceiver(t, true)
	server := startProcess(t, d, "--fetch-allow", "127.0.0.2", "--job-lease", "5s")
	hook := rc.subscribe(t, server.base, ada)
	space, err := createSpace(server.base, ada, "Written before the kill")
	if err != nil {
		t.Fatal(err)
	}
	inFlight := rc.next(t, 30*time.Second)
	if err := server.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-server.exited
	rc.release()

	server = startProcess(t, d, "--fetch-allow", "127.0.0.2", "--job-lease", "5s")
	// The delivery's job stays leased to the dead process until its lease (5 s) ends.
	if again := rc.next(t, time.Minute); again != inFlight {
		t.Fatalf("after the restart webhook-id %q arrived, want %q", again, inFlight)
	}
	got, errs := rc.counts()
	if len(errs) > 0 || got[inFlight] != 1 {
		t.Fatalf("deliveries answered: %v; signature failures: %v", got, errs)
	}
	// The server records the attempt once the receiver's answer is in.
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		log := mustCall(t, server.base, ada.Token, "GET", "/v1/orgs/"+ada.Organization.ID+"/webhooks/"+hook+"/deliveries", "")
		items := log["items"].([]any)
		if len(items) != 1 {
			t.Fatalf("delivery log: %v", log)
		}
		dl := items[0].(map[string]any)
		if dl["status"] == "succeeded" && dl["eventId"] == inFlight && dl["lastStatusCode"] == float64(204) {
			return
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("the delivery of space %s after the restart: %v", space, dl)
		}
	}
}

// TestWebhooksOfTwoServers runs two `bindery serve` on one database, writes through both, and
// checks each event is delivered exactly once: both processes run the dispatcher and the
// deliveries as leased jobs, and a lease lets one process alone run a job at a time.
func TestWebhooksOfTwoServers(t *testing.T) {
	d := newDataDir(t)
	ada := bootstrapData(t, d)
	rc := newHookReceiver(t, false)
	servers := []*process{startProcess(t, d, "--fetch-allow", "127.0.0.2"), startProcess(t, d, "--fetch-allow", "127.0.0.2")}
	rc.subscribe(t, servers[0].base, ada)
	const writes = 20
	for i := range writes {
		if _, err := createSpace(servers[i%2].base, ada, fmt.Sprintf("Space %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	for range writes {
		rc.next(t, 30*time.Second)
	}
	time.Sleep(3 * time.Second) // a duplicate would come within the dispatchers' next looks
	got, errs := rc.counts()
	if len(errs) > 0 || len(got) != writes {
		t.Fatalf("%d events delivered, want %d; signature failures: %v", len(got), writes, errs)
	}
	for id, n := range got {
		if n != 1 {
			t.Errorf("event %s delivered %d times", id, n)
		}
	}
}
