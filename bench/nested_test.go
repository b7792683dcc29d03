package bench

import (
	"fmt"
	"net/http"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// nestedOrgs makes orgs organizations of spaces spaces with crs change requests each (three
// authors per organization) and returns the admin and id of the first.
func nestedOrgs(b *testing.B, e *testenv.Env, orgs, spaces, crs int) (testenv.Actor, string) {
	var first testenv.Actor
	var firstOrg string
	for o := range orgs {
		admin, org := e.Bootstrap(fmt.Sprintf("admin%d@example.com", o), fmt.Sprintf("Org %d", o))
		authors := []string{admin.UserID}
		for i := range 2 {
			authors = append(authors, e.User(fmt.Sprintf("w%d-%d@example.com", o, i), org, testenv.Role(viewer.RoleEdit)).UserID)
		}
		for s := range spaces {
			res := call(b, e, admin, "POST", "/v1/orgs/"+org+"/spaces", fmt.Sprintf(`{"title":"Space %d"}`, s))
			e.ChangeRequests(res["id"].(string), authors, crs)
		}
		if o == 0 {
			first, firstOrg = admin, org
		}
	}
	return first, firstOrg
}

// nestedQuery is the body of the peer's nested read, as in /work/shared/peer/bindery-nested.json.
const nestedQuery = `{"query":"query { organization(id: \"ORG_ID\") { id title spaces(first: 50) { edges { node { id title changeRequests(status: null, first: 10) { edges { node { id number subject status createdBy { id displayName } } } } } } } } }"}`

// BenchmarkNestedQuery is the peer's nested GraphQL read (/work/shared/peer/bindery-nested.json):
// an organization, 50 spaces, 10 change requests of each and their authors, over 20
// organizations of 50 spaces of 20 change requests. Sequential reports the median of 21
// sequential requests, and the statements and goroutines (nearly all the executor's, one per
// element of an object list) of one; UnderLoad the process's CPU time per request under
// loadClients clients, as a ratio to a handler writing fixed bytes (underLoad): the figure make
// bench-peer's req/s goes with when the machine is busy.
func BenchmarkNestedQuery(b *testing.B) {
	logToDiscard(b)
	e := testenv.New(b, testenv.WithoutReadCache)
	admin, org := nestedOrgs(b, e, 20, 50, 20)
	body := strings.Replace(nestedQuery, "ORG_ID", org, 1)
	b.Run("Sequential", func(b *testing.B) {
		request := post(b, e, admin, "/graphql", body)
		request() // warm up caches and connections
		statements := e.Statements(request)
		goroutines := goroutinesStarted(request)
		b.ResetTimer()
		times := make([]time.Duration, 21)
		for i := range times {
			times[i] = timed(request)
		}
		b.StopTimer()
		slices.Sort(times)
		b.ReportMetric(ms(times[len(times)/2]), "median-ms")
		b.ReportMetric(float64(statements), "statements")
		b.ReportMetric(float64(goroutines), "goroutines")
	})
	b.Run("UnderLoad", func(b *testing.B) {
		underLoad(b, request(e, admin, http.MethodPost, "/graphql", body), staticBaseline(b))
	})
}

// goroutinesStarted returns how many goroutines the process started while do ran.
func goroutinesStarted(do func()) uint64 {
	sample := []metrics.Sample{{Name: "/sched/goroutines-created:goroutines"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	do()
	metrics.Read(sample)
	return sample[0].Value.Uint64() - before
}
