package model

import (
	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent/site"
)

// MarshalSiteType writes a site type as its GraphQL enum value.
func MarshalSiteType(t site.Type) graphql.Marshaler { return marshalEnum(string(t)) }

// UnmarshalSiteType reads a GraphQL enum value into a site type.
func UnmarshalSiteType(v any) (site.Type, error) {
	return unmarshalChecked(v, site.TypeValidator, "site type (one of BASIC, PREMIUM, ULTIMATE)")
}

// MarshalSiteVisibility writes a site visibility as its GraphQL enum value.
func MarshalSiteVisibility(v site.Visibility) graphql.Marshaler { return marshalEnum(string(v)) }

// UnmarshalSiteVisibility reads a GraphQL enum value into a site visibility.
func UnmarshalSiteVisibility(v any) (site.Visibility, error) {
	return unmarshalChecked(v, site.VisibilityValidator,
		"site visibility (one of PUBLIC, UNLISTED, SHARE_LINK, VISITOR_AUTH)")
}
