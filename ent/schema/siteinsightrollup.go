package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// SiteInsightRollup counts a site's events of one type on one day by the value of one dimension
// (a page's path, a referrer's domain, a search query and its result count, a rating…), kept as
// events are recorded: aggregations read these rows, a few per day, not the events
// (internal/insights).
type SiteInsightRollup struct{ ent.Schema }

// Fields of SiteInsightRollup.
func (SiteInsightRollup) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().NotEmpty().MaxLen(64),
		// day is the UTC day, in days since 1970-01-01.
		field.Int("day").Immutable(),
		field.String("type").Immutable().NotEmpty().MaxLen(32),
		// dimension names what value holds ("" for the day's total, "urlPath", …).
		field.String("dimension").Immutable().MaxLen(64),
		field.String("value").Immutable().MaxLen(512),
		// results is the searches' result count for the search query dimension, else -1.
		field.Int("results").Immutable().Default(-1),
		field.Int("events").Default(0),
	}
}

// Indexes of SiteInsightRollup: one row per key, which recording adds to; aggregations read a
// site's dimension over a range of days from the second, which holds every column they read (the
// count too), so that they never read the table's rows; the purge by day.
func (SiteInsightRollup) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("site_id", "dimension", "day", "type", "value", "results").Unique(),
		index.Fields("site_id", "dimension", "day", "type", "value", "results", "events"),
		index.Fields("day"),
	}
}

// Policy of SiteInsightRollup: the system viewer only, as SiteInsightEvent.
func (SiteInsightRollup) Policy() ent.Policy {
	return systemOnly()
}
