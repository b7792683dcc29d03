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

// SiteSectionGroup groups sections of a site under one title. Deleting a group leaves its
// sections in place, outside any group.
type SiteSectionGroup struct{ ent.Schema }

// Mixin of SiteSectionGroup.
func (SiteSectionGroup) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}}
}

// Fields of SiteSectionGroup.
func (SiteSectionGroup) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().NotEmpty(),
		field.String("title").MinRuneLen(1).MaxRuneLen(100),
		field.String("icon").Optional().Nillable().MaxRuneLen(50),
		positionField(),
	}
}

// Edges of SiteSectionGroup.
func (SiteSectionGroup) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("site", Site.Type).Field("site_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		edge.From("sections", SiteSection.Type).Ref("section_group"),
	}
}

// Indexes of SiteSectionGroup.
func (SiteSectionGroup) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id", "position")}
}

// Policy of SiteSectionGroup: members with a role see section groups; creators and admins manage them.
func (SiteSectionGroup) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleCreate), privacy.AlwaysDenyRule()},
	}
}
