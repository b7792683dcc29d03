package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
)

// GitCommit is the git commit a revision of a space was exported to or imported from (the
// reference's Revision.git): its hash, message, branch and whether Bindery made it.
type GitCommit struct{ ent.Schema }

// Mixin of GitCommit.
func (GitCommit) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of GitCommit.
func (GitCommit) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		field.String("revision_id").Immutable().NotEmpty(),
		field.String("oid").Immutable().NotEmpty().MaxLen(64),
		field.String("message").Immutable().Default("").MaxLen(4096),
		field.String("ref").Immutable().NotEmpty().MaxLen(300),
		field.Bool("created_by_bindery").Immutable().Default(false),
		// seq numbers the space's synced commits in the order they were recorded (its pages'
		// GitPage runs count in it); null on a row written before pages had their git blobs.
		field.Int64("seq").Optional().Nillable().Immutable(),
		// pages_pending says that where the revision's pages are in the commit is not recorded
		// yet: a commit synced before pages had git blobs, which the backfill job reads
		// (gitsync.RunBackfill, decision 584). Its revision reads as synced once it is false.
		field.Bool("pages_pending").Default(false),
	}
}

// Edges of GitCommit. It goes with its space.
func (GitCommit) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of GitCommit: one commit per revision.
func (GitCommit) Indexes() []ent.Index {
	return []ent.Index{index.Fields("revision_id").Unique(), index.Fields("space_id", "seq"), index.Fields("pages_pending", "space_id")}
}

// Policy of GitCommit: whoever may read a space reads the commits of its revisions; the sync
// jobs write them with the system's decision.
func (GitCommit) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
