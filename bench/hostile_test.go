package bench

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// BenchmarkHostileGraphQL measures the server's side of refusing each hostile document of
// issue 15 (testenv.HostileGraphQL): the handler is called directly with the request's body
// ready, so neither the client's marshalling nor the network is counted. The baseline, in the
// same rounds, is `{ viewer { id } }` answered the same way. Reported: the refusal's time, its
// ratio to the baseline, what one refusal allocates (bytes and objects), and the heap it leaves
// behind after 100 refusals (after a GC). Log lines are formatted and discarded.
func BenchmarkHostileGraphQL(b *testing.B) {
	logToDiscard(b)
	e := testenv.New(b, testenv.WithoutReadCache)
	admin, _ := e.Bootstrap("admin@example.com", "Bench")
	baseline := served(b, e, admin, "{ viewer { id } }", "")
	for _, doc := range testenv.HostileGraphQL() {
		b.Run(doc.Name, func(b *testing.B) {
			refusal := served(b, e, admin, doc.Query, doc.Code)
			alternate(b, "viewer", baseline, "refusal", refusal)
			reportMemory(b, refusal)
		})
	}
}

// served returns a call of the server's handler with the GraphQL document as admin, which fails
// the benchmark unless the answer's first error has code (none when code is empty).
func served(b *testing.B, e *testenv.Env, a testenv.Actor, query, code string) func() {
	body, err := json.Marshal(map[string]string{"query": query})
	if err != nil {
		b.Fatal(err)
	}
	handler := e.Server.Config.Handler
	return func() {
		req := httptest.NewRequest(http.MethodPost, "/graphql", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+a.Token)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		var g testenv.GQLResponse
		if err := json.Unmarshal(rec.Body.Bytes(), &g); err != nil || g.Code() != code || code == "" && len(g.Errors) > 0 {
			b.Fatalf("answered %d, want code %q: %.300s", rec.Code, code, rec.Body)
		}
	}
}

// reportMemory reports what one call of fn allocates, and how much the live heap grew over 100
// calls once collected: what the server keeps of a refused document (the query cache keeps none).
func reportMemory(b *testing.B, fn func()) {
	b.StopTimer()
	const calls = 100
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range calls {
		fn()
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/calls/(1<<10), "KiB-alloc/refusal")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/calls, "allocs/refusal")
	b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20), "MiB-heap-growth")
}
