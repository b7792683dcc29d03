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
	"github.com/binderyhq/bindery/internal/testkit/cputime"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/internal/txn"
)

// BenchmarkEventRecording is what recording an event adds to the write that causes it. Three
// writes alternate: a space's title changed over REST (PATCH /v1/spaces/{id}, which records its
// space.updated event), and, in-process, the same update alone in a transaction and with its event
// recorded (events.Record). The recording's cost is the difference of the last two; x-write is
// the REST write with it over the REST write without it. The bound: x-write ≤ 1.10. The
// -cpu metrics are the same figures in processor time (the client's and the server's, one
// process), which a loaded machine changes less.
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
	var w, p, r, wCPU, pCPU, rCPU time.Duration
	for done := 0; done < b.N; done += 50 {
		w, wCPU = addTimes(w, wCPU, rest)
		p, pCPU = addTimes(p, pCPU, plain)
		r, rCPU = addTimes(r, rCPU, recorded)
	}
	b.StopTimer()
	rounds := float64(b.N / 50 * 1e6)
	b.ReportMetric(float64(w)/rounds, "write-ms")
	b.ReportMetric(float64(r-p)/rounds, "event-ms")
	b.ReportMetric(float64(w)/float64(w-(r-p)), "x-write")
	b.ReportMetric(float64(rCPU-pCPU)/rounds, "event-cpu-ms")
	b.ReportMetric(float64(wCPU)/float64(wCPU-(rCPU-pCPU)), "x-write-cpu")
}

// addTimes adds to wall and cpu the mean elapsed and processor time of 50 calls of fn: on a
// loaded machine the processor time the process spent tells the cost of a call where its elapsed
// time also counts the waits for a core.
func addTimes(wall, cpu time.Duration, fn func()) (time.Duration, time.Duration) {
	start := cputime.Process()
	wall += perRequest(50, fn)
	return wall, cpu + (cputime.Process()-start)/50
}
