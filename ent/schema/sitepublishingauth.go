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

// SitePublishingAuth holds a site's visitor authentication settings: the key that signs visitors'
// JWTs (sealed with a server key: AES-256-GCM, never stored in clear) and where visitors go when
// authentication fails or when they log out, or the OpenID Connect provider readers sign in with
// instead. One row per site, made on first use.
type SitePublishingAuth struct{ ent.Schema }

// Mixin of SitePublishingAuth.
func (SitePublishingAuth) Mixin() []ent.Mixin {
	return []ent.Mixin{IDMixin{}, TimeMixin{}, OrgMixin{}}
}

// Fields of SitePublishingAuth.
func (SitePublishingAuth) Fields() []ent.Field {
	return []ent.Field{
		field.String("site_id").Immutable().NotEmpty(),
		// sealed_key is the signing key, sealed (nonce and ciphertext).
		field.Bytes("sealed_key").Sensitive().NotEmpty(),
		field.String("fallback_url").Optional().Nillable().MaxLen(2048),
		field.String("logout_url").Optional().Nillable().MaxLen(2048),
		// oidc_provider_id names the organization's OpenID Connect provider its readers sign in
		// with at the site; nil: readers bring a JWT signed with the key (the custom backend).
		field.String("oidc_provider_id").Optional().Nillable(),
		// oidc_claims maps claims of the provider's ID token to the visitor claims adaptive content
		// reads: ID token claim → visitor claim.
		field.JSON("oidc_claims", map[string]string{}).Optional(),
	}
}

// Edges of SitePublishingAuth. The settings go with their site.
func (SitePublishingAuth) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("site", Site.Type).Field("site_id").Unique().Required().Immutable().
			Annotations(entsql.OnDelete(entsql.Cascade)),
		// Deleting the provider turns its sites back to the custom backend.
		edge.To("oidc_provider", OIDCProvider.Type).Field("oidc_provider_id").Unique().
			Annotations(entsql.OnDelete(entsql.SetNull)),
	}
}

// Indexes of SitePublishingAuth: one row per site.
func (SitePublishingAuth) Indexes() []ent.Index {
	return []ent.Index{index.Fields("site_id").Unique()}
}

// Policy of SitePublishingAuth: creators and admins, who manage sites, see and change it.
func (SitePublishingAuth) Policy() ent.Policy {
	return privacy.Policy{
		Query:    privacy.QueryPolicy{rule.FilterTenant(viewer.RoleCreate)},
		Mutation: privacy.MutationPolicy{rule.AllowOrgRole(viewer.RoleCreate), privacy.AlwaysDenyRule()},
	}
}
