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

// SiteSpace places a space on a site, at a path, at the root level or in a section (where it is
// one of the section's variants), optionally shown only to visitors matching its condition.
type SiteSpace struct{ ent.Schema }

// Mixin of SiteSpace.
func (SiteSpace) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of SiteSpace.
func (SiteSpace) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().NotEmpty(),
		// space_id changes when a site space is pointed at other content (PATCH spaceId).
		field.String("space_id").NotEmpty(),
		field.String("section_id").Optional().Nillable(),
		field.String("path").MinRuneLen(1).MaxRuneLen(100),
		// condition is an expression over the visitor's attributes deciding whether it is shown.
		field.String("condition").Optional().Nillable().MaxRuneLen(1024),
		// title overrides the space's title on this site (the reference's site-specific title).
		field.String("title").Optional().Nillable().MaxRuneLen(128),
		// page_id is the custom home page: a page of the space shown at the site space's root
		// instead of its first page. It is kept when a merge removes the page (readers then land
		// on the first page again).
		field.String("page_id").Optional().Nillable().MaxRuneLen(100),
		// hidden site spaces are left out of the site's navigation; they answer at their URL.
		field.Bool("hidden").Default(false),
		// is_default marks the default site space of its level (its section, or the root level):
		// one in every level that has site spaces.
		field.Bool("is_default").Default(false),
		positionField(),
		// customization overrides the site's customization settings for this site space
		// (internal/sitecustom: only the fields overridden).
		field.JSON("customization", map[string]any{}).Optional(),
		field.Time("customization_updated_at").Optional().Nillable(),
	}
}

// Edges of SiteSpace. A site space goes with its site, its space and its section.
func (SiteSpace) Edges() []ent.Edge {
	cascade := entsql.OnDelete(entsql.Cascade)
	return []ent.Edge{
		edge.To("site", Site.Type).Field("site_id").Unique().Required().Immutable().Annotations(cascade),
		edge.To("space", Space.Type).Field("space_id").Unique().Required().Annotations(cascade),
		edge.To("section", SiteSection.Type).Field("section_id").Unique().Annotations(cascade),
	}
}

// Indexes of SiteSpace.
func (SiteSpace) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("site_id", "section_id", "position"),
		index.Fields("space_id"),
	}
}

// Policy of SiteSpace: members with a role see the site spaces of spaces they may read; creators
// and admins manage them.
func (SiteSpace) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterSiteSpaces(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleCreate), privacy.AlwaysDenyRule()},
	}
}
