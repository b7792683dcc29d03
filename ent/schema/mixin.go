package schema

import (
	"time"

	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"entgo.io/ent/schema/mixin"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/internal/id"
)

// now is the default clock of stored timestamps: UTC, truncated to the microsecond that
// PostgreSQL keeps, so a time read back compares equal to the one written on both databases.
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// IDMixin gives an entity a random, unguessable string id (internal/id).
type IDMixin struct{ mixin.Schema }

// Fields of IDMixin.
func (IDMixin) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(id.New).Immutable().NotEmpty().MaxLen(64),
	}
}

// Policy of IDMixin: the system viewer (CLI, background jobs) may do anything; every schema
// then lists its own rules and ends with a deny, so access is denied unless a rule allows it.
func (IDMixin) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.AllowIfSystem()},
		Mutation: privacy.MutationPolicy{rule.AllowIfSystem(), rule.DenyIfNoViewer()},
	}
}

// TimeMixin records when a row was created and last updated.
type TimeMixin struct{ mixin.Schema }

// Fields of TimeMixin.
func (TimeMixin) Fields() []ent.Field {
	return []ent.Field{
		field.Time("created_at").Default(now).Immutable(),
		field.Time("updated_at").Default(now).UpdateDefault(now),
	}
}

// OrgMixin marks an entity as owned by one organization: the tenant column every privacy filter
// reads. Transferable entities (collections, spaces) may change organization; others may not.
type OrgMixin struct {
	mixin.Schema
	Transferable bool
	// Unindexed leaves organization_id without an index, for a table never read by organization
	// whose inserts must stay cheap (events: one index fewer in every write's transaction).
	Unindexed bool
	// Unreferenced leaves organization_id without the edge, so without a foreign key, for a table
	// every write inserts into (events): the key's check locks the organization's row (FOR KEY
	// SHARE on PostgreSQL) in each of them. Organizations are never deleted (decision 587).
	Unreferenced bool
}

// Fields of OrgMixin.
func (m OrgMixin) Fields() []ent.Field {
	f := field.String("organization_id").NotEmpty()
	if !m.Transferable {
		f = f.Immutable()
	}
	return []ent.Field{f}
}

// Edges of OrgMixin.
func (m OrgMixin) Edges() []ent.Edge {
	if m.Unreferenced {
		return nil
	}
	e := edge.To("organization", Organization.Type).Field("organization_id").Unique().Required()
	if !m.Transferable {
		e = e.Immutable()
	}
	return []ent.Edge{e}
}

// Indexes of OrgMixin.
func (m OrgMixin) Indexes() []ent.Index {
	if m.Unindexed {
		return nil
	}
	return []ent.Index{index.Fields("organization_id")}
}
