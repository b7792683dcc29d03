package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/cputime"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// BenchmarkRecordingPageViews reads computed pages of the same published site from two servers in
// the same run, one recording each view (its flusher writing them beside) and one recording none,
// a round on each in turn: x-recorded-views is the views/s of the first over the second's
// (issue 39: recording adds at most 5 %, so at least 0.95). The cap per address is lifted: every
// reader here has the one address of the loopback.
func BenchmarkRecordingPageViews(b *testing.B) {
	logToDiscard(b)
	content := docsSite()
	uncapped := func(o *server.Options) { o.Insights.PerAddress = 1 << 30 }
	recording := publishedSiteOn(b, testenv.New(b, testenv.KeepingNoAnswers, uncapped), content)
	// The flusher alone runs beside, not the whole job runner, which the other server does not run.
	ctx, stop := context.WithCancel(context.Background())
	flushed := make(chan struct{})
	go func() { defer close(flushed); recording.Insights.Run(ctx) }()
	b.Cleanup(func() { stop(); <-flushed })
	plain := publishedSiteOn(b, testenv.New(b, testenv.KeepingNoAnswers, testenv.RecordingNoInsights), content)
	var withViews, without *pageReaders
	for _, e := range []publishedSite{recording, plain} {
		var urls []string
		for _, path := range pagePaths(content) {
			urls = append(urls, e.Server.URL+"/sites/big/"+path)
		}
		r := newReaders(urls)
		if err := r.read(len(urls) * readers); err != nil { // every page rendered, every connection open
			b.Fatal(err)
		}
		r.took, r.elapsed = r.took[:0], 0
		if e.Env == recording.Env {
			withViews = r
		} else {
			without = r
		}
	}
	b.ResetTimer()
	const round = 50 * readers
	for done := 0; done < b.N; done += round {
		for _, r := range []*pageReaders{withViews, without} {
			if err := r.read(round); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	withViews.report(b, "")
	without.report(b, "unrecorded-")
	b.ReportMetric(withViews.viewsPerSecond()/without.viewsPerSecond(), "x-recorded-views")
}

// BenchmarkInsightsAggregations answers the dashboard's aggregations over 1,000,000 events of one
// site recorded over 90 days (300 pages, 40 referrers, 1,000 searches of which a fifth find
// nothing, feedback, 50,000 visitors): each must answer in at most 200 ms on SQLite (issue 39).
// cpu-ms/aggregation is the CPU time of the whole process per aggregation (the flusher is idle).
func BenchmarkInsightsAggregations(b *testing.B) {
	logToDiscard(b)
	e := testenv.New(b)
	now := time.Now().UTC()
	recordEvents(b, e.Insights, "site", now, 1_000_000)
	views := insights.Filter{Column: "eventType", Values: []any{insights.PageView}}
	searches := insights.Filter{Column: "eventType", Values: []any{insights.SearchQuery}}
	for _, c := range []struct {
		name string
		q    insights.Query
	}{
		{"ViewsAndVisitorsPerDay", insights.Query{Select: []insights.Column{{Name: "eventsCount"}, {Name: "visitorsCount"}},
			GroupBy: []insights.Column{{Name: "datetime", Interval: "day"}}, Where: []insights.Filter{views}}},
		{"TopPages", insights.Query{GroupBy: []insights.Column{{Name: "urlPath"}}, Where: []insights.Filter{views}, Limit: 10}},
		{"TopReferrers", insights.Query{GroupBy: []insights.Column{{Name: "referrerDomain"}}, Limit: 10}},
		{"TopSearches", insights.Query{GroupBy: []insights.Column{{Name: "eventSearchQuery"}}, Where: []insights.Filter{searches}, Limit: 10}},
		{"SearchesWithoutResults", insights.Query{GroupBy: []insights.Column{{Name: "eventSearchQuery"}}, Limit: 10,
			Where: []insights.Filter{searches, {Column: "eventSearchResultsCount", Values: []any{0.0}}}}},
		{"FeedbackByPage", insights.Query{Select: []insights.Column{{Name: "pageFeedbackRating"}}, GroupBy: []insights.Column{{Name: "urlPath"}}, Limit: 10}},
	} {
		b.Run(c.name, func(b *testing.B) {
			c.q.From, c.q.To = now.AddDate(-1, 0, 0), now
			cpu := cputime.Process()
			for b.Loop() {
				if _, err := insights.Aggregate(context.Background(), e.Store.Client, "site", c.q); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/aggregation")
			b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/aggregation")
		})
	}
}

// recordEvents records n events of a site over the 90 days before now, through the recorder.
func recordEvents(b *testing.B, rec *insights.Recorder, site string, now time.Time, n int) {
	rec.PerAddress = 1 << 30
	rng := rand.New(rand.NewPCG(39, 39))
	for i := range n {
		e := insights.Event{SiteID: site, Type: insights.PageView, Time: now.Add(-time.Duration(rng.Int64N(int64(90 * 24 * time.Hour)))),
			URLPath: fmt.Sprintf("/guides/page-%d", rng.IntN(300))}
		switch k := rng.IntN(100); {
		case k < 10:
			results := rng.IntN(20)
			if k < 2 {
				results = 0
			}
			e.Type, e.SearchQuery, e.SearchResults = insights.SearchQuery, fmt.Sprintf("query %d", rng.IntN(1000)), &results
		case k < 12:
			e.Type, e.Rating = insights.Feedback, insights.Ratings[rng.IntN(3)]
		case k < 40:
			e.ReferrerDomain = fmt.Sprintf("ref%d.example", rng.IntN(40))
		}
		if err := rec.Record(insights.Reader{Address: fmt.Sprint(rng.IntN(50_000)), UserAgent: "bench"}, e); err != nil {
			b.Fatal(err)
		}
		if (i+1)%insights.MaxPending == 0 || i == n-1 {
			if err := rec.Flush(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	}
}
