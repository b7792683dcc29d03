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

// SiteRedirect sends the readers of a published site from a path of the site (its source, exact
// or ending in a wildcard) to a section, a site space, a page of a site space, or a URL outside.
// A draft redirect is kept apart from the live one of the same source and serves nobody.
type SiteRedirect struct{ ent.Schema }

// Mixin of SiteRedirect.
func (SiteRedirect) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of SiteRedirect.
func (SiteRedirect) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().NotEmpty(),
		// source is the path inside the site, in canonical form (internal/redirects).
		field.String("source").NotEmpty().MaxLen(512),
		// prefix is what a wildcard source matches the start of (the source without its "*"); nil
		// for an exact source. Readers' paths are matched by it through an index.
		field.String("prefix").Optional().Nillable().MaxLen(512),
		field.Bool("draft").Default(false),
		field.Bool("capture_wildcard").Default(false),
		field.Bool("permanent").Default(false),
		field.Enum("destination_kind").Values("site-section", "site-space", "site-page", "external"),
		field.String("destination_section_id").Optional().Nillable(),
		// destination_site_space_id is the site space of a site-space or site-page destination.
		field.String("destination_site_space_id").Optional().Nillable(),
		field.String("destination_page_id").Optional().Nillable().MaxLen(64),
		field.String("destination_url").Optional().Nillable().MaxLen(2048),
	}
}

// Edges of SiteRedirect. A redirect goes with its site, and with the section or site space it
// leads to.
func (SiteRedirect) Edges() []ent.Edge {
	cascade := entsql.OnDelete(entsql.Cascade)
	return []ent.Edge{
		edge.To("site", Site.Type).Field("site_id").Unique().Required().Immutable().Annotations(cascade),
		edge.To("destination_section", SiteSection.Type).Field("destination_section_id").Unique().Annotations(cascade),
		edge.To("destination_site_space", SiteSpace.Type).Field("destination_site_space_id").Unique().Annotations(cascade),
	}
}

// Indexes of SiteRedirect: one live and one draft redirect per source; wildcard prefixes; the
// list's orders.
func (SiteRedirect) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("site_id", "draft", "source").Unique(),
		index.Fields("site_id", "draft", "prefix"),
		index.Fields("site_id", "draft", "created_at"),
		index.Fields("site_id", "draft", "updated_at"),
		index.Fields("destination_section_id"),
		index.Fields("destination_site_space_id"),
	}
}

// Policy of SiteRedirect: members with a role see a site's redirects; creators and admins manage
// them. Readers of the published site follow them through graph (VisitSite decides who reads).
func (SiteRedirect) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleCreate), privacy.AlwaysDenyRule()},
	}
}
