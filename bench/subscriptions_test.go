package bench

import (
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// fanOut is how many WebSocket subscribers of one space BenchmarkSubscriptionFanOut runs.
const fanOut = 1000

// BenchmarkSubscriptionFanOut is the time from the commit of a comment (from its POST's start: on
// PostgreSQL the first subscriber has it before the answer arrives) to its delivery to the last
// of 1,000 WebSocket subscribers (commentAdded) of its space, each on
// a connection of its own, as each checks its access again and loads the comment. last-ms is
// that time (the bound: 1,000 ms); first-ms the first delivery's; x-bound last-ms over
// the bound.
func BenchmarkSubscriptionFanOut(b *testing.B) {
	logToDiscard(b)
	e := testenv.New(b, func(o *server.Options) { o.Limits.Subscriptions.PerCredential = 0 })
	admin, org := e.Bootstrap("admin@example.com", "Bench")
	space := seedSpaces(b, e.Store.Client, org, 1)[0]
	got := make(chan time.Time, fanOut)
	for range fanOut {
		s := testenv.DialSocket(b, e.Server.URL, nil)
		s.Init(map[string]any{"Authorization": "Bearer " + admin.Token})
		s.Subscribe("c", `subscription($s: ID!) { commentAdded(spaceId: $s) { id body } }`, map[string]any{"s": space})
		go func() {
			for {
				m, err := s.Read(time.Hour)
				if err != nil {
					return
				}
				if m["type"] == "next" {
					got <- time.Now()
				}
			}
		}()
	}
	time.Sleep(time.Second) // every subscription started
	post := request(e, admin, http.MethodPost, "/v1/spaces/"+space+"/comments", `{"body":{"markdown":"Fan out"}}`)
	var firsts, lasts []time.Duration
	b.ResetTimer()
	for range b.N {
		committed := time.Now() // an upper bound: the commit comes after, the answer later still
		drain(b, post)
		var first, last time.Time
		for i := range fanOut {
			select {
			case at := <-got:
				if i == 0 {
					first = at
				}
				last = at
			case <-time.After(30 * time.Second):
				b.Fatalf("%d of %d subscribers got the event", i, fanOut)
			}
		}
		firsts, lasts = append(firsts, first.Sub(committed)), append(lasts, last.Sub(committed))
	}
	b.StopTimer()
	b.ReportMetric(ms(median(firsts)), "first-ms")
	b.ReportMetric(ms(median(lasts)), "last-ms")
	b.ReportMetric(ms(median(lasts))/1000, "x-bound")
}

func median(d []time.Duration) time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}
