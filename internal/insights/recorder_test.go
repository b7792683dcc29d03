package insights_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/store"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// TestTwoServersCountVisitorsOnce runs two servers on one database (SQLite, or PostgreSQL with
// BINDERY_TEST_DB), as two processes would, each recording views of the same readers and
// flushing at the same time, several times: the views add up, and each reader is one visitor a
// day, not one per server or per flush.
func TestTwoServersCountVisitorsOnce(t *testing.T) {
	so := store.Options{DataDir: t.TempDir(), DSN: testenv.MigratedPostgresDSN(t)}
	servers := []*testenv.Env{testenv.NewOn(t, so), testenv.NewOn(t, so)}
	now := time.Now().UTC()
	const readers, rounds = 40, 3
	for round := range rounds {
		var wg sync.WaitGroup
		for i, e := range servers {
			for r := range readers {
				reader := insights.Reader{Address: fmt.Sprintf("10.0.0.%d", r), UserAgent: "reader"}
				ev := insights.Event{SiteID: "site", Type: insights.PageView, Time: now, URLPath: fmt.Sprintf("/page-%d", (r+i)%5)}
				if err := e.Insights.Record(reader, ev); err != nil {
					t.Fatal(err)
				}
			}
			wg.Go(func() {
				if err := e.Insights.Flush(context.Background()); err != nil {
					t.Errorf("server %d, round %d: %v", i, round, err)
				}
			})
		}
		wg.Wait()
	}
	q := insights.Query{Select: []insights.Column{{Name: "eventsCount"}, {Name: "visitorsCount"}},
		Where: []insights.Filter{{Column: "eventType", Values: []any{insights.PageView}}}, From: now, To: now}
	for i, e := range servers {
		got, err := insights.Aggregate(context.Background(), e.Store.Client, "site", q)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint([]insights.Values{{Column: "eventsCount", Values: []any{2 * readers * rounds}},
			{Column: "visitorsCount", Values: []any{readers}}}) {
			t.Errorf("read by server %d: %v, want %d views by %d visitors", i, got, 2*readers*rounds, readers)
		}
	}
	all, err := insights.Aggregate(context.Background(), servers[0].Store.Client, "site",
		insights.Query{Select: []insights.Column{{Name: "visitorsCount"}}, From: now, To: now})
	if err != nil || fmt.Sprint(all) != fmt.Sprint([]insights.Values{{Column: "visitorsCount", Values: []any{readers}}}) {
		t.Errorf("visitors of any type: %v %v", all, err)
	}
}
