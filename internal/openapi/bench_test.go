package openapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.yaml.in/yaml/v4"

	"github.com/binderyhq/bindery/internal/openapi"
	"github.com/binderyhq/bindery/internal/testkit/cputime"
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

// peakHeap samples the heap in use every millisecond while fn runs and returns its peak. It reads
// runtime/metrics, which does not stop the world as runtime.ReadMemStats does.
func peakHeap(fn func()) uint64 {
	samples := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			metrics.Read(samples)
			if inUse := samples[0].Value.Uint64() + samples[1].Value.Uint64(); inUse > peak.Load() {
				peak.Store(inUse)
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

// measure runs fn once per iteration, reporting the peak heap in use during a run and the
// processor time of a run beside time and allocations: on a machine shared with other work, the
// processor time moves less than the elapsed time.
func measure(b *testing.B, size int, fn func() error) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	var peak uint64
	var cpu time.Duration
	for b.Loop() {
		runtime.GC()
		var err error
		start := cputime.Process()
		peak = max(peak, peakHeap(func() { err = fn() }))
		cpu += cputime.Process() - start
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MB")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}

// BenchmarkProcess5MB fetches a 5 MB document from a local server, parses and validates it and
// builds its filesystem, in YAML and in JSON. The baseline is decoding the JSON document with
// encoding/json into a generic value: the least any processing does.
func BenchmarkProcess5MB(b *testing.B) {
	doc := bigDocument(5 << 20)
	var v any
	if err := yaml.Unmarshal([]byte(doc), &v); err != nil {
		b.Fatal(err)
	}
	asJSON, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	base, client := docServer(b, map[string]string{"/openapi.yaml": doc, "/openapi.json": string(asJSON)}, nil)
	limits := openapi.Limits{MaxBytes: 16 << 20, MaxFiles: 10, Timeout: time.Minute}
	b.Run("baseline=json.Unmarshal", func(b *testing.B) {
		measure(b, len(asJSON), func() error { var v any; return json.Unmarshal(asJSON, &v) })
	})
	for _, name := range []string{"openapi.yaml", "openapi.json"} {
		b.Run(name, func(b *testing.B) {
			measure(b, len(doc), func() error {
				_, err := openapi.FromURL(context.Background(), client, base+"/"+name, limits)
				return err
			})
		})
	}
}

// githubDescription is GitHub's own API description (13 MB of JSON), from the npm package
// @octokit/openapi 23.0.2: `make bench-openapi` fetches it into .cache/octokit.
const githubDescription = "../../.cache/octokit/package/generated/api.github.com.json"

// BenchmarkGitHubDescription processes GitHub's description from a local server with the default
// limits: the size DefaultLimits.MaxBytes is set for, and the peak heap a processing of it holds.
// The baseline is decoding it with encoding/json into a generic value.
func BenchmarkGitHubDescription(b *testing.B) {
	doc, err := os.ReadFile(githubDescription)
	if err != nil {
		b.Skipf("%v (make bench-openapi fetches it)", err)
	}
	base, client := docServer(b, map[string]string{"/api.github.com.json": string(doc)}, nil)
	b.Run("baseline=json.Unmarshal", func(b *testing.B) {
		measure(b, len(doc), func() error { var v any; return json.Unmarshal(doc, &v) })
	})
	b.Run("process", func(b *testing.B) {
		measure(b, len(doc), func() error {
			d, err := openapi.FromURL(context.Background(), client, base+"/api.github.com.json", openapi.DefaultLimits)
			if err == nil {
				b.ReportMetric(float64(d.WarningCount), "warnings")
			}
			return err
		})
	})
}
