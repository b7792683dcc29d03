package graph

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/insights"
)

// siteEvent is a SiteInsightsEvent of the reference, as much of it as Bindery keeps, with
// Bindery's resultsCount on searches (how many results the reader was shown).
type siteEvent struct {
	Type    string `json:"type"`
	Session *struct {
		Referrer *string `json:"referrer"`
	} `json:"session"`
	Location *struct {
		URL            string  `json:"url"`
		DisplayContext string  `json:"displayContext"`
		Space          *string `json:"space"`
		Page           *string `json:"page"`
	} `json:"location"`
	Timestamp    *time.Time `json:"timestamp"`
	Query        *string    `json:"query"`
	ResultsCount *int       `json:"resultsCount"`
	Feedback     *struct {
		Rating  string  `json:"rating"`
		Comment *string `json:"comment"`
	} `json:"feedback"`
	Link *struct {
		Target   map[string]any `json:"target"`
		Position string         `json:"position"`
	} `json:"link"`
}

// clockSkew is how far an event's timestamp may be from now (the reference's 5 minutes).
const clockSkew = 5 * time.Minute

// DecodeSiteEvents decodes the events of trackEventsInSiteById, refusing the first that is not
// one, by its index and what is wrong with it.
func DecodeSiteEvents(raw []json.RawMessage, now time.Time) ([]insights.Event, error) {
	if len(raw) > insights.MaxBatch {
		return nil, apperr.Invalidf("events: %d events, more than %d in one request", len(raw), insights.MaxBatch)
	}
	events := make([]insights.Event, len(raw))
	for i, r := range raw {
		var w siteEvent
		if err := json.Unmarshal(r, &w); err != nil {
			return nil, apperr.Invalidf("events[%d]: not a SiteInsightsEvent: %v", i, err)
		}
		e, err := w.event(now)
		if err != nil {
			return nil, apperr.Invalidf("events[%d]: %v", i, err)
		}
		events[i] = e
	}
	return events, nil
}

// event is w as an insights.Event, or what is wrong with it.
func (w siteEvent) event(now time.Time) (insights.Event, error) {
	e := insights.Event{Type: w.Type}
	if !insights.ValidType(w.Type) {
		return e, fmt.Errorf("type %q is not a SiteInsightsEventType", w.Type)
	}
	if w.Session == nil || w.Location == nil {
		return e, fmt.Errorf("session and location are required")
	}
	u, err := url.Parse(w.Location.URL)
	if err != nil || !u.IsAbs() || len(w.Location.URL) > 2048 {
		return e, fmt.Errorf("location.url %q is not an absolute URL of at most 2048 bytes", trimmed(w.Location.URL))
	}
	e.URLPath = u.EscapedPath()
	if e.URLPath == "" {
		e.URLPath = "/"
	}
	if w.Location.DisplayContext != "" && !slices.Contains(insights.DisplayContexts, w.Location.DisplayContext) {
		return e, fmt.Errorf("location.displayContext %q is not site, server, embed or mcp", trimmed(w.Location.DisplayContext))
	}
	e.DisplayContext = w.Location.DisplayContext
	e.SpaceID, e.PageID = deref(w.Location.Space), deref(w.Location.Page)
	if w.Session.Referrer != nil {
		e.ReferrerDomain = insights.ReferrerDomain(*w.Session.Referrer, u.Host)
	}
	if w.Timestamp != nil {
		if d := w.Timestamp.Sub(now); d > clockSkew || d < -clockSkew {
			return e, fmt.Errorf("timestamp is more than 5 minutes from now")
		}
		e.Time = w.Timestamp.UTC()
	}
	return e, w.details(&e)
}

