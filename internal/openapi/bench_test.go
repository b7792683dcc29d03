package openapi_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/openapi"
)

// bigDocument is an OpenAPI 3.0 YAML document of about size bytes: paths whose operations
// reference component schemas.
func bigDocument(size int) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: Big, version: '1'}\npaths:\n")
	var schemas strings.Builder
	for i := 0; b.Len()+schemas.Len() < size; i++ {
		fmt.Fprintf(&b, "  /things%d/{id}:\n    get:\n      operationId: getThing%d\n      description: Returns thing %d with its details, its owner and the links to related things.\n"+
			"      parameters:\n      - {name: id, in: path, required: true, schema: {type: string}}\n"+
			"      responses:\n        '200':\n          description: The thing\n          content:\n            application/json:\n"+
			"              schema: {$ref: '#/components/schemas/Thing%d'}\n", i, i, i, i)
		fmt.Fprintf(&schemas, "    Thing%d:\n      type: object\n      required: [id, name]\n      properties:\n"+
			"        id: {type: string, description: The identifier of the thing}\n        name: {type: string, maxLength: 100}\n"+
			"        tags: {type: array, items: {type: string}}\n        size: {type: integer, format: int64, minimum: 0}\n", i)
	}
	b.WriteString("components:\n  schemas:\n")
	b.WriteString(schemas.String())
	return b.String()
}

// peakHeap samples the heap in use every millisecond while fn runs and returns its peak.
func peakHeap(fn func()) uint64 {
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return peak.Load()
}

// BenchmarkProcess5MB fetches a 5 MB document from a local server, parses and validates it and
// builds its filesystem, reporting the peak heap in use during a run beside time and allocations.
func BenchmarkProcess5MB(b *testing.B) {
	doc := bigDocument(5 << 20)
	base, client := docServer(b, map[string]string{"/openapi.yaml": doc}, nil)
	limits := openapi.Limits{MaxBytes: 16 << 20, MaxFiles: 10, Timeout: time.Minute}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	var peak uint64
	for b.Loop() {
		runtime.GC()
		p := peakHeap(func() {
			if _, err := openapi.FromURL(context.Background(), client, base+"/openapi.yaml", limits); err != nil {
				b.Fatal(err)
			}
		})
		peak = max(peak, p)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
}
