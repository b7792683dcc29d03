package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// PermissionGrant gives one subject (a user or a team) a role on one target (a space or a
// collection). Exactly one subject and exactly one target are set; check constraints hold that.
type PermissionGrant struct{ ent.Schema }

// Mixin of PermissionGrant.
func (PermissionGrant) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of PermissionGrant.
func (PermissionGrant) Fields() []ent.Field {
	return []ent.Field{
		field.String("user_id").Optional().Nillable().Immutable(),
		field.String("team_id").Optional().Nillable().Immutable(),
		field.String("space_id").Optional().Nillable().Immutable(),
		field.String("collection_id").Optional().Nillable().Immutable(),
		field.Enum("role").GoType(viewer.Role("")),
	}
}

// Edges of PermissionGrant. A grant goes with its subject and its target.
func (PermissionGrant) Edges() []ent.Edge {
	cascade := entsql.OnDelete(entsql.Cascade)
	return []ent.Edge{
		edge.To("user", User.Type).Field("user_id").Unique().Immutable().Annotations(cascade),
		edge.To("team", Team.Type).Field("team_id").Unique().Immutable().Annotations(cascade),
		edge.To("space", Space.Type).Field("space_id").Unique().Immutable().Annotations(cascade),
		edge.To("collection", Collection.Type).Field("collection_id").Unique().Immutable().Annotations(cascade),
	}
}

// Indexes of PermissionGrant: one grant per subject and target (NULLs never collide, so each
// index only binds the grants of its own pair of kinds).
func (PermissionGrant) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "user_id").Unique(),
		index.Fields("space_id", "team_id").Unique(),
		index.Fields("collection_id", "user_id").Unique(),
		index.Fields("collection_id", "team_id").Unique(),
		index.Fields("user_id"),
		index.Fields("team_id"),
	}
}

// Annotations of PermissionGrant: the check constraints of exactly one subject and one target.
func (PermissionGrant) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Checks(map[string]string{
		"permission_grant_one_subject": exactlyOne("user_id", "team_id"),
		"permission_grant_one_target":  exactlyOne("space_id", "collection_id"),
	})}
}

// Policy of PermissionGrant: members with a role see grants, and the admins of a space or
// collection (guests included) those on it; they grant, change and revoke access to it.
func (PermissionGrant) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterGrants()},
		Mutation: privacy.MutationPolicy{rule.GrantWrites(), privacy.AlwaysDenyRule()},
	}
}

// exactlyOne is a CHECK expression, valid on SQLite and PostgreSQL, holding when exactly one of
// two nullable columns is set.
func exactlyOne(a, b string) string {
	return "((" + a + " IS NULL AND " + b + " IS NOT NULL) OR (" + a + " IS NOT NULL AND " + b + " IS NULL))"
}

// Hooks of PermissionGrant: a write changes who may see what, so the viewer's cached content facts go.
func (PermissionGrant) Hooks() []ent.Hook { return []ent.Hook{rule.ForgetContent()} }
