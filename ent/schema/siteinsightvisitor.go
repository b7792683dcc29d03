package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// SiteInsightVisitor is a visitor of a site on one UTC day, by the type of what they did (and
// once of the type "*" for anything): the day's salted hash of the reader, never their address.
// Recording inserts a row only when it is not there yet and adds the rows it inserted to the
// day's visitor count (SiteInsightRollup of the dimension "visitors"), so that several processes
// recording the same reader count them once (internal/insights).
type SiteInsightVisitor struct{ ent.Schema }

// Fields of SiteInsightVisitor.
func (SiteInsightVisitor) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().NotEmpty().MaxLen(64),
		// day is the UTC day, in days since 1970-01-01.
		field.Int("day").Immutable(),
		field.String("type").Immutable().NotEmpty().MaxLen(32),
		field.String("visitor").Immutable().NotEmpty().MaxLen(32),
	}
}

// Indexes of SiteInsightVisitor: one row per visitor, day and type; the purge by day.
func (SiteInsightVisitor) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "day", "type", "visitor").Unique(), index.Fields("day")}
}

// Policy of SiteInsightVisitor: the system viewer only, as SiteInsightEvent.
func (SiteInsightVisitor) Policy() ent.Policy {
	return systemOnly()
}
