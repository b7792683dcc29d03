package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// TranslationSettings is a named set of languages an organization translates its content into.
type TranslationSettings struct{ ent.Schema }

// Mixin of TranslationSettings.
func (TranslationSettings) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}}
}

// Fields of TranslationSettings.
func (TranslationSettings) Fields() []ent.Field {
	return []ent.Field{
		field.String("title").MinRuneLen(1).MaxRuneLen(100),
		field.Strings("languages").Default([]string{}),
	}
}

// Policy of TranslationSettings: members with a role see them; admins manage them.
func (TranslationSettings) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleAdmin), privacy.AlwaysDenyRule()},
	}
}
