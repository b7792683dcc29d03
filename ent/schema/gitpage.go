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

// GitPage is where a page of a space is in the git commits of its syncs (the reference's
// ContentPage.git): the path of its Markdown file and the blob of that file, over a run of the
// space's synced commits — from the commit numbered from_seq (GitCommit.seq) up to, not
// including, to_seq (null: still so in the space's last synced commit). A sync that leaves a
// page's file as it was writes nothing for it. A file of the space (RevisionFile.git) has its
// runs too, page_id holding the file's id, path and oid its asset's.
type GitPage struct{ ent.Schema }

// Mixin of GitPage.
func (GitPage) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, OrgMixin{Unindexed: true}} }

// Fields of GitPage.
func (GitPage) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		field.String("page_id").Immutable().NotEmpty().MaxLen(64),
		field.String("path").Immutable().NotEmpty().MaxLen(4096),
		field.String("oid").Immutable().NotEmpty().MaxLen(64),
		field.Int64("from_seq").Immutable(),
		field.Int64("to_seq").Optional().Nillable(),
	}
}

// Edges of GitPage. It goes with its space.
func (GitPage) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of GitPage: a page's runs in order, and the runs still open, which a sync compares.
func (GitPage) Indexes() []ent.Index {
	return []ent.Index{index.Fields("space_id", "page_id", "from_seq"), index.Fields("space_id", "to_seq")}
}

// Policy of GitPage: as GitCommit's.
func (GitPage) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
