package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"

	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
)

// Organization owns members, teams and all content. Its id is the tenant key of every owned row.
type Organization struct{ ent.Schema }

// Mixin of Organization.
func (Organization) Mixin() []ent.Mixin { return []ent.Mixin{IDMixin{}, TimeMixin{}} }

// Fields of Organization.
func (Organization) Fields() []ent.Field {
	return []ent.Field{
		field.String("title").NotEmpty().MaxRuneLen(255),
		field.Strings("email_domains").Default([]string{}),
		field.String("hostname").Optional().Nillable().MaxRuneLen(32).Unique(),
		field.Enum("type").Values("business", "community").Default("business"),
		field.Enum("use_case").Values("internalDocs", "docsSite", "audienceControlledSite", "productDocs",
			"teamKnowledgeBase", "designSystem", "openSourceDocs", "notes", "other").Optional().Nillable(),
		field.Enum("community_type").Values("nonProfit", "openSource", "education").Optional().Nillable(),
		// default_role is the role given to people who join without an explicit one; nil makes them guests.
		field.Enum("default_role").GoType(viewer.Role("")).Optional().Nillable(),
		// default_content_site is the id of the site shown as the organization's default content.
		field.String("default_content_site").Optional().Nillable(),
		field.String("logo").Optional().Nillable().MaxRuneLen(2048),
		field.Bool("sso").Default(false),
		field.Bool("ai").Default(false),
		field.Bool("invite_links").Default(true),
		// plan is the product name, with the values of the reference API's BillingProduct.
		field.Enum("plan").Values("free", "plus", "pro", "internal", "free_2024", "plus_2024", "pro_2024",
			"enterprise_2024", "community_2024").Default("free"),
		// merge_rules are the rules of the spaces and collections that inherit up to the
		// organization: none when nil, else rules.
		mergeRulesField(),
	}
}

// Edges of Organization.
func (Organization) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("members", Member.Type).Ref("organization"),
		edge.From("teams", Team.Type).Ref("organization"),
	}
}

// Policy of Organization: members (guests too) see it; any signed-in user may found one;
// admins change it.
func (Organization) Policy() ent.Policy {
	return privacy.Policy{
		Query: privacy.QueryPolicy{rule.FilterOrganizations()},
		Mutation: privacy.MutationPolicy{
			rule.AllowOrganizationCreate(),
			rule.AllowOrganizationAdmin(),
			privacy.AlwaysDenyRule(),
		},
	}
}

// Hooks of Organization: setting the sso flag moves its members' access versions, so every
// process reads again which organizations enforce single sign-on for them.
func (Organization) Hooks() []ent.Hook { return []ent.Hook{rule.SSOVersions()} }
