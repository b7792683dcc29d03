package graph

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/insights"
)

// fuzzNow is the time the fuzzed bodies are decoded at.
var fuzzNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// FuzzDecodeSiteEvents decodes any body of trackEventsInSiteById: it is refused as a 400 naming
// the event (events[i]) and what is wrong, or decoded into events within the tables' bounds.
func FuzzDecodeSiteEvents(f *testing.F) {
	loc := `"location":{"url":"https://docs.example/sites/acme/a","displayContext":"site","space":"s","page":"p"},"session":{"referrer":"https://news.example/x"}`
	for _, seed := range []string{
		`{"events":[{"type":"page_view",` + loc + `}]}`,
		`{"events":[{"type":"search_type_query","query":"webhooks","resultsCount":0,` + loc + `}]}`,
		`{"events":[{"type":"page_post_feedback_comment","feedback":{"rating":"ok","comment":"Fine."},` + loc + `}]}`,
		`{"events":[{"type":"link_click","link":{"target":{"kind":"url","url":"https://go.dev"},"position":"content"},` + loc + `}]}`,
		`{"events":[{"type":"page_view","timestamp":"2026-11-29T12:01:00Z",` + loc + `}]}`,
		`{"events":[{"type":"page_explode",` + loc + `}]}`,
		`{"events":[{"type":"page_view","location":{"url":"/relative"},"session":{}}]}`,
		`{"events":[{"type":"search_type_query","resultsCount":-1,` + loc + `}]}`,
		`{"events":[{"type":7}]}`,
		`{"events":[null]}`,
		`{"events":{}}`,
		`{"events":[{"type":"page_view","location":{"url":"https://x/\u0000\ud800"},"session":{"referrer":"::"}}]}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var w struct {
			Events []json.RawMessage `json:"events"`
		}
		if json.Unmarshal([]byte(body), &w) != nil {
			return // decodeBody answers 400 before the decoder
		}
		events, err := DecodeSiteEvents(w.Events, fuzzNow)
		if err != nil {
			e := apperr.As(err)
			if e == nil || e.Kind != apperr.Invalid || !regexp.MustCompile(`^events(\[\d+\])?: .`).MatchString(e.Message) {
				t.Fatalf("%q: %v, want a 400 naming the event", body, err)
			}
			return
		}
		for i, e := range events {
			if !insights.ValidType(e.Type) || !strings.HasPrefix(e.URLPath, "/") || len(e.URLPath) > 2048 {
				t.Fatalf("%q: event %d decoded as %+v", body, i, e)
			}
			if e.SearchResults != nil && *e.SearchResults < 0 || utf8.RuneCountInString(e.Comment) > insights.MaxComment {
				t.Fatalf("%q: event %d decoded out of bounds: %+v", body, i, e)
			}
		}
	})
}

// FuzzDecodeAggregation decodes any body of aggregateSiteEvents: it is refused as a 400 naming
// what is wrong, or decoded into a query of a range that ends.
func FuzzDecodeAggregation(f *testing.F) {
	for _, seed := range []string{
		`{"range":"last7Days"}`,
		`{"range":"last30Days","select":[{"column":"eventsCount"},{"column":"visitorsCount"}],"groupBy":[{"column":"datetime","interval":"day"}]}`,
		`{"range":{"from":"2026-11-01T00:00:00Z","to":"2026-11-29T00:00:00Z"},"groupBy":[{"column":"eventSearchQuery"}],"where":[{"column":"eventSearchResultsCount","values":[0]}],"limit":10}`,
		`{"range":"last7Days","order":{"by":{"column":"eventsCount"},"direction":"sideways"}}`,
		`{"range":"forever"}`,
		`{"range":{"from":"2026-11-01T00:00:00Z"}}`,
		`{"range":"last7Days","limit":0}`,
		`{"range":"last7Days","where":[{"column":"datetime","operator":"greaterThan","values":[1]}]}`,
		`{"select":"eventsCount"}`,
		`[]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		q, err := DecodeAggregation([]byte(body), fuzzNow)
		if err != nil {
			if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid || e.Message == "" {
				t.Fatalf("%q: %v, want a 400 saying what is wrong", body, err)
			}
			return
		}
		if q.Limit < 0 || q.Limit > 0 && q.Limit < 1 {
			t.Fatalf("%q: limit %d", body, q.Limit)
		}
	})
}
