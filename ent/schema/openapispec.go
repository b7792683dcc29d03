package schema

import (
	"regexp"

	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// OpenAPISpec is an OpenAPI document an organization publishes, taken from a URL (fetched again
// on every PUT and, when configured, periodically) or from text, and processed by a background
// job (internal/jobs, kind "openapi") into versions.
type OpenAPISpec struct{ ent.Schema }

// Mixin of OpenAPISpec.
func (OpenAPISpec) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of OpenAPISpec.
func (OpenAPISpec) Fields() []ent.Field {
	return []ent.Field{
		field.String("slug").MinLen(1).MaxLen(100).Match(regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)),
		// source_url or source_text is the source: exactly one is set.
		field.String("source_url").Optional().Nillable().MaxLen(2048),
		field.Bytes("source_text").Optional().Nillable(),
		field.Enum("visibility").Values("private", "public").Default("private"),
		field.Enum("processing_state").Values("pending", "progress", "complete").Default("pending"),
		field.String("last_version_id").Optional().Nillable(),
		field.Time("last_processed_at").Optional().Nillable(),
		// last_process_error_code and last_process_error say why the last processing failed;
		// last_process_errors lists each problem found (at most openapi.MaxErrors), of
		// last_process_error_count. All are empty after a success.
		field.Enum("last_process_error_code").Values("FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR").Optional().Nillable(),
		field.String("last_process_error").Optional().Nillable().MaxLen(2048),
		field.Strings("last_process_errors").Optional(),
		field.Int("last_process_error_count").Default(0).NonNegative(),
	}
}

// Edges of OpenAPISpec.
func (OpenAPISpec) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("last_version", OpenAPISpecVersion.Type).Field("last_version_id").Unique(),
		edge.From("versions", OpenAPISpecVersion.Type).Ref("spec"),
	}
}

// Indexes of OpenAPISpec.
func (OpenAPISpec) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "slug").Unique()}
}

// Policy of OpenAPISpec: members with a role see specs; reviewers, creators and admins manage
// them (rule.ForOrganization's createOpenAPISpec). The processing job writes as the system viewer.
func (OpenAPISpec) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleReview), privacy.AlwaysDenyRule()},
	}
}
