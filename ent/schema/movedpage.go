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

// MovedPage remembers a path that a page of a space's main content left when a merge or an import
// moved or renamed it, so published sites answer the old path with a redirect to the page. It
// names the page, not its new path, so a page moved twice is reached from both old paths in one
// hop. A path a page holds again is forgotten (the page there wins).
type MovedPage struct{ ent.Schema }

// Mixin of MovedPage.
func (MovedPage) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of MovedPage.
func (MovedPage) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		// path is the page's slug path in the content it left ("guides/install").
		field.String("path").Immutable().NotEmpty().MaxLen(2048),
		field.String("page_id").NotEmpty().MaxLen(64),
	}
}

// Edges of MovedPage. It goes with its space.
func (MovedPage) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of MovedPage: one page per old path of a space.
func (MovedPage) Indexes() []ent.Index {
	return []ent.Index{index.Fields("space_id", "path").Unique()}
}

// Policy of MovedPage: whoever may read a space reads its moved pages (a published site's readers
// too, once admitted). They are written only in the transaction of the merge or import that moved
// the pages, with that write's decision taken, like the search index.
func (MovedPage) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
