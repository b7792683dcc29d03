// Package bench measures the server over real loopback HTTP. Machines are shared and noisy, so
// each benchmark also measures a baseline in the same run (a handler that writes fixed bytes over
// the same kind of httptest server) and reports the ratio "x-baseline": how many baseline requests
// one request costs.
package bench

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// perRequest measures the mean time of n calls of fn.
func perRequest(n int, fn func()) time.Duration {
	start := time.Now()
	for range n {
		fn()
	}
	return time.Since(start) / time.Duration(n)
}

// compare runs the measured request and the baseline alternately in rounds, so both see the same
// machine load, and reports the ratio of their mean times, and the processor time a request costs
// the process (client and server: on a loaded machine the elapsed time also counts the waits for
// a core).
func compare(b *testing.B, measured func()) {
	baseSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"object":"organization","id":"x"}`)
	}))
	defer baseSrv.Close()
	client := baseSrv.Client()
	baseline := func() { drain(b, func() (*http.Response, error) { return client.Get(baseSrv.URL) }) }
	measured() // warm up caches and connections
	baseline()
	b.ResetTimer()
	var base, meas, baseCPU, measCPU time.Duration
	rounds := 0
	for done := 0; done < b.N; done += 50 {
		meas, measCPU = addTimes(meas, measCPU, measured)
		base, baseCPU = addTimes(base, baseCPU, baseline)
		rounds++
	}
	b.StopTimer()
	b.ReportMetric(float64(meas/time.Duration(rounds))/1e6, "ms/req")
	b.ReportMetric(float64(base/time.Duration(rounds))/1e6, "baseline-ms/req")
	b.ReportMetric(float64(meas)/float64(base), "x-baseline")
	b.ReportMetric(float64(measCPU/time.Duration(rounds))/1e6, "cpu-ms/req")
	b.ReportMetric(float64(measCPU)/float64(baseCPU), "x-baseline-cpu")
}

// drain reads a response, failing the benchmark on anything but a 2xx without GraphQL errors.
func drain(b *testing.B, do func() (*http.Response, error)) {
	if err := readResponse(do); err != nil {
		b.Fatal(err)
	}
}

// readResponse reads a response and returns an error for anything but a 2xx without GraphQL
// errors; it may run on any goroutine.
func readResponse(do func() (*http.Response, error)) error {
	res, err := do()
	if err != nil {
		return err
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode/100 != 2 || strings.HasPrefix(string(body), `{"errors"`) {
		return fmt.Errorf("status %d: %.300s", res.StatusCode, body)
	}
	return nil
}

func get(b *testing.B, e *testenv.Env, a testenv.Actor, path string) func() {
	send := request(e, a, http.MethodGet, path, "")
	return func() { drain(b, send) }
}

func post(b *testing.B, e *testenv.Env, a testenv.Actor, path, body string) func() {
	send := request(e, a, http.MethodPost, path, body)
	return func() { drain(b, send) }
}

// request returns a function sending one request to e as a (JSON when it has a body).
func request(e *testenv.Env, a testenv.Actor, method, path, body string) func() (*http.Response, error) {
	return func() (*http.Response, error) {
		req, _ := http.NewRequest(method, e.Server.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+a.Token)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		return e.Server.Client().Do(req)
	}
}

// orgWithMembers returns a server whose organization has n members.
func orgWithMembers(b *testing.B, n int) (*testenv.Env, testenv.Actor, string) {
	e := testenv.New(b, testenv.WithoutReadCache)
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	for i := range n - 1 {
		e.User(fmt.Sprintf("m%d@example.com", i), org, testenv.Role(viewer.RoleEdit))
	}
	return e, admin, org
}

// BenchmarkGetOrganization is a REST point read: authentication, one organization, its permissions.
func BenchmarkGetOrganization(b *testing.B) {
	e, admin, org := orgWithMembers(b, 1)
	compare(b, get(b, e, admin, "/v1/orgs/"+org))
}

// BenchmarkListMembers is a REST list page of 100 members with their users and counts.
func BenchmarkListMembers(b *testing.B) {
	e, admin, org := orgWithMembers(b, 100)
	compare(b, get(b, e, admin, "/v1/orgs/"+org+"/members?limit=100"))
}

// BenchmarkGraphQLMembers is a GraphQL query of 100 members with users and team counts.
func BenchmarkGraphQLMembers(b *testing.B) {
	e, admin, _ := orgWithMembers(b, 100)
	q := `{"query":"{ organizations(first: 1) { edges { node { id members(first: 100) { totalCount edges { node { id role user { email } teamCount } } } } } } }"}`
	compare(b, post(b, e, admin, "/graphql", q))
}
