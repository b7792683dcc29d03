package main

import (
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
	s.Subscribe("cr", `subscription($s: ID!) { changeRequestUpdated(spaceId: $s) { id subject } }`, map[string]any{"s": space})
	time.Sleep(300 * time.Millisecond) // the subscription starts before the write

	req, _ := http.NewRequest("POST", second.base+"/v1/spaces/"+space+"/change-requests", strings.NewReader(`{"subject":"From the second"}`))
	req.Header.Set("Authorization", "Bearer "+ada.Token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusCreated {
		t.Fatalf("create a change request through the second process: %v %v", res, err)
	}
	res.Body.Close()
	committed := time.Now()
	got := s.Data("cr", 10*time.Second)["changeRequestUpdated"].(map[string]any)
	if got["subject"] != "From the second" {
		t.Fatalf("the first process's subscriber got %v", got)
	}
	t.Logf("from the commit in one process to the subscriber of the other: %s", time.Since(committed).Round(time.Millisecond))
}
