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

// OpenAPISpecVersion is one processed version of an OpenAPI spec: the entry document as it was
// fetched or given (raw), and the filesystem of it and the files its $refs name, parsed. Versions
// are immutable, written by the processing job only when the content changed, and go with their
// spec.
type OpenAPISpecVersion struct{ ent.Schema }

// Mixin of OpenAPISpecVersion.
func (OpenAPISpecVersion) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, OrgMixin{}} }

// Fields of OpenAPISpecVersion.
func (OpenAPISpecVersion) Fields() []ent.Field {
	return []ent.Field{
		field.String("spec_id").Immutable().NotEmpty(),
		// url is where the entry document was fetched from (after redirects); empty for text.
		field.String("url").Immutable().MaxLen(2048),
		// raw is the entry document exactly as fetched or given, in format json or yaml.
		field.Bytes("raw").Immutable(),
		field.Enum("format").Values("json", "yaml").Immutable(),
		// filesystem is a JSON object: file path → the file parsed (the entry document and
		// every file its $refs reach).
		field.Bytes("filesystem").Immutable(),
		// digest identifies the content (every file's bytes), so an unchanged source makes no
		// version.
		field.String("digest").Immutable().NotEmpty().MaxLen(64),
		// warnings are the problems validation found in a document that can still be read
		// (at most openapi.MaxErrors, each at most 500 characters), of warning_count.
		field.Strings("warnings").Optional().Immutable(),
		field.Int("warning_count").Default(0).NonNegative().Immutable(),
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

// Policy of OpenAPISpecVersion: members with a role read versions; only the processing job (the
// system viewer) writes them.
func (OpenAPISpecVersion) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{privacy.AlwaysDenyRule()},
	}
}