// details fills in what the event's type says.
func (w siteEvent) details(e *insights.Event) error {
	switch w.Type {
	case "search_type_query", "search_open_result", "ask_question":
		if w.Query == nil {
			return fmt.Errorf("query is required for %s", w.Type)
		}
		e.SearchQuery, e.SearchResults = *w.Query, w.ResultsCount
		if w.ResultsCount != nil && *w.ResultsCount < 0 {
			return fmt.Errorf("resultsCount %d is negative", *w.ResultsCount)
		}
	case insights.Feedback, insights.FeedbackComment:
		if w.Feedback == nil || !slices.Contains(insights.Ratings, w.Feedback.Rating) {
			return fmt.Errorf("feedback.rating must be bad, ok or good")
		}
		e.Rating = w.Feedback.Rating
		if w.Type == insights.FeedbackComment {
			c := deref(w.Feedback.Comment)
			if n := utf8.RuneCountInString(c); n < 1 || n > insights.MaxComment {
				return fmt.Errorf("feedback.comment has %d characters, not 1 to %d", n, insights.MaxComment)
			}
			e.Comment = c
		}
	case insights.LinkClick:
		if w.Link == nil || !slices.Contains(insights.LinkPositions, w.Link.Position) {
			return fmt.Errorf("link.position must be one of announcement, header, footer, sidebar, content")
		}
		e.Link, e.LinkPosition = clickedLink(w.Link.Target), w.Link.Position
	}
	return nil
}

// clickedLink is where a ContentRef leads: its URL, or its kind and what it names.
func clickedLink(ref map[string]any) string {
	kind, _ := ref["kind"].(string)
	if s, ok := ref["url"].(string); ok && kind == "url" {
		return s
	}
	if s, ok := ref[kind].(string); ok {
		return kind + ":" + s
	}
	return kind
}

// trimmed is s cut for an error message.
func trimmed(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// siteAggregation is the reference's SiteInsightsQueryEventsAggregation.
type siteAggregation struct {
	Select []insightsColumn `json:"select"`
	Where  []struct {
		Column   string `json:"column"`
		Operator string `json:"operator"`
		Values   []any  `json:"values"`
	} `json:"where"`
	GroupBy []insightsColumn `json:"groupBy"`
	Order   *struct {
		By        insightsColumn `json:"by"`
		Direction string         `json:"direction"`
	} `json:"order"`
	Range json.RawMessage `json:"range"`
	Limit *int            `json:"limit"`
}

type insightsColumn struct {
	Column   string `json:"column"`
	Interval string `json:"interval"`
}

// DecodeAggregation decodes the body of aggregateSiteEvents into a query ending now at latest.
func DecodeAggregation(raw []byte, now time.Time) (insights.Query, error) {
	var w siteAggregation
	var q insights.Query
	if err := json.Unmarshal(raw, &w); err != nil {
		return q, apperr.Invalidf("not a SiteInsightsQueryEventsAggregation: %v", err)
	}
	var err error
	if q.From, q.To, err = decodeRange(w.Range, now); err != nil {
		return q, err
	}
	q.Select, q.GroupBy = insightsColumns(w.Select), insightsColumns(w.GroupBy)
	for _, f := range w.Where {
		q.Where = append(q.Where, insights.Filter{Column: f.Column, Operator: f.Operator, Values: f.Values})
	}
	if w.Order != nil {
		if w.Order.Direction != "asc" && w.Order.Direction != "desc" {
			return q, apperr.Invalidf("order.direction %q is not asc or desc", trimmed(w.Order.Direction))
		}
		q.OrderBy, q.Desc = &insights.Column{Name: w.Order.By.Column}, w.Order.Direction == "desc"
	}
	if w.Limit != nil {
		if *w.Limit < 1 {
			return q, apperr.Invalidf("limit: %d is not from 1 to %d", *w.Limit, insights.MaxLimit)
		}
		q.Limit = *w.Limit
	}
	return q, nil
}

// decodeRange is a SiteInsightsQueryRange: a preset or {from, to}.
func decodeRange(raw json.RawMessage, now time.Time) (from, to time.Time, err error) {
	var preset string
	if json.Unmarshal(raw, &preset) == nil {
		return insights.PresetRange(preset, now)
	}
	var custom struct {
		From *time.Time `json:"from"`
		To   *time.Time `json:"to"`
	}
	if json.Unmarshal(raw, &custom) != nil || custom.From == nil || custom.To == nil {
		return from, to, apperr.Invalidf("range is required: a preset (lastYear, last3Months, last30Days, last7Days, last24Hours) or {from, to}")
	}
	return *custom.From, *custom.To, nil
}

func insightsColumns(cols []insightsColumn) []insights.Column {
	out := make([]insights.Column, len(cols))
	for i, c := range cols {
		out[i] = insights.Column{Name: c.Column, Interval: c.Interval}
	}
	return out
}
