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

// OpenAPISpec is an OpenAPI document an organization publishes, fetched from its source URL by a
// background job into versions. The job takes a lease on the row (lease_owner, lease_until), so
// several server processes sharing one database process each spec once.
type OpenAPISpec struct{ ent.Schema }

// Mixin of OpenAPISpec.
func (OpenAPISpec) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of OpenAPISpec.
func (OpenAPISpec) Fields() []ent.Field {
	return []ent.Field{
		field.String("slug").MinLen(1).MaxLen(100).Match(regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)),
		field.String("source_url").Optional().Nillable().MaxLen(2048),
		field.Enum("processing_state").Values("pending", "progress", "complete", "failed").Default("pending"),
		field.String("last_version_id").Optional().Nillable(),
		field.Time("last_processed_at").Optional().Nillable(),
		// last_process_error_code is the code of the last failure (FETCH_TIMEOUT, …), nil after a success.
		field.String("last_process_error_code").Optional().Nillable().MaxLen(64),
		// lease_owner and lease_until say which process works on the spec, and until when.
		field.String("lease_owner").Optional().Nillable().MaxLen(64),
		field.Time("lease_until").Optional().Nillable(),
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
	return []ent.Index{
		index.Fields("organization_id", "slug").Unique(),
		index.Fields("processing_state", "lease_until"),
	}
}

// Policy of OpenAPISpec: members with a role see specs; admins manage them. (Later issues let
// creators publish specs.)
func (OpenAPISpec) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
