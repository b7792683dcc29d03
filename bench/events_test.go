package bench

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/internal/txn"
)

// BenchmarkEventRecording is what recording an event adds to the write that causes it. Three
// writes alternate: a space's title changed over REST (PATCH /v1/spaces/{id}, which records its
// space.updated event), and, in-process, the same update alone in a transaction and with its event
// recorded (events.Record). The recording's cost is the difference of the last two; x-write is
// the REST write with it over the REST write without it. The bound: x-write ≤ 1.10.
func BenchmarkEventRecording(b *testing.B) {
	logToDiscard(b)
	e := testenv.New(b, testenv.WithoutReadCache)
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	spaceID := seedSpaces(b, e.Store.Client, org, 1)[0]
	sys := accounts.System(context.Background())
	n := 0
	update := func(record bool) func() {
		return func() {
			n++
			err := txn.Run(sys, e.Store.Client, func(tx *ent.Tx) error {
				if err := tx.Space.UpdateOneID(spaceID).SetTitle("Title " + strconv.Itoa(n)).Exec(sys); err != nil || !record {
					return err
				}
				return events.Record(sys, tx.Client(), events.Event{Type: events.SpaceUpdated, Organization: org,
					ObjectKind: "space", ObjectID: spaceID, Space: spaceID, Details: map[string]any{"fields": []string{"title"}}})
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	send := request(e, admin, http.MethodPatch, "/v1/spaces/"+spaceID, `{"title":"Renamed"}`)
	rest := func() { drain(b, send) }
	plain, recorded := update(false), update(true)
	b.ResetTimer()
	var w, p, r time.Duration
	for done := 0; done < b.N; done += 50 {
		w += perRequest(50, rest)
		p += perRequest(50, plain)
		r += perRequest(50, recorded)
	}
	b.StopTimer()
	b.ReportMetric(float64(w)/float64(b.N/50*1e6)*1, "write-ms")
	b.ReportMetric(float64(r-p)/float64(b.N/50*1e6)*1, "event-ms")
	b.ReportMetric(float64(w)/float64(w-(r-p)), "x-write")
}
