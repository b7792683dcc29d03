package schema

import (
	"encoding/json"

	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// CustomFieldValue is the value of one custom field on one space: a string, a number, a
// boolean or a list of strings, kept as JSON. It goes with its space and with its field.
type CustomFieldValue struct{ ent.Schema }

// Mixin of CustomFieldValue.
func (CustomFieldValue) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}}
}

// Fields of CustomFieldValue.
func (CustomFieldValue) Fields() []ent.Field {
	return []ent.Field{
		field.String("space_id").Immutable().NotEmpty(),
		field.String("custom_field_id").Immutable().NotEmpty(),
		field.JSON("value", json.RawMessage{}),
	}
}

// Edges of CustomFieldValue.
func (CustomFieldValue) Edges() []ent.Edge {
	cascade := entsql.OnDelete(entsql.Cascade)
	return []ent.Edge{
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Immutable().Annotations(cascade),
		edge.To("custom_field", CustomField.Type).Field("custom_field_id").Unique().Required().Immutable().
			Annotations(cascade),
	}
}

// Indexes of CustomFieldValue.
func (CustomFieldValue) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("space_id", "custom_field_id").Unique(),
		index.Fields("custom_field_id"),
	}
}

// Policy of CustomFieldValue: members with a role see values; editors of a space (edit role or
// above on it) set its values.
func (CustomFieldValue) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.SpaceRowWrites(viewer.RoleEdit), privacy.AlwaysDenyRule()},
	}
}
