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

// OpenAPISpecVersion is one fetched version of an OpenAPI spec: the document as fetched from its
// URL. Versions are immutable and go with their spec.
type OpenAPISpecVersion struct{ ent.Schema }

// Mixin of OpenAPISpecVersion.
func (OpenAPISpecVersion) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, OrgMixin{}} }

// Fields of OpenAPISpecVersion.
func (OpenAPISpecVersion) Fields() []ent.Field {
	return []ent.Field{
		field.String("spec_id").Immutable().NotEmpty(),
		field.String("url").Immutable().MaxLen(2048),
		// content is the fetched document (JSON or YAML), as fetched.
		field.Bytes("content").Immutable(),
		field.Time("created_at").Default(now).Immutable(),
	}
}

// Edges of OpenAPISpecVersion.
func (OpenAPISpecVersion) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("spec", OpenAPISpec.Type).Field("spec_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of OpenAPISpecVersion.
func (OpenAPISpecVersion) Indexes() []ent.Index {
	return []ent.Index{index.Fields("spec_id", "created_at")}
}

// Policy of OpenAPISpecVersion: members with a role see versions; admins manage them. (The
// processing job writes them as the system viewer.)
func (OpenAPISpecVersion) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
