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

// SiteShareLink lets whoever holds its key read a share-link site. Only the key's SHA-256 hash is
// stored; the key itself is shown once, when the link is made.
type SiteShareLink struct{ ent.Schema }

// Mixin of SiteShareLink.
func (SiteShareLink) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}} }

// Fields of SiteShareLink.
func (SiteShareLink) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().NotEmpty(),
		field.String("name").Default("").MaxRuneLen(50),
		// active links open the site; an inactive one is kept but opens nothing.
		field.Bool("active").Default(true),
		field.Bytes("key_hash").Sensitive().Immutable().NotEmpty(),
	}
}

// Edges of SiteShareLink. A share link goes with its site.
func (SiteShareLink) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("site", Site.Type).Field("site_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of SiteShareLink.
func (SiteShareLink) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("key_hash").Unique(),
		index.Fields("site_id", "created_at"),
	}
}

// Policy of SiteShareLink: creators and admins, who manage sites, see and manage their share
// links. A visitor's key is checked through the explicit lookup in graph (holding the key is the
// permission).
func (SiteShareLink) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleCreate)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleCreate), privacy.AlwaysDenyRule()},
	}
}
