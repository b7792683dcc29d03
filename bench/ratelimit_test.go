package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/ratelimit"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// BenchmarkRateLimitedRead is a point read (REST GET /v1/orgs/{id}, GraphQL organization(id))
// on a server with the default rate limits against the same read on one without, alternately
// (x-unlimited). A token's points reach the database once per 50 of them (a hundredth of 5,000),
// so the limited server rotates to a fresh token every 4,000 reads: the budget never runs out
// and the writes come as often as for any client.
func BenchmarkRateLimitedRead(b *testing.B) {
	off, offAdmin, offOrg := orgWithMembers(b, 1)
	on := testenv.New(b, testenv.WithoutReadCache, func(o *server.Options) { o.RateLimits = ratelimit.DefaultLimits })
	onAdmin, onOrg := on.Bootstrap("admin@example.com", "Bench")
	tokens := rotatingTokens(b, on, onAdmin, 4000)
	graphQL := func(org string) string {
		return fmt.Sprintf(`{"query":"{ organization(id: \"%s\") { id title } }"}`, org)
	}
	b.Run("REST", func(b *testing.B) {
		unlimited := get(b, off, offAdmin, "/v1/orgs/"+offOrg)
		limited := func() { get(b, on, tokens(), "/v1/orgs/"+onOrg)() }
		alternate(b, "unlimited", unlimited, "limited", limited)
	})
	b.Run("GraphQL", func(b *testing.B) {
		unlimited := post(b, off, offAdmin, "/graphql", graphQL(offOrg))
		limited := func() { post(b, on, tokens(), "/graphql", graphQL(onOrg))() }
		alternate(b, "unlimited", unlimited, "limited", limited)
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
