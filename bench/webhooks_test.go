package bench

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/cputime"
	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/internal/txn"
)

// burst is how many events BenchmarkWebhookBurst records at once.
const burst = 10_000

// BenchmarkWebhookBurst records 10,000 events at once (100 transactions of 100, as fast as the
// database takes them) and measures how fast the server's job runner, as `serve` runs it (2
// workers), hands them to a webhook and delivers them to a receiver on loopback answering 204:
// events/s from the first commit to the last delivery, and the processor time of the whole
// process per event (the receiver's and the recording's included). heap-MB is the live heap after a collection
// before the burst and after its last delivery (the runner still running): it stays flat when
// nothing is kept per event.
func BenchmarkWebhookBurst(b *testing.B) {
	logToDiscard(b)
	allow, err := fetch.ParseAllow("127.0.0.2")
	if err != nil {
		b.Fatal(err)
	}
	e := testenv.New(b, testenv.WithoutReadCache, func(o *server.Options) { o.FetchAllow = allow })
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	var received atomic.Int64
	rc := fetchtest.Serve(b, "127.0.0.2", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		received.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	drain(b, request(e, admin, http.MethodPost, "/v1/orgs/"+org+"/webhooks", `{"url":"`+rc.URL+`/hook"}`))
	e.RunJobs()
	sys := accounts.System(context.Background())
	var took, cpu time.Duration
	var before, after uint64
	b.ResetTimer()
	for range b.N {
		want := received.Load() + burst
		before = liveHeap()
		start, cpuStart := time.Now(), cputime.Process()
		for range burst / 100 {
			err := txn.Run(sys, e.Store.Client, func(tx *ent.Tx) error {
				for range 100 {
					if err := events.Record(sys, tx.Client(), events.Event{Type: events.SpaceUpdated, Organization: org,
						ObjectKind: "space", ObjectID: "s", Details: map[string]any{"fields": []string{"title"}}}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
		for received.Load() < want {
			if time.Since(start) > 10*time.Minute {
				b.Fatalf("%d of %d deliveries in 10 minutes", received.Load()-want+burst, burst)
			}
			time.Sleep(10 * time.Millisecond)
		}
		took += time.Since(start)
		cpu += cputime.Process() - cpuStart
		after = liveHeap()
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N*burst)/took.Seconds(), "events/s")
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N*burst), "cpu-µs/event")
	b.ReportMetric(float64(before)/(1<<20), "heap-before-MB")
	b.ReportMetric(float64(after)/(1<<20), "heap-after-MB")
}

// liveHeap is the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
