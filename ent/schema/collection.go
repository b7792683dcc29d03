package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// Collection is a nestable grouping of spaces (and of other collections) in an organization.
// Collections and spaces that share a parent are siblings in one order, kept by their position.
type Collection struct{ ent.Schema }

// Mixin of Collection.
func (Collection) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{Transferable: true}}
}

// Fields of Collection.
func (Collection) Fields() []ent.Field {
	return []ent.Field{
		field.String("title").MaxRuneLen(50),
		field.String("description").Optional().Nillable().MaxRuneLen(100),
		// parent_id is the collection this one is nested in; nil at the top level.
		field.String("parent_id").Optional().Nillable(),
		// default_level is the level of access members get on the content by default: a role,
		// "inherit" (from the parent), or nil (none).
		defaultLevel(),
		resolvedLevel(),
		// position orders siblings (collections and spaces under one parent); see positionField.
		positionField(),
		mergeRulesField(),
	}
}

// mergeRulesField is the merge_rules field of collections and spaces: their own merge rules
// configuration as internal/mergerules checked and encoded it (the data model knows no domain),
// or nil to inherit the collection above them.
func mergeRulesField() ent.Field {
	return field.JSON("merge_rules", json.RawMessage{}).Optional()
}

// Edges of Collection.
func (Collection) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("children", Collection.Type).From("parent").Field("parent_id").Unique(),
		edge.From("spaces", Space.Type).Ref("parent"),
		edge.From("permission_grants", PermissionGrant.Type).Ref("collection"),
	}
}

// Indexes of Collection.
func (Collection) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "parent_id", "position"), index.Fields("parent_id")}
}

// Policy of Collection: a viewer sees the collections their effective role lets them read
// (rule.ContentRole: default levels, grants); creating takes the create role where it is made,
// changing or deleting the admin role on the collection.
func (Collection) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterCollections()},
		Mutation: privacy.MutationPolicy{rule.ContentWrites(false), privacy.AlwaysDenyRule()},
	}
}

// defaultLevel is the default_level field of collections and spaces: one of the roles,
// "inherit", or nil for no default access.
func defaultLevel() ent.Field {
	return field.Enum("default_level").
		Values(append(viewer.Role("").Values(), "inherit")...).
		Optional().Nillable()
}

// resolvedLevel is the resolved_level field of collections and spaces: the default level members
// get on the object once "inherit" is followed up the collections above it (rule.ResolveLevels
// keeps it on every write that changes a default level or a parent, deletes of collections
// included). It lets the privacy filters decide a member's default access from the row itself,
// without walking the tree.
func resolvedLevel() ent.Field {
	return field.Enum("resolved_level").
		Values(append(viewer.Role("").Values(), rule.Inherit, rule.NoLevel, rule.Unresolved)...).
		Default(rule.Unresolved)
}

// positionField is the sibling order of an entity: a fractional-index key, so moving one item
// writes one row. Keys compare byte by byte (SQLite BINARY, PostgreSQL with a C collation), so the
// code that makes them should use an alphabet whose byte order matches every collation it may
// meet (digits and lower-case letters); ties are broken by id.
func positionField() ent.Field {
	return field.String("position").Default("").MaxLen(128)
}

// Hooks of Collection: a write changes who may see what, so the resolved levels below the
// collection follow it and the viewer's cached content facts go.
func (Collection) Hooks() []ent.Hook { return []ent.Hook{rule.ResolveLevels(), rule.ForgetContent()} }
