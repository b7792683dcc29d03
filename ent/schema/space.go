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

// Space is a container of pages and files: its content is the revision it points at. A deleted
// space keeps its row (deleted_at) for 7 days, during which it may be restored.
type Space struct{ ent.Schema }

// Mixin of Space.
func (Space) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{Transferable: true}}
}

// Fields of Space.
func (Space) Fields() []ent.Field {
	return []ent.Field{
		field.String("title").MaxRuneLen(50),
		field.String("emoji").Default("").MaxRuneLen(50),
		field.Enum("visibility").
			Values("public", "unlisted", "share-link", "visitor-auth", "in-collection", "private").
			Default("private"),
		field.Enum("edit_mode").Values("live", "locked").Default("live"),
		// parent_id is the collection the space sits in; nil at the top level.
		field.String("parent_id").Optional().Nillable(),
		// revision_id is the active revision; nil only between creating the space and its first revision.
		field.String("revision_id").Optional().Nillable(),
		defaultLevel(),
		resolvedLevel(),
		positionField(),
		field.Time("deleted_at").Optional().Nillable(),
		// share_key is the secret of share-link visibility.
		field.String("share_key").Optional().Nillable().Sensitive().MaxLen(64),
		mergeRulesField(),
		// Counters shown on the space, maintained by the writes that change them.
		field.Int("comments_count").Default(0),
		field.Int("change_requests_count").Default(0),
		field.Int("change_requests_open_count").Default(0),
		field.Int("change_requests_draft_count").Default(0),
	}
}

// Edges of Space.
func (Space) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("parent", Collection.Type).Field("parent_id").Unique(),
		edge.To("revision", Revision.Type).Field("revision_id").Unique(),
		edge.From("revisions", Revision.Type).Ref("space"),
		edge.From("change_requests", ChangeRequest.Type).Ref("space"),
		edge.From("comments", Comment.Type).Ref("space"),
		edge.From("permission_grants", PermissionGrant.Type).Ref("space"),
		edge.From("custom_field_values", CustomFieldValue.Type).Ref("space"),
		edge.From("site_spaces", SiteSpace.Type).Ref("space"),
	}
}

// Indexes of Space.
func (Space) Indexes() []ent.Index {
	return []ent.Index{
		// Siblings in order (id breaks ties): with id, SQLite takes this index for the neighbours
		// of a place in a small collection rather than the next one, which meets the same order
		// only after reading the organization's other spaces.
		index.Fields("organization_id", "parent_id", "position", "id"),
		// An organization's live spaces in list order: a page reads its rows and stops. Partial,
		// not (organization, deleted_at, position, id): PostgreSQL does not take "deleted_at IS
		// NULL" to fix the column as it takes "=", so it read that index's order as no help and
		// sorted every live space of the organization for each page (decision 333).
		index.Fields("organization_id", "position", "id").Annotations(entsql.IndexWhere("deleted_at IS NULL")),
		index.Fields("parent_id"),
	}
}

// Policy of Space: a viewer sees the spaces their effective role or the space's visibility lets
// them read (organization admins also see deleted ones); creating takes the create role where it
// is made, changing or deleting the admin role on the space, except for what content work
// changes: merging (the active revision) takes the review role, and the change request and
// comment counters follow the writes of those who may make them (comment role and up).
func (Space) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{rule.FilterSpaces()},
		Mutation: privacy.MutationPolicy{
			rule.SpaceFieldWrites(viewer.RoleReview, "revision_id"),
			rule.SpaceFieldWrites(viewer.RoleComment, "comments_count", "change_requests_count",
				"change_requests_open_count", "change_requests_draft_count"),
			rule.ContentWrites(true),
			privacy.AlwaysDenyRule(),
		},
	}
}

// Hooks of Space: a write changes who may see what, so the space's resolved level follows it and
// the viewer's cached content facts go.
func (Space) Hooks() []ent.Hook { return []ent.Hook{rule.ResolveLevels(), rule.ForgetContent()} }
