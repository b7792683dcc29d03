package insights

import (
	"context"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/siteinsightevent"
	"github.com/binderyhq/bindery/ent/viewer"
)

// Segment is a group of visitors (SiteInsightsVisitorSegment). Bindery keeps no visitor claims,
// so a site has one segment, of all its visitors, whose sessions are its visitors' days.
type Segment struct {
	Title    string
	Claims   map[string]any
	Events   int
	Visitors int
	Sessions int
}

// Comment is a reader's comment on a page.
type Comment struct {
	Time    time.Time
	URLPath string
	Rating  string
	Comment string
}

// Segments are a site's visitor segments over the 30 days before now.
func Segments(ctx context.Context, client *ent.Client, siteID string, now time.Time) ([]Segment, error) {
	from, to, _ := PresetRange("last30Days", now)
	q := Query{Select: []Column{{Name: colEvents}, {Name: colVisitors}}, From: from, To: to}
	values, err := Aggregate(ctx, client, siteID, q)
	if err != nil {
		return nil, err
	}
	seg := Segment{Title: "All visitors", Claims: map[string]any{}}
	if len(values[0].Values) > 0 {
		seg.Events, seg.Visitors = values[0].Values[0].(int), values[1].Values[0].(int)
		seg.Sessions = seg.Visitors
	}
	return []Segment{seg}, nil
}

// RecentComments are the latest limit comments left on a site's pages, newest first.
func RecentComments(ctx context.Context, client *ent.Client, siteID string, limit int) ([]Comment, error) {
	sys := privacy.DecisionContext(viewer.NewContext(ctx, viewer.System()), privacy.Allow)
	rows, err := client.SiteInsightEvent.Query().
		Where(siteinsightevent.SiteID(siteID), siteinsightevent.Type(FeedbackComment)).
		Order(ent.Desc(siteinsightevent.FieldCreatedAt)).Limit(limit).All(sys)
	comments := make([]Comment, len(rows))
	for i, e := range rows {
		comments[i] = Comment{Time: e.CreatedAt, URLPath: e.URLPath, Rating: e.Rating, Comment: e.Comment}
	}
	return comments, err
}
