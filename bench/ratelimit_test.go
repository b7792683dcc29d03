package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testenv"
)

// BenchmarkRateLimitedRead is a point read (REST GET /v1/orgs/{id}, GraphQL organization(id))
// on a server with the default rate limits against the same read on one without, alternately
// (x-unlimited). A token's points reach the database once per 50 of them (a hundredth of 5,000),
// so the limited server rotates to a fresh token every 4,000 reads: the budget never runs out
// and the writes come as often as for any client.
func BenchmarkRateLimitedRead(b *testing.B) {
	off, offAdmin, offOrg := orgWithMembers(b, 1)
	on := testenv.New(b, func(o *server.Options) { o.RateLimits = ratelimit.DefaultLimits })
	onAdmin, onOrg := on.Bootstrap("admin@example.com", "Bench")
	tokens := rotatingTokens(b, on, onAdmin, 4000)
	graphQL := func(org string) string { return fmt.Sprintf(`{"query":"{ organization(id: \"%s\") { id title } }"}`, org) }
	b.Run("REST", func(b *testing.B) {
		unlimited := get(b, off, offAdmin, "/v1/orgs/"+offOrg)
		limited := func() { get(b, on, tokens(), "/v1/orgs/"+onOrg)() }
		alternate(b, unlimited, limited)
	})
	b.Run("GraphQL", func(b *testing.B) {
		unlimited := post(b, off, offAdmin, "/graphql", graphQL(offOrg))
		limited := func() { post(b, on, tokens(), "/graphql", graphQL(onOrg))() }
		alternate(b, unlimited, limited)
	})
}

// rotatingTokens returns a function giving a's token for each request, a new one every n.
func rotatingTokens(b *testing.B, e *testenv.Env, a testenv.Actor, n int) func() testenv.Actor {
	calls := 0
	return func() testenv.Actor {
		if calls%n == n-1 {
			_, token, err := accounts.IssueToken(context.Background(), e.Store.Client, a.UserID, "bench")
			if err != nil {
				b.Fatal(err)
			}
			a.Token = token
		}
		calls++
		return a
	}
}

// alternate runs two requests in alternating rounds of 50 and reports each one's mean time and
// the ratio of the second to the first.
func alternate(b *testing.B, unlimited, limited func()) {
	unlimited()
	limited()
	b.ResetTimer()
	var u, l time.Duration
	for done := 0; done < b.N; done += 50 {
		u += perRequest(50, unlimited)
		l += perRequest(50, limited)
	}
	b.StopTimer()
	rounds := time.Duration((b.N + 49) / 50)
	b.ReportMetric(float64(u/rounds)/1e6, "unlimited-ms/req")
	b.ReportMetric(float64(l/rounds)/1e6, "limited-ms/req")
	b.ReportMetric(float64(l)/float64(u), "x-unlimited")
}
