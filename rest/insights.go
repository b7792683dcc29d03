package rest

import (
	"encoding/json"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/sites"
)

// trackSiteEventsBody is the body of trackEventsInSiteById.
type trackSiteEventsBody struct {
	Events []json.RawMessage `json:"events"`
}

// aggregateSiteEventsBody is the body of aggregateSiteEvents (SiteInsightsQueryEventsAggregation),
// as the document describes it: the resolver decodes it (graph.DecodeAggregation).
type aggregateSiteEventsBody struct {
	Select  []map[string]any `json:"select,omitempty"`
	Where   []map[string]any `json:"where,omitempty"`
	GroupBy []map[string]any `json:"groupBy,omitempty"`
	Order   map[string]any   `json:"order,omitempty"`
	Range   any              `json:"range"`
	Limit   int              `json:"limit,omitempty"`
}

// aggregateSiteEventsAnswer is a SiteInsightsQueryEventsAggregationResult.
type aggregateSiteEventsAnswer struct {
	Columns []insights.Values `json:"columns"`
}

// SiteVisitorSegment is a SiteInsightsVisitorSegment.
type SiteVisitorSegment struct {
	Title    string         `json:"title"`
	Claims   map[string]any `json:"claims"`
	Events   int            `json:"events"`
	Visitors int            `json:"visitors"`
	Sessions int            `json:"sessions"`
}

// trackSiteEvents takes the reader's credentials of a share-link or visitor-auth site as its
// pages do: ?shareKey= and ?jwt_token=.
func (a *api) trackSiteEvents(w http.ResponseWriter, r *http.Request) {
	var body trackSiteEventsBody
	err := decodeBody(r, &body)
	if err == nil {
		q := r.URL.Query()
		audience := sites.Audience{ShareKey: q.Get("shareKey"), Token: q.Get("jwt_token")}
		err = a.r.TrackSiteEvents(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), body.Events, audience)
	}
	respondEmpty(w, r, http.StatusNoContent, err)
}

func (a *api) aggregateSiteEvents(w http.ResponseWriter, r *http.Request) {
	var body json.RawMessage
	err := decodeBody(r, &body)
	var columns []insights.Values
	if err == nil {
		columns, err = a.r.AggregateSiteEvents(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"), body)
	}
	respond(w, r, http.StatusOK, aggregateSiteEventsAnswer{Columns: columns}, err)
}

func (a *api) listSiteVisitorSegments(w http.ResponseWriter, r *http.Request) {
	segments, err := a.r.SiteVisitorSegments(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "siteId"))
	items := make([]SiteVisitorSegment, len(segments))
	for i, s := range segments {
		items[i] = SiteVisitorSegment(s)
	}
	respond(w, r, http.StatusOK, List[SiteVisitorSegment]{Items: items}, err)
}
