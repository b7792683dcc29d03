package bench

import (
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/testenv"
)

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkZZNested(b *testing.B) {
	e := testenv.New(b)
	admin, org := nestedOrgs(b, e, 2, 50, 20)
	request := post(b, e, admin, "/graphql", strings.Replace(nestedQuery, "ORG_ID", org, 1))
	request()
	b.ResetTimer()
	start := cpuTime()
	for range b.N {
		request()
	}
	b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapAlloc)/1e6, "live-MB")
}

func BenchmarkZZPoint(b *testing.B) {
	e := testenv.New(b)
	admin, org := e.Bootstrap("a@example.com", "Org")
	id := call(b, e, admin, "POST", "/v1/orgs/"+org+"/spaces", `{"title":"S"}`)["id"].(string)
	request := get(b, e, admin, "/v1/spaces/"+id)
	request()
	b.ResetTimer()
	start := cpuTime()
	for range b.N {
		request()
	}
	b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
}

func BenchmarkZZNestedParallel(b *testing.B) {
	e := testenv.New(b)
	admin, org := nestedOrgs(b, e, 2, 50, 20)
	request := post(b, e, admin, "/graphql", strings.Replace(nestedQuery, "ORG_ID", org, 1))
	request()
	b.SetParallelism(8)
	b.ResetTimer()
	start := cpuTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			request()
		}
	})
	b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
}
