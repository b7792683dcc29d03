package graph

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/insights"
	"github.com/binderyhq/bindery/internal/sites"
)

// TrackSiteEvents records the events (SiteInsightsEvent) of the request's reader on a published
// site of an organization (trackEventsInSiteById). Anyone may send them, as readers' pages do,
// who may read the site: the site must be published and the reader in its audience as its
// pages ask (a share link's key for a share-link site, a visitor token for a visitor-auth one),
// else the site is not found, whatever the reason, so that the answer tells no more than the
// site's pages would. The reader's address is capped (insights.ErrTooMany). Each event's URL
// path is made the path inside the site.
func (r *Resolver) TrackSiteEvents(ctx context.Context, orgID, siteID string, raw []json.RawMessage, audience sites.Audience) error {
	events, err := DecodeSiteEvents(raw, r.now(ctx))
	if err != nil {
		return err
	}
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	s, err := r.Client.Site.Query().Where(site.ID(siteID), site.OrganizationID(orgID), site.Published(true)).Only(sys)
	if err != nil {
		return rule.NotFound(err, "site")
	}
	if err := r.sitesService().Admits(sys, s, audience); err != nil {
		if e := apperr.As(err); e != nil && (e.Kind == apperr.NotFound || e.Kind == apperr.Unauthenticated) {
			return apperr.NotFoundf("site not found")
		}
		return err
	}
	for i := range events {
		events[i].SiteID = s.ID
		events[i].URLPath = SitePath(s, events[i].URLPath)
	}
	if err := r.Insights.Record(insights.ReaderFrom(ctx), events...); err != nil {
		return apperr.RateLimitedf("%s", err.Error())
	}
	return nil
}

// SitePath is a URL path of a site made the path inside it: without the /sites/{basename or id}
// it has under this server's address.
func SitePath(s *ent.Site, path string) string {
	for _, name := range []string{s.ID, basenameOf(s)} {
		if name == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(path, "/sites/"+name); ok && (rest == "" || rest[0] == '/') {
			return "/" + strings.TrimPrefix(rest, "/")
		}
	}
	return path
}

// insightsSite is a site whose insights the viewer may read: its organization's members with
// the edit role or more.
func (r *Resolver) insightsSite(ctx context.Context, orgID, siteID string) (*ent.Site, error) {
	s, err := r.sitesService().Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return s, rule.RequireOrgRole(ctx, orgID, viewer.RoleEdit, "read a site's insights")
}

// AggregateSiteEvents answers an aggregation of a site's events (aggregateSiteEvents), asked as
// a SiteInsightsQueryEventsAggregation.
func (r *Resolver) AggregateSiteEvents(ctx context.Context, orgID, siteID string, raw []byte) ([]insights.Values, error) {
	s, err := r.insightsSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	q, err := DecodeAggregation(raw, r.now(ctx))
	if err != nil {
		return nil, err
	}
	return insights.Aggregate(ctx, r.Client, s.ID, q)
}

// SiteInsights answers an aggregation of a site's events, as the dashboard asks them.
func (r *Resolver) SiteInsights(ctx context.Context, orgID, siteID string, q insights.Query) ([]insights.Values, error) {
	s, err := r.insightsSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return insights.Aggregate(ctx, r.Client, s.ID, q)
}

// Now is the time of the request, as the resolvers read it.
func (r *Resolver) Now(ctx context.Context) time.Time { return r.now(ctx) }

// SiteVisitorSegments are a site's visitor segments over the last 30 days
// (listSiteVisitorSegments): Bindery keeps no visitor claims, so there is one, of everyone.
func (r *Resolver) SiteVisitorSegments(ctx context.Context, orgID, siteID string) ([]insights.Segment, error) {
	s, err := r.insightsSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return insights.Segments(ctx, r.Client, s.ID, r.now(ctx))
}

// RecentFeedback are the latest comments readers left on a site's pages, newest first.
func (r *Resolver) RecentFeedback(ctx context.Context, orgID, siteID string, limit int) ([]insights.Comment, error) {
	s, err := r.insightsSite(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return insights.RecentComments(ctx, r.Client, s.ID, limit)
}

// basenameOf is a site's basename, or "" when it has none.
func basenameOf(s *ent.Site) string {
	if s.Basename == nil {
		return ""
	}
	return *s.Basename
}

// pointers are pointers to the elements of list, as gqlgen's lists of objects take them.
func pointers[T any](list []T) []*T {
	out := make([]*T, len(list))
	for i := range list {
		out[i] = &list[i]
	}
	return out
}
