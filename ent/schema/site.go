package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// Site is a published docs site: site spaces (spaces shown on it), optionally arranged in
// sections and section groups, shown to the audience its visibility names once published.
type Site struct{ ent.Schema }

// Mixin of Site.
func (Site) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of Site.
func (Site) Fields() []ent.Field {
	return []ent.Field{
		field.Enum("type").Values("basic", "premium", "ultimate").Default("basic"),
		field.String("title").MinRuneLen(2).MaxRuneLen(128),
		// icon is `{ icon: { light: url, dark: url } }`, or nil.
		field.JSON("icon", map[string]any{}).Optional(),
		// hostname is the custom hostname the site is served on; at most one site per hostname.
		field.String("hostname").Optional().Nillable().MaxLen(512).Unique(),
		// hostname_status is the outcome of the last check of the hostname's DNS
		// (internal/sites.HostnameStatus), nil until one ran since the hostname was set.
		field.String("hostname_status").Optional().Nillable().MaxLen(32),
		field.Time("hostname_checked_at").Optional().Nillable(),
		// basename names the site in its URL: at most one site of the server per basename.
		field.String("basename").Optional().Nillable().MaxRuneLen(100).Unique(),
		// proxy_origin is where the site is proxied from (host and path); the proxy's target is
		// the site's own URL, derived when read.
		field.String("proxy_origin").Optional().Nillable().MaxLen(512),
		field.Enum("visibility").Values("public", "unlisted", "share-link", "visitor-auth").Default("public"),
		field.Bool("published").Default(false),
		field.Bool("adaptive_content_enabled").Default(false),
		// adaptive_schema is the JSON Schema of a visitor's attributes (SiteAdaptiveSchema.jsonSchema).
		field.JSON("adaptive_schema", map[string]any{}).Optional(),
		field.Time("adaptive_schema_updated_at").Optional().Nillable(),
		field.String("default_section_id").Optional().Nillable(),
		// site_spaces_count is Site.siteSpaces, maintained by the writes that add or remove one.
		field.Int("site_spaces_count").Default(0),
		// customization is what the site's customization settings set (internal/sitecustom: only
		// fields given, defaults apply to the rest).
		field.JSON("customization", map[string]any{}).Optional(),
		field.Time("customization_updated_at").Optional().Nillable(),
	}
}

// Edges of Site.
func (Site) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("default_section", SiteSection.Type).Field("default_section_id").Unique(),
		edge.From("site_spaces", SiteSpace.Type).Ref("site"),
		edge.From("sections", SiteSection.Type).Ref("site"),
		edge.From("section_groups", SiteSectionGroup.Type).Ref("site"),
	}
}

// Policy of Site: members with a role see sites; creators and admins manage them.
func (Site) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleRead)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleCreate), privacy.AlwaysDenyRule()},
	}
}
