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

// CustomField is a field an organization defines for its spaces; spaces hold values of it
// (CustomFieldValue). It is addressed by its name, unique in the organization.
type CustomField struct{ ent.Schema }

// Mixin of CustomField.
func (CustomField) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of CustomField.
func (CustomField) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").Immutable().MinRuneLen(1).MaxRuneLen(50).Match(regexp.MustCompile(`^[a-z_\-0-9]+$`)),
		field.Enum("type").Values("text", "number", "boolean", "select", "multi-select").Immutable(),
		field.String("title").Optional().Nillable().MaxRuneLen(100),
		field.String("description").Optional().Nillable().MaxRuneLen(200),
		field.String("placeholder").Optional().Nillable().MaxRuneLen(100),
		// options are the choices of a select or multi-select field.
		field.Strings("options").Default([]string{}),
	}
}

// Edges of CustomField.
func (CustomField) Edges() []ent.Edge {
	return []ent.Edge{edge.From("values", CustomFieldValue.Type).Ref("custom_field")}
}

// Indexes of CustomField.
func (CustomField) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "name").Unique()}
}

// Policy of CustomField: members with a role see custom fields; admins manage them.
func (CustomField) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
