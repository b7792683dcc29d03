package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// Revision is one immutable version of a space's content: a root tree (a ContentObject of kind
// tree, whose entries name the page bodies, files and subtrees by hash) and its parent revisions.
// Every field is immutable; a change writes a new revision.
type Revision struct{ ent.Schema }

// Mixin of Revision.
func (Revision) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, OrgMixin{}} }

// Fields of Revision.
func (Revision) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		// parents are the ids of the revisions this one follows: none for the first, two for a merge.
		field.Strings("parents").Default([]string{}).Immutable(),
		field.Enum("type").Values("edits", "merge", "update", "import", "initial").Immutable(),
		// root_tree is the hash of the root tree object (a ContentObject id).
		field.String("root_tree").Immutable().NotEmpty(),
		field.String("created_by").Optional().Nillable().Immutable(),
		// change_request_id is the change request the revision was made in; nil on the main content.
		field.String("change_request_id").Optional().Nillable().Immutable(),
		field.Time("created_at").Default(now).Immutable(),
	}
}

// Edges of Revision.
func (Revision) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("tree", ContentObject.Type).Field("root_tree").Unique().Required().Immutable(),
		edge.To("creator", User.Type).Field("created_by").Unique().Immutable(),
		edge.To("change_request", ChangeRequest.Type).Field("change_request_id").Unique().Immutable(),
	}
}

// Indexes of Revision.
func (Revision) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "created_at"),
		index.Fields("change_request_id"),
	}
}

// Policy of Revision: whoever may read a space reads its revisions; editors of a space write new
// ones (revisions are never changed, only purged with their space by the system).
func (Revision) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{rule.FilterSpaceRows()},
		Mutation: privacy.MutationPolicy{
			privacy.OnMutationOperation(rule.SpaceRowWrites(viewer.RoleEdit), ent.OpCreate),
			privacy.AlwaysDenyRule(),
		},
	}
}
