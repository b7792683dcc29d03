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

// SiteSection is a section of a site, holding site spaces (its variants); it may sit in a
// section group.
type SiteSection struct{ ent.Schema }

// Mixin of SiteSection.
func (SiteSection) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of SiteSection.
func (SiteSection) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().NotEmpty(),
		field.String("title").MinRuneLen(2).MaxRuneLen(128),
		field.String("description").Optional().Nillable().MaxRuneLen(256),
		field.String("path").MinRuneLen(1).MaxRuneLen(100),
		field.String("condition").Optional().Nillable().MaxRuneLen(1024),
		field.String("icon").Optional().Nillable().MaxRuneLen(50),
		field.String("section_group_id").Optional().Nillable(),
		field.Bool("is_default").Default(false),
		positionField(),
	}
}

// Edges of SiteSection.
func (SiteSection) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("site", Site.Type).Field("site_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.To("section_group", SiteSectionGroup.Type).Field("section_group_id").Unique(),
		edge.From("site_spaces", SiteSpace.Type).Ref("section"),
	}
}

// Indexes of SiteSection.
func (SiteSection) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "position")}
}

// Policy of SiteSection: members with a role see sections; creators and admins manage them.
func (SiteSection) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleCreate), privacy.AlwaysDenyRule()},
	}
}
