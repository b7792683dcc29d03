package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestInsightsOfTwoProcesses: two `bindery serve` processes on one database (SQLite, or PostgreSQL
// with BINDERY_TEST_DB) each take the page views of the same readers of a published site; once
// both have stopped (writing what waited), a third answers the aggregation: the views of both
// add up, and each reader is one visitor, not one per process.
func TestInsightsOfTwoProcesses(t *testing.T) {
	d := newDataDir(t)
	ada := bootstrapData(t, d)
	first, second := startProcess(t, d), startProcess(t, d)
	spaceID, err := createSpace(first.base, ada, "Docs")
	if err != nil {
		t.Fatal(err)
	}
	siteID, _ := mustCall(t, first.base, ada.Token, "POST", "/v1/orgs/"+ada.Organization.ID+"/sites", fmt.Sprintf(`{"title":"Acme","spaces":[%q]}`, spaceID))["id"].(string)
	mustCall(t, first.base, ada.Token, "POST", "/v1/orgs/"+ada.Organization.ID+"/sites/"+siteID+"/publish", "")
	const readers = 12
	for _, p := range []*process{first, second} {
		for r := range readers {
			event := fmt.Sprintf(`{"events":[{"type":"page_view","session":{},"location":{"url":%q}}]}`, p.base+"/sites/"+siteID+"/")
			req, _ := http.NewRequest("POST", p.base+"/v1/orgs/"+ada.Organization.ID+"/sites/"+siteID+"/insights/events", strings.NewReader(event))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("User-Agent", fmt.Sprintf("reader-%d", r))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusNoContent {
				t.Fatalf("a view sent to %s: %d", p.base, res.StatusCode)
			}
		}
	}
	stopProcess(t, first)
	stopProcess(t, second)
	third := startProcess(t, d)
	defer stopProcess(t, third)
	status, raw := call(t, third.base, ada.Token, "POST", "/v1/orgs/"+ada.Organization.ID+"/sites/"+siteID+"/insights/events/aggregate",
		`{"range":"last7Days","select":[{"column":"eventsCount"},{"column":"visitorsCount"}]}`)
	var answer struct {
		Columns []struct {
			Column string
			Values []int
		}
	}
	if err := json.Unmarshal(raw, &answer); status != http.StatusOK || err != nil {
		t.Fatalf("aggregate: %d %s", status, raw)
	}
	if got := fmt.Sprint(answer.Columns); got != fmt.Sprintf("[{eventsCount [%d]} {visitorsCount [%d]}]", 2*readers, readers) {
		t.Errorf("views and visitors: %s, want %d views by %d visitors", got, 2*readers, readers)
	}
}
