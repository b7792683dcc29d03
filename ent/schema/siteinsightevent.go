package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
)

// SiteInsightEvent is one reader's event on a published site (a page view, a search, a link
// click, page feedback, an MCP tool call), recorded in batches by internal/insights. It holds no
// personal data: no address or user agent, only a visitor hash that changes every day. Its
// integer key keeps the rows small: the table is the largest a busy site writes to.
type SiteInsightEvent struct{ ent.Schema }

// Fields of SiteInsightEvent. The optional strings are empty when the event has no such detail.
func (SiteInsightEvent) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().NotEmpty().MaxLen(64),
		field.Time("created_at").Immutable(),
		// type is the reference's SiteInsightsEventType (page_view, search_type_query, …).
		field.String("type").Immutable().NotEmpty().MaxLen(32),
		// display_context is site, server, embed or mcp.
		field.String("display_context").Immutable().NotEmpty().MaxLen(16),
		field.String("url_path").Immutable().MaxLen(2048).Default(""),
		field.String("space_id").Immutable().MaxLen(64).Default(""),
		field.String("page_id").Immutable().MaxLen(64).Default(""),
		field.String("referrer_domain").Immutable().MaxLen(255).Default(""),
		// visitor is the day's salted hash of the reader; empty when they asked not to be tracked.
		field.String("visitor").Immutable().MaxLen(32).Default(""),
		field.String("search_query").Immutable().MaxLen(512).Default(""),
		// search_results is how many results the search found; nil for other events.
		field.Int("search_results").Immutable().Optional().Nillable(),
		field.String("rating").Immutable().MaxLen(8).Default(""),
		field.String("comment").Immutable().MaxLen(512).Default(""),
		// link is where a clicked link led (a URL, or kind:id), link_position where it sat.
		field.String("link").Immutable().MaxLen(2048).Default(""),
		field.String("link_position").Immutable().MaxLen(16).Default(""),
		// tool is the MCP tool called, for mcp_request events.
		field.String("tool").Immutable().MaxLen(64).Default(""),
	}
}

// Indexes of SiteInsightEvent: a site's latest events (feedback comments on the dashboard), and
// the purge by time.
func (SiteInsightEvent) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "type", "created_at"), index.Fields("created_at")}
}

// Policy of SiteInsightEvent: only the system viewer reads or writes them; internal/insights
// does so after the resolvers checked the viewer's role in the site's organization.
func (SiteInsightEvent) Policy() ent.Policy {
	return systemOnly()
}

// systemOnly is the policy of a table only the system viewer reads or writes.
func systemOnly() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.AllowIfSystem(), privacy.AlwaysDenyRule()},
		Mutation: privacy.MutationPolicy{rule.AllowIfSystem(), privacy.AlwaysDenyRule()},
	}
}
