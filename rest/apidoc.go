package rest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/graph"
	jsondoc "github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/rest/apidoc"
)

// operations describes every route of /v1: its operationId (the reference client's where it has
// the operation: TestAPIDocumentOperationIDs holds them to it), tag, summary, success status, and
// the Go types of its bodies, from which the document's schemas are reflected.
// TestAPIDocumentDescribesEveryRoute fails when a route has no entry, or an entry no route.
var operations = []apidoc.Operation{
	{Route: "GET /docs", ID: "getAPIDocs", Tag: "api", Summary: "This document as a web page", Status: 200, Content: "text/html"},
	{Route: "GET /openapi.json", ID: "getOpenAPIDocument", Tag: "api", Summary: "This document: the OpenAPI 3.1 description of the /v1 API of this server", Status: 200, Response: typeOf[documentHead]()},
	{Route: "GET /orgs/{organizationId}/sso", ID: "listSSOProviderLoginsInOrganization", Tag: "sso", Summary: "List the single sign-on providers people of an organization may sign in with", Status: 200, Response: typeOf[ssoLogins]()},
	{Route: "GET /", ID: "getApiInformation", Tag: "system", Summary: "Get the version and capabilities of this server", Status: 200, Response: typeOf[APIInfo]()},
	{Route: "PATCH /collections/{collectionId}", ID: "updateCollectionById", Tag: "collections", Summary: "Update collection", Status: 200, Request: typeOf[updateCollectionBody](), Response: typeOf[Collection]()},
	{Route: "DELETE /collections/{collectionId}", ID: "deleteCollectionById", Tag: "collections", Summary: "Delete collection", Status: 205},
	{Route: "GET /collections/{collectionId}", ID: "getCollectionById", Tag: "collections", Summary: "Get collection", Status: 200, Response: typeOf[Collection]()},
	{Route: "POST /collections/{collectionId}/move", ID: "moveCollection", Tag: "collections", Summary: "Move collection", Status: 200, Request: typeOf[moveBody](), Response: typeOf[Collection]()},
	{Route: "POST /collections/{collectionId}/permissions", ID: "inviteToCollection", Tag: "collection-permissions", Summary: "Invite to collection", Status: 204, Request: typeOf[grantInviteBody](), Required: []string{"role"}},
	{Route: "GET /collections/{collectionId}/permissions/aggregate", ID: "listPermissionsAggregateInCollection", Tag: "space-permissions", Summary: "List everyone with access to a collection, with their role", Status: 200, Response: typeOf[List[UserPermission]](), Query: accessListParams},
	{Route: "GET /collections/{collectionId}/permissions/teams", ID: "listTeamPermissionsInCollection", Tag: "collection-permissions", Summary: "List team permissions in collection", Status: 200, Response: typeOf[List[TeamPermission]](), Query: listParams},
	{Route: "PATCH /collections/{collectionId}/permissions/teams/{teamId}", ID: "updateTeamPermissionInCollection", Tag: "collection-permissions", Summary: "Update team permission in collection", Status: 204, Request: typeOf[grantRoleBody]()},
	{Route: "DELETE /collections/{collectionId}/permissions/teams/{teamId}", ID: "removeTeamFromCollection", Tag: "collection-permissions", Summary: "Remove team from collection", Status: 204},
	{Route: "GET /collections/{collectionId}/permissions/users", ID: "listUserPermissionsInCollection", Tag: "collection-permissions", Summary: "List user permissions in collection", Status: 200, Response: typeOf[List[UserPermission]](), Query: listParams},
	{Route: "PATCH /collections/{collectionId}/permissions/users/{userId}", ID: "updateUserPermissionInCollection", Tag: "collection-permissions", Summary: "Update user permission in collection", Status: 204, Request: typeOf[grantRoleBody]()},
	{Route: "DELETE /collections/{collectionId}/permissions/users/{userId}", ID: "removeUserFromCollection", Tag: "collection-permissions", Summary: "Remove user from collection", Status: 204},
	{Route: "GET /collections/{collectionId}/spaces", ID: "listSpacesInCollectionById", Tag: "collections", Summary: "List spaces in collection", Status: 200, Response: typeOf[List[Space]](), Query: listParams},
	{Route: "POST /collections/{collectionId}/transfer", ID: "transferCollection", Tag: "collections", Summary: "Transfer collection", Status: 200, Request: typeOf[transferBody](), Required: []string{"organization"}, Response: typeOf[Collection]()},
	{Route: "GET /email-domains/{emailDomain}/orgs", ID: "getOrganizationsForEmailDomain", Tag: "organizations", Summary: "List the organizations of an email domain", Status: 200, Response: typeOf[organizationsOfDomain]()},
	{Route: "GET /orgs", ID: "listOrganizationsForAuthenticatedUser", Tag: "organizations", Summary: "List the viewer's organizations", Status: 200, Response: typeOf[List[Organization]](), Query: listParams},
	{Route: "POST /orgs", ID: "createOrganization", Tag: "organizations", Summary: "Create organization", Status: 201, Request: typeOf[createOrganizationBody](), Required: []string{"title"}, Response: typeOf[Organization]()},
	{Route: "PATCH /orgs/{organizationId}", ID: "updateOrganizationById", Tag: "organizations", Summary: "Update organization", Status: 200, Request: typeOf[updateOrganizationBody](), Response: typeOf[Organization]()},
	{Route: "GET /orgs/{organizationId}", ID: "getOrganizationById", Tag: "organizations", Summary: "Get organization", Status: 200, Response: typeOf[Organization]()},
	{Route: "POST /orgs/{organizationId}/collections", ID: "createCollection", Tag: "collections", Summary: "Create collection", Status: 201, Request: typeOf[createCollectionBody](), Response: typeOf[Collection]()},
	{Route: "GET /orgs/{organizationId}/collections", ID: "listCollectionsInOrganizationById", Tag: "collections", Summary: "List collections in organization", Status: 200, Response: typeOf[List[Collection]](), Query: listQuery(flagParam("nested", "false: only the top-level collections"))},
	{Route: "GET /orgs/{organizationId}/custom-fields", ID: "listCustomFields", Tag: "custom-fields", Summary: "List the organization's custom fields", Status: 200, Response: typeOf[List[CustomField]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/custom-fields", ID: "createCustomField", Tag: "custom-fields", Summary: "Create a custom field", Status: 201, Request: typeOf[createCustomFieldBody](), Required: []string{"name", "type"}, Response: typeOf[CustomField]()},
	{Route: "GET /orgs/{organizationId}/custom-fields/{fieldName}", ID: "getCustomField", Tag: "custom-fields", Summary: "Get a custom field", Status: 200, Response: typeOf[CustomField]()},
	{Route: "PATCH /orgs/{organizationId}/custom-fields/{fieldName}", ID: "updateCustomField", Tag: "custom-fields", Summary: "Update a custom field", Status: 200, Request: typeOf[updateCustomFieldBody](), Response: typeOf[CustomField]()},
	{Route: "DELETE /orgs/{organizationId}/custom-fields/{fieldName}", ID: "deleteCustomField", Tag: "custom-fields", Summary: "Delete a custom field and its values", Status: 204},
	{Route: "POST /orgs/{organizationId}/invites/{inviteId}", ID: "joinOrganizationWithInvite", Tag: "organization-invites", Summary: "Join an organization with an invite link", Status: 200, Response: typeOf[struct{}]()},
	{Route: "GET /orgs/{organizationId}/link-invites", ID: "listOrganizationInviteLinks", Tag: "organization-invites", Summary: "List organization invite links", Status: 200, Response: typeOf[List[Invite]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/link-invites", ID: "createOrganizationInvite", Tag: "organization-invites", Summary: "Create organization invite", Status: 201, Request: typeOf[inviteBody](), Response: typeOf[Invite]()},
	{Route: "GET /orgs/{organizationId}/link-invites/{inviteId}", ID: "getOrganizationInviteLink", Tag: "organization-invites", Summary: "Get organization invite link", Status: 200, Response: typeOf[Invite]()},
	{Route: "PATCH /orgs/{organizationId}/link-invites/{inviteId}", ID: "updateOrganizationInviteById", Tag: "organization-invites", Summary: "Update organization invite", Status: 200, Request: typeOf[inviteBody](), Response: typeOf[Invite]()},
	{Route: "DELETE /orgs/{organizationId}/link-invites/{inviteId}", ID: "deleteOrganizationInviteById", Tag: "organizations", Summary: "Delete organization invite", Status: 205},
	{Route: "GET /orgs/{organizationId}/members", ID: "listMembersInOrganizationById", Tag: "organization-members", Summary: "List members in organization", Status: 200, Response: typeOf[List[Member]](), Query: memberListParams},
	{Route: "DELETE /orgs/{organizationId}/members/{userId}", ID: "removeMemberFromOrganizationById", Tag: "organization-members", Summary: "Remove member from organization", Status: 204},
	{Route: "GET /orgs/{organizationId}/members/{userId}", ID: "getMemberInOrganizationById", Tag: "organization-members", Summary: "Get member in organization", Status: 200, Response: typeOf[Member]()},
	{Route: "PATCH /orgs/{organizationId}/members/{userId}", ID: "updateMemberInOrganizationById", Tag: "organization-members", Summary: "Update member in organization", Status: 200, Request: typeOf[updateMemberBody](), Response: typeOf[Member]()},
	{Route: "GET /orgs/{organizationId}/members/{userId}/spaces", ID: "listSpacesForOrganizationMember", Tag: "organization-members", Summary: "List spaces for organization member", Status: 200, Response: typeOf[List[MemberSpace]](), Query: listQuery(choiceParam("order", "asc or desc", "asc", "desc"))},
	{Route: "POST /orgs/{organizationId}/members/{userId}/sso", ID: "setUserAsSSOMemberForOrganization", Tag: "organization-members", Summary: "Make a member sign in with single sign-on", Status: 200, Response: typeOf[Member]()},
	{Route: "GET /orgs/{organizationId}/members/{userId}/teams", ID: "listTeamsForOrganizationMember", Tag: "organization-members", Summary: "List teams for organization member", Status: 200, Response: typeOf[List[MemberTeamItem]](), Query: listQuery(textParam("title", "Only teams whose title contains this"))},
	{Route: "GET /orgs/{organizationId}/openapi", ID: "listOpenAPISpecs", Tag: "openapi", Summary: "List OpenAPI specs", Status: 200, Response: typeOf[List[OpenAPISpec]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/openapi", ID: "createOpenAPISpec", Tag: "openapi", Summary: "Create OpenAPI spec", Status: 201, Request: typeOf[createOpenAPISpecBody](), Required: []string{"slug", "source"}, Response: typeOf[OpenAPISpec]()},
	{Route: "DELETE /orgs/{organizationId}/openapi/{specSlug}", ID: "deleteOpenAPISpecBySlug", Tag: "openapi", Summary: "Delete OpenAPI spec by slug", Status: 205, Bodiless: []int{204}},
	{Route: "GET /orgs/{organizationId}/openapi/{specSlug}", ID: "getOpenAPISpecBySlug", Tag: "openapi", Summary: "Get OpenAPI spec by slug", Status: 200, Response: typeOf[OpenAPISpec]()},
	{Route: "PUT /orgs/{organizationId}/openapi/{specSlug}", ID: "createOrUpdateOpenAPISpecBySlug", Tag: "openapi", Summary: "Create or update OpenAPI spec by slug", Status: 200, Request: typeOf[putOpenAPISpecBody](), Required: []string{"source"}, Response: typeOf[OpenAPISpec](), Bodiless: []int{201}},
	{Route: "PATCH /orgs/{organizationId}/openapi/{specSlug}", ID: "updateOpenAPISpecBySlug", Tag: "openapi", Summary: "Update OpenAPI spec by slug", Status: 200, Request: typeOf[updateOpenAPISpecBody](), Required: []string{"visibility"}, Response: typeOf[OpenAPISpec]()},
	{Route: "GET /orgs/{organizationId}/openapi/{specSlug}/versions", ID: "listOpenAPISpecVersions", Tag: "openapi-versions", Summary: "List OpenAPI spec versions", Status: 200, Response: typeOf[List[OpenAPISpecVersion]](), Query: listParams},
	{Route: "GET /orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}", ID: "getOpenAPISpecVersionById", Tag: "openapi-versions", Summary: "Get OpenAPI spec version", Status: 200, Response: typeOf[OpenAPISpecVersion]()},
	{Route: "GET /orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content", ID: "getOpenAPISpecVersionContentById", Tag: "openapi-versions", Summary: "Get OpenAPI spec version content", Status: 200, Response: typeOf[openAPIContent]()},
	{Route: "GET /orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content/raw", ID: "getOpenAPISpecVersionRawContent", Tag: "openapi-versions", Summary: "Get the entry document of a spec version as it was fetched ({versionId} may be latest)", Status: 200, Response: typeOf[openAPIRawContent]()},
	{Route: "POST /orgs/{organizationId}/ping", ID: "updateOrganizationMemberLastSeenAt", Tag: "organization-members", Summary: "Record the viewer's visit to an organization", Status: 200, Response: typeOf[pingResult]()},
	{Route: "GET /orgs/{organizationId}/saml", ID: "listSAMLProvidersInOrganizationById", Tag: "sso", Summary: "List SAML providers in organization", Status: 200, Response: typeOf[List[SAMLProvider]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/saml", ID: "createOrganizationSAMLProvider", Tag: "sso", Summary: "Create organization SAML provider", Status: 201, Request: typeOf[samlProviderBody](), Required: []string{"label"}, Response: typeOf[SAMLProvider]()},
	{Route: "GET /orgs/{organizationId}/saml/{samlProviderId}", ID: "getOrganizationSAMLProviderById", Tag: "sso", Summary: "Get organization SAML provider", Status: 200, Response: typeOf[SAMLProvider]()},
	{Route: "PATCH /orgs/{organizationId}/saml/{samlProviderId}", ID: "updateOrganizationSAMLProvider", Tag: "sso", Summary: "Update organization SAML provider", Status: 200, Request: typeOf[samlProviderBody](), Response: typeOf[SAMLProvider]()},
	{Route: "DELETE /orgs/{organizationId}/saml/{samlProviderId}", ID: "deleteOrganizationSAMLProvider", Tag: "sso", Summary: "Delete organization SAML provider", Status: 204},
	{Route: "GET /orgs/{organizationId}/oidc-providers", ID: "listOIDCProviders", Tag: "sso", Summary: "List the organization's OpenID Connect providers", Status: 200, Response: typeOf[List[OIDCProvider]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/oidc-providers", ID: "createOIDCProvider", Tag: "sso", Summary: "Add an OpenID Connect provider; its client secret is sealed and never shown", Status: 201, Request: typeOf[oidcProviderBody](), Required: []string{"label", "issuer", "clientId", "clientSecret"}, Response: typeOf[OIDCProvider]()},
	{Route: "GET /orgs/{organizationId}/oidc-providers/{providerId}", ID: "getOIDCProvider", Tag: "sso", Summary: "Get an OpenID Connect provider", Status: 200, Response: typeOf[OIDCProvider]()},
	{Route: "PATCH /orgs/{organizationId}/oidc-providers/{providerId}", ID: "updateOIDCProvider", Tag: "sso", Summary: "Update an OpenID Connect provider", Status: 200, Request: typeOf[oidcProviderBody](), Response: typeOf[OIDCProvider]()},
	{Route: "DELETE /orgs/{organizationId}/oidc-providers/{providerId}", ID: "deleteOIDCProvider", Tag: "sso", Summary: "Delete an OpenID Connect provider; the sessions it began end", Status: 204},
	{Route: "GET /orgs/{organizationId}/scim-tokens", ID: "listSCIMTokens", Tag: "sso", Summary: "List the organization's SCIM tokens (never the tokens themselves)", Status: 200, Response: typeOf[List[SCIMToken]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/scim-tokens", ID: "createSCIMToken", Tag: "sso", Summary: "Issue a SCIM token; the token is in this answer only", Status: 201, Response: typeOf[SCIMToken]()},
	{Route: "DELETE /orgs/{organizationId}/scim-tokens/{tokenId}", ID: "revokeSCIMToken", Tag: "sso", Summary: "Revoke a SCIM token", Status: 204},
	{Route: "GET /orgs/{organizationId}/search", ID: "searchOrganizationContent", Tag: "organizations", Summary: "Search the content of an organization's spaces", Status: 200, Response: typeOf[List[SearchSpaceResult]](), Query: listQuery(textParam("query", "The words searched for"))},
	{Route: "POST /orgs/{organizationId}/sites", ID: "createSite", Tag: "sites", Summary: "Create site", Status: 201, Request: typeOf[createSiteBody](), Response: typeOf[Site]()},
	{Route: "GET /orgs/{organizationId}/sites", ID: "listSites", Tag: "sites", Summary: "List sites", Status: 200, Response: typeOf[List[Site]](), Query: listQuery(flagParam("published", "Only published (true) or unpublished (false) sites"), textParam("space", "Only sites showing this space"), textParam("title", "Only sites whose title contains this"))},
	{Route: "PATCH /orgs/{organizationId}/sites/{siteId}", ID: "updateSiteById", Tag: "sites", Summary: "Update site", Status: 200, Request: typeOf[updateSiteBody](), Response: typeOf[Site]()},
	{Route: "DELETE /orgs/{organizationId}/sites/{siteId}", ID: "deleteSiteById", Tag: "sites", Summary: "Delete site", Status: 205},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}", ID: "getSiteById", Tag: "sites", Summary: "Get site", Status: 200, Response: typeOf[Site]()},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/adaptive-schema", ID: "getSiteAdaptiveSchema", Tag: "sites", Summary: "Get site adaptive schema", Status: 200, Response: typeOf[AdaptiveSchema]()},
	{Route: "PUT /orgs/{organizationId}/sites/{siteId}/adaptive-schema", ID: "updateSiteAdaptiveSchema", Tag: "sites", Summary: "Update site adaptive schema", Status: 200, Request: typeOf[updateSiteAdaptiveSchemaBody](), Required: []string{"jsonSchema"}, Response: typeOf[AdaptiveSchema]()},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/customization", ID: "getSiteCustomizationById", Tag: "site-customization", Summary: "Get site customization", Status: 200, Response: typeOf[map[string]any]()},
	{Route: "PUT /orgs/{organizationId}/sites/{siteId}/customization", ID: "updateSiteCustomizationById", Tag: "site-customization", Summary: "Update site customization", Status: 200, Request: typeOf[map[string]any](), Response: typeOf[map[string]any]()},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/insights/events", ID: "trackEventsInSiteById", Tag: "site-insights", Summary: "Track site events (at most 500; 120 a minute from one address)", Status: 204, Request: typeOf[trackSiteEventsBody](), Required: []string{"events"},
		Query: []apidoc.Param{shareKeyParam, textParam("jwt_token", "A visitor token, for a visitor-auth site")}},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/insights/events/aggregate", ID: "aggregateSiteEvents", Tag: "site-insights", Summary: "Query a site's analytics events, counted by day (Bindery filters by eventSearchResultsCount too)", Status: 200, Request: typeOf[aggregateSiteEventsBody](), Required: []string{"range"}, Response: typeOf[aggregateSiteEventsAnswer]()},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/insights/visitor-segments", ID: "listSiteVisitorSegments", Tag: "site-insights", Summary: "List a site visitor segments", Status: 200, Response: typeOf[List[SiteVisitorSegment]]()},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/publish", ID: "publishSite", Tag: "sites", Summary: "Publish site", Status: 200, Response: typeOf[Site]()},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/published", ID: "getPublishedContentSite", Tag: "sites", Summary: "Get what a site publishes: its spaces, sections and customization", Status: 200, Response: typeOf[PublishedContentSite](), Query: []apidoc.Param{shareKeyParam}},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/publishing/auth", ID: "getSitePublishingAuthById", Tag: "site-publishing-auth", Summary: "Get site publishing auth", Status: 200, Response: typeOf[PublishingAuth]()},
	{Route: "PATCH /orgs/{organizationId}/sites/{siteId}/publishing/auth", ID: "updateSitePublishingAuthById", Tag: "site-publishing-auth", Summary: "Update site publishing auth", Status: 200, Request: typeOf[updateSitePublishingAuthBody](), Response: typeOf[PublishingAuth]()},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate", ID: "regenerateSitePublishingAuthById", Tag: "site-publishing-auth", Summary: "Regenerate site publishing auth", Status: 200, Response: typeOf[PublishingAuth]()},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/redirect", ID: "getSiteRedirectBySource", Tag: "site-redirects", Summary: "Find the redirect of a source path", Status: 200, Response: typeOf[RedirectTarget](), Query: []apidoc.Param{textParam("source", "The source path"), shareKeyParam}},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/redirects", ID: "createSiteRedirect", Tag: "site-redirects", Summary: "Create site redirect", Status: 201, Request: typeOf[createSiteRedirectBody](), Required: []string{"source", "destination"}, Response: typeOf[SiteRedirect]()},
	{Route: "PUT /orgs/{organizationId}/sites/{siteId}/redirects", ID: "bulkUpsertSiteRedirects", Tag: "site-redirects", Summary: "Create or update many site redirects at once", Status: 200, Request: typeOf[bulkUpsertSiteRedirectsBody](), Required: []string{"redirects"}, Response: typeOf[map[string][]RedirectResult]()},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/redirects", ID: "listSiteRedirects", Tag: "site-redirects", Summary: "List site redirects", Status: 200, Response: typeOf[List[SiteRedirect]](), Query: redirectListParams},
	{Route: "DELETE /orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", ID: "deleteSiteRedirectById", Tag: "site-redirects", Summary: "Delete site redirect", Status: 205, Bodiless: []int{204}},
	{Route: "PATCH /orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", ID: "updateSiteRedirectById", Tag: "site-redirects", Summary: "Update site redirect", Status: 200, Request: typeOf[updateSiteRedirectBody](), Response: typeOf[SiteRedirect]()},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/section-groups", ID: "listSiteSectionGroups", Tag: "site-section-groups", Summary: "List site section groups", Status: 200, Response: typeOf[List[SiteSectionGroup]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/section-groups", ID: "addSectionGroupToSite", Tag: "site-section-groups", Summary: "Add section group to site", Status: 201, Request: typeOf[addSectionGroupToSiteBody](), Required: []string{"title"}, Response: typeOf[SiteSectionGroup]()},
	{Route: "PATCH /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", ID: "updateSiteSectionGroupById", Tag: "site-section-groups", Summary: "Update site section group", Status: 200, Request: typeOf[updateSiteSectionGroupBody](), Response: typeOf[SiteSectionGroup]()},
	{Route: "DELETE /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", ID: "deleteSiteSectionGroupById", Tag: "site-section-groups", Summary: "Delete site section group", Status: 205},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move", ID: "moveSiteSectionGroup", Tag: "site-section-groups", Summary: "Move site section group", Status: 200, Request: typeOf[structMoveBody[groupPointer]](), Response: typeOf[SiteSectionGroup]()},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", ID: "addSiteSectionToGroup", Tag: "site-section-groups", Summary: "Move a section into a section group", Status: 201, Request: typeOf[addSectionToGroupBody](), Required: []string{"sectionId"}, Response: typeOf[SiteSectionGroup]()},
	{Route: "DELETE /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", ID: "removeSiteSectionFromGroup", Tag: "site-section-groups", Summary: "Move a section out of a section group", Status: 205},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/sections", ID: "listSiteSections", Tag: "site-sections", Summary: "List site sections", Status: 200, Response: typeOf[List[SiteSection]](), Query: listQuery(shareKeyParam)},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/sections", ID: "addSectionToSite", Tag: "site-sections", Summary: "Add section to site", Status: 201, Request: typeOf[addSectionToSiteBody](), Required: []string{"spaceId"}, Response: typeOf[SiteSection]()},
	{Route: "DELETE /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", ID: "deleteSiteSectionById", Tag: "site-sections", Summary: "Delete site section", Status: 205},
	{Route: "PATCH /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", ID: "updateSiteSectionById", Tag: "site-sections", Summary: "Update site section", Status: 200, Request: typeOf[updateSiteSectionBody](), Response: typeOf[SiteSection]()},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", ID: "moveSiteSection", Tag: "site-sections", Summary: "Move site section", Status: 200, Request: typeOf[structMoveBody[sectionPointer]](), Response: typeOf[SiteSection]()},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/share-links", ID: "listSiteShareLinks", Tag: "site-share-links", Summary: "List site share links", Status: 200, Response: typeOf[List[ShareLink]](), Query: listQuery(textParam("search", "Only share links whose name contains this"))},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/share-links", ID: "createSiteShareLink", Tag: "site-share-links", Summary: "Create site share link", Status: 201, Request: typeOf[createSiteShareLinkBody](), Required: []string{"name"}, Response: typeOf[ShareLink]()},
	{Route: "DELETE /orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", ID: "deleteSiteShareLinkById", Tag: "site-share-links", Summary: "Delete site share link", Status: 205, Bodiless: []int{204}},
	{Route: "PATCH /orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", ID: "updateSiteShareLinkById", Tag: "site-share-links", Summary: "Update site share link", Status: 200, Request: typeOf[updateSiteShareLinkBody](), Response: typeOf[ShareLink]()},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/site-spaces", ID: "listSiteSpaces", Tag: "site-spaces", Summary: "List site spaces", Status: 200, Response: typeOf[List[SiteSpace]](), Query: listQuery(flagParam("default", "Only the default site space of each section (true), or the others (false)"), shareKeyParam)},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/site-spaces", ID: "addSpaceToSite", Tag: "site-spaces", Summary: "Add space to site", Status: 201, Request: typeOf[addSiteSpaceBody](), Required: []string{"spaceId"}, Response: typeOf[SiteSpace](), Bodiless: []int{204}},
	{Route: "PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", ID: "updateSiteSpaceById", Tag: "site-spaces", Summary: "Update site space", Status: 200, Request: typeOf[updateSiteSpaceBody](), Response: typeOf[SiteSpace](), Bodiless: []int{204}},
	{Route: "DELETE /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", ID: "deleteSiteSpaceById", Tag: "site-spaces", Summary: "Delete site space", Status: 205},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", ID: "getSiteSpaceCustomizationById", Tag: "site-customization", Summary: "Get site space customization", Status: 200, Response: typeOf[map[string]any]()},
	{Route: "PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", ID: "overrideSiteSpaceCustomizationById", Tag: "site-customization", Summary: "Override a site's customization for one of its site spaces", Status: 200, Request: typeOf[map[string]any](), Response: typeOf[map[string]any]()},
	{Route: "DELETE /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", ID: "deleteSiteSpaceCustomizationById", Tag: "site-customization", Summary: "Delete site space customization", Status: 205, Bodiless: []int{204}},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", ID: "moveSiteSpace", Tag: "site-spaces", Summary: "Move site space", Status: 200, Request: typeOf[moveSiteSpaceBody](), Response: typeOf[SiteSpace]()},
	{Route: "GET /orgs/{organizationId}/sites/{siteId}/structure", ID: "getSiteStructure", Tag: "site-structure", Summary: "Get site structure", Status: 200, Response: typeOf[SiteStructure](), Query: []apidoc.Param{shareKeyParam}},
	{Route: "POST /orgs/{organizationId}/sites/{siteId}/unpublish", ID: "unpublishSite", Tag: "sites", Summary: "Unpublish site", Status: 200, Response: typeOf[Site]()},
	{Route: "GET /orgs/{organizationId}/spaces", ID: "listSpacesInOrganizationById", Tag: "spaces", Summary: "List spaces in organization", Status: 200, Response: typeOf[List[Space]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/spaces", ID: "createSpace", Tag: "spaces", Summary: "Create space", Status: 201, Request: typeOf[createSpaceBody](), Response: typeOf[Space]()},
	{Route: "GET /orgs/{organizationId}/teams", ID: "listTeamsInOrganizationById", Tag: "teams", Summary: "List teams in organization", Status: 200, Response: typeOf[List[Team]](), Query: listQuery(textParam("title", "Only teams whose title contains this"), textParam("owner", "Only teams this user owns"))},
	{Route: "PUT /orgs/{organizationId}/teams", ID: "createOrganizationTeam", Tag: "teams", Summary: "Create organization team", Status: 201, Request: typeOf[createTeamBody](), Required: []string{"title"}, Response: typeOf[Team]()},
	{Route: "DELETE /orgs/{organizationId}/teams/{teamId}", ID: "removeTeamFromOrganizationById", Tag: "teams", Summary: "Remove team from organization", Status: 204},
	{Route: "GET /orgs/{organizationId}/teams/{teamId}", ID: "getTeamInOrganizationById", Tag: "teams", Summary: "Get team in organization", Status: 200, Response: typeOf[Team]()},
	{Route: "PATCH /orgs/{organizationId}/teams/{teamId}", ID: "updateTeamInOrganizationById", Tag: "teams", Summary: "Update team in organization", Status: 200, Request: typeOf[updateTeamBody](), Required: []string{"title"}, Response: typeOf[Team]()},
	{Route: "GET /orgs/{organizationId}/teams/{teamId}/members", ID: "listTeamMembersInOrganizationById", Tag: "team-members", Summary: "List team members in organization", Status: 200, Response: typeOf[List[TeamRosterItem]](), Query: listParams},
	{Route: "PUT /orgs/{organizationId}/teams/{teamId}/members", ID: "updateMembersInOrganizationTeam", Tag: "team-members", Summary: "Update members in organization team", Status: 204, Request: typeOf[updateTeamMembersBody]()},
	{Route: "PUT /orgs/{organizationId}/teams/{teamId}/members/{userId}", ID: "addMemberToOrganizationTeamById", Tag: "team-members", Summary: "Add member to organization team", Status: 204, Request: typeOf[setTeamMemberBody]()},
	{Route: "DELETE /orgs/{organizationId}/teams/{teamId}/members/{userId}", ID: "deleteMemberFromOrganizationTeamById", Tag: "team-members", Summary: "Delete member from organization team", Status: 204},
	{Route: "GET /orgs/{organizationId}/translations", ID: "listTranslationSettings", Tag: "translation-settings", Summary: "List the organization's translation settings", Status: 200, Response: typeOf[List[TranslationSettings]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/translations", ID: "createTranslationSettings", Tag: "translation-settings", Summary: "Create translation settings", Status: 201, Request: typeOf[translationSettingsBody](), Required: []string{"title"}, Response: typeOf[TranslationSettings]()},
	{Route: "DELETE /orgs/{organizationId}/translations/{translationSettingsId}", ID: "deleteTranslationSettings", Tag: "translation-settings", Summary: "Delete translation settings", Status: 204},
	{Route: "GET /orgs/{organizationId}/translations/{translationSettingsId}", ID: "getTranslationSettings", Tag: "translation-settings", Summary: "Get translation settings", Status: 200, Response: typeOf[TranslationSettings]()},
	{Route: "PUT /orgs/{organizationId}/translations/{translationSettingsId}", ID: "updateTranslationSettings", Tag: "translation-settings", Summary: "Replace translation settings", Status: 200, Request: typeOf[translationSettingsBody](), Required: []string{"title"}, Response: typeOf[TranslationSettings]()},
	{Route: "GET /urls/content", ID: "getContentByUrl", Tag: "urls", Summary: "Resolve an app URL or a published page's URL of this server to its collection, or its space, change request and page", Status: 200, Response: typeOf[ContentByURL](), Query: []apidoc.Param{textParam("url", "An app URL of this server (a `urls.app` the API hands out); required")}},
	{Route: "GET /urls/published", ID: "getPublishedContentByUrl", Tag: "urls", Summary: "Resolve a published page's URL to what it shows its reader", Status: 200, Response: typeOf[PublishedSiteContent](), Also: typeOf[PublishedContentRedirect](), Query: []apidoc.Param{textParam("url", "A published page's URL: under /sites/ or at a site's hostname; required"), textParam("visitorAuthToken", "A visitor token of the site"), flagParam("redirectOnError", "Answer a redirect to the site's fallback URL when the visitor token is missing or invalid")}},
	{Route: "POST /urls/published", ID: "resolvePublishedContentByUrl", Tag: "urls", Summary: "Resolve a published page's URL to what it shows its reader", Status: 200, Request: typeOf[resolvePublishedBody](), Required: []string{"url"}, Response: typeOf[PublishedSiteContent](), Also: typeOf[PublishedContentRedirect]()},
	{Route: "GET /custom-hostnames/{hostname}", ID: "getCustomHostname", Tag: "custom-hostnames", Summary: "Get a custom hostname: its site and the outcome of its last DNS check", Status: 200, Response: typeOf[CustomHostname]()},
	{Route: "PATCH /custom-hostnames/{hostname}", ID: "dnsRevalidateCustomHostname", Tag: "custom-hostnames", Summary: "Check a custom hostname's DNS now (it must lead to this server's host)", Status: 204},
	{Route: "DELETE /custom-hostnames/{hostname}", ID: "removeCustomHostname", Tag: "custom-hostnames", Summary: "Take a custom hostname off its site", Status: 205, Bodiless: []int{204}},
	{Route: "GET /orgs/{organizationId}/audit-events", ID: "listOrganizationAuditEvents", Tag: "organizations", Summary: "List the organization's audit events, newest first (admins)", Status: 200, Response: typeOf[List[AuditEvent]](), Query: auditListParams},
	{Route: "GET /orgs/{organizationId}/audit-events/{auditEventId}", ID: "getOrganizationAuditEvent", Tag: "organizations", Summary: "Get an audit event (admins)", Status: 200, Response: typeOf[AuditEvent]()},
	{Route: "GET /orgs/{organizationId}/audit-event-actions", ID: "listOrganizationAuditEventActions", Tag: "organizations", Summary: "List the actions the audit log records (admins)", Status: 200, Response: typeOf[AuditEventActions]()},
	{Route: "GET /orgs/{organizationId}/webhooks", ID: "listWebhooks", Tag: "webhooks", Summary: "List the organization's webhooks", Status: 200, Response: typeOf[List[Webhook]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/webhooks", ID: "createWebhook", Tag: "webhooks", Summary: "Create a webhook; the answer holds its signing secret, shown only here", Status: 201, Request: typeOf[webhookBody](), Required: []string{"url"}, Response: typeOf[Webhook]()},
	{Route: "DELETE /orgs/{organizationId}/webhooks/{webhookId}", ID: "deleteWebhook", Tag: "webhooks", Summary: "Delete a webhook and its delivery log", Status: 204},
	{Route: "GET /orgs/{organizationId}/webhooks/{webhookId}", ID: "getWebhook", Tag: "webhooks", Summary: "Get a webhook", Status: 200, Response: typeOf[Webhook]()},
	{Route: "PATCH /orgs/{organizationId}/webhooks/{webhookId}", ID: "updateWebhook", Tag: "webhooks", Summary: "Update a webhook", Status: 200, Request: typeOf[webhookBody](), Response: typeOf[Webhook]()},
	{Route: "GET /orgs/{organizationId}/webhooks/{webhookId}/deliveries", ID: "listWebhookDeliveries", Tag: "webhooks", Summary: "List a webhook's deliveries, newest first", Status: 200, Response: typeOf[List[WebhookDelivery]](), Query: listParams},
	{Route: "POST /orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", ID: "redeliverWebhookDelivery", Tag: "webhooks", Summary: "Deliver again now", Status: 200, Response: typeOf[WebhookDelivery]()},
	{Route: "POST /orgs/{organizationId}/webhooks/{webhookId}/rotate-secret", ID: "rotateWebhookSecret", Tag: "webhooks", Summary: "Give a webhook a new signing secret", Status: 200, Response: typeOf[Webhook]()},
	{Route: "POST /orgs/{organizationId}/webhooks/{webhookId}/test", ID: "testWebhook", Tag: "webhooks", Summary: "Send a webhook.test event now", Status: 201, Response: typeOf[WebhookDelivery]()},
	{Route: "PATCH /spaces/{spaceId}", ID: "updateSpaceById", Tag: "spaces", Summary: "Update space", Status: 200, Request: typeOf[updateSpaceBody](), Response: typeOf[Space]()},
	{Route: "DELETE /spaces/{spaceId}", ID: "deleteSpaceById", Tag: "spaces", Summary: "Delete space", Status: 205},
	{Route: "GET /spaces/{spaceId}", ID: "getSpaceById", Tag: "spaces", Summary: "Get space", Status: 200, Response: typeOf[Space](), Query: []apidoc.Param{shareKeyParam}},
	{Route: "GET /spaces/{spaceId}/change-requests", ID: "listChangeRequestsForSpace", Tag: "change-requests", Summary: "List change requests for space", Status: 200, Response: typeOf[List[ChangeRequest]](), Query: changeRequestListParams},
	{Route: "POST /spaces/{spaceId}/change-requests", ID: "createChangeRequest", Tag: "change-requests", Summary: "Create change request", Status: 201, Request: typeOf[createChangeRequestBody](), Response: typeOf[ChangeRequest]()},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}", ID: "getChangeRequestById", Tag: "change-requests", Summary: "Get change request", Status: 200, Response: typeOf[ChangeRequest]()},
	{Route: "PATCH /spaces/{spaceId}/change-requests/{changeRequestId}", ID: "updateChangeRequestById", Tag: "change-requests", Summary: "Update change request", Status: 200, Request: typeOf[updateChangeRequestBody](), Response: typeOf[ChangeRequest](), Bodiless: []int{204}},
	{Route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/comments", ID: "postCommentInChangeRequest", Tag: "change-request-comments", Summary: "Post comment in change request", Status: 200, Request: typeOf[posted](), Required: []string{"body"}, Response: typeOf[Comment](), Query: commentParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/comments", ID: "listCommentsInChangeRequest", Tag: "change-request-comments", Summary: "List comments in change request", Status: 200, Response: typeOf[List[Comment]](), Query: commentListParams},
	{Route: "DELETE /spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", ID: "deleteCommentInChangeRequest", Tag: "change-request-comments", Summary: "Delete comment in change request", Status: 205, Bodiless: []int{204}, Query: commentParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", ID: "getCommentInChangeRequest", Tag: "change-request-comments", Summary: "Get comment in change request", Status: 200, Response: typeOf[Comment](), Query: commentParams},
	{Route: "PUT /spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}", ID: "updateCommentInChangeRequest", Tag: "change-request-comments", Summary: "Update comment in change request", Status: 200, Request: typeOf[commentEdit](), Response: typeOf[Comment](), Query: commentParams},
	{Route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies", ID: "postCommentReplyInChangeRequest", Tag: "change-request-comments", Summary: "Post comment reply in change request", Status: 200, Request: typeOf[posted](), Required: []string{"body"}, Response: typeOf[CommentReply](), Query: commentParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies", ID: "listCommentRepliesInChangeRequest", Tag: "change-request-comments", Summary: "List comment replies in change request", Status: 200, Response: typeOf[List[CommentReply]](), Query: replyListParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", ID: "getCommentReplyInChangeRequest", Tag: "change-request-comments", Summary: "Get comment reply in change request", Status: 200, Response: typeOf[CommentReply](), Query: commentParams},
	{Route: "PUT /spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", ID: "updateCommentReplyInChangeRequest", Tag: "change-request-comments", Summary: "Update comment reply in change request", Status: 200, Request: typeOf[commentEdit](), Response: typeOf[CommentReply](), Query: commentParams},
	{Route: "DELETE /spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}/replies/{commentReplyId}", ID: "deleteCommentReplyInChangeRequest", Tag: "change-request-comments", Summary: "Delete comment reply in change request", Status: 205, Bodiless: []int{204}, Query: commentParams},
	{Route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/content", ID: "updateChangeRequestContent", Tag: "change-request-content", Summary: "Edit the pages and files of a change request in one batch", Status: 200, Request: typeOf[contentBatchBody](), Required: []string{"changes"}, Response: typeOf[ChangeRequest](), Also: typeOf[contentUpdate](), Query: []apidoc.Param{flagParam("compat", "true (the default): answer the change request alone; false: with the pages changed and the files inserted")}},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content", ID: "getRevisionOfChangeRequestById", Tag: "change-request-content", Summary: "Get revision of change request", Status: 200, Response: typeOf[Revision](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files", ID: "listFilesInChangeRequestById", Tag: "change-request-content", Summary: "List files in change request", Status: 200, Response: typeOf[List[RevisionFile]](), Query: contentListParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}", ID: "getFileInChangeRequestById", Tag: "change-request-content", Summary: "Get file in change request", Status: 200, Response: typeOf[RevisionFile](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}", ID: "getReusableContentInChangeRequestById", Tag: "change-request-content", Summary: "Get a reusable content in a change request", Status: 200, Response: typeOf[RevisionReusableContent](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks", ID: "listChangeRequestFileBacklinks", Tag: "change-request-content", Summary: "List the pages of a change request linking to a file", Status: 200, Response: typeOf[List[PageLocation]](), Query: contentListParams},
	{Route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/content/import", ID: "importChangeRequestContent", Tag: "change-request-content", Summary: "Import content into a change request", Status: 201, Request: typeOf[importBody](), Required: []string{"source"}, Response: typeOf[importResult]()},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}", ID: "getPageInChangeRequestById", Tag: "change-request-content", Summary: "Get page in change request", Status: 200, Response: typeOf[RevisionPage](), Query: contentPageParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links", ID: "listChangeRequestPageLinks", Tag: "change-request-content", Summary: "List the links of a page of a change request", Status: 200, Response: typeOf[LinkList](), Query: contentLinkParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/pages", ID: "listPagesInChangeRequest", Tag: "change-request-content", Summary: "List pages in change request", Status: 200, Response: typeOf[pageTree](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/path/*", ID: "getPageInChangeRequestByPath", Tag: "change-request-content", Summary: "Get page in change request by path", Status: 200, Response: typeOf[RevisionPage](), Query: contentPageParams},
	{Route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/merge", ID: "mergeChangeRequest", Tag: "change-requests", Summary: "Merge change request", Status: 200, Response: typeOf[mergeResult]()},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/reviews", ID: "getReviewsByChangeRequestId", Tag: "change-request-reviews", Summary: "Get reviews of a change request", Status: 200, Response: typeOf[List[ChangeRequestReview]](), Query: reviewListParams},
	{Route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/reviews", ID: "submitChangeRequestReview", Tag: "change-request-reviews", Summary: "Submit a review of a change request", Status: 201, Request: typeOf[submitReviewBody](), Required: []string{"status"}, Response: typeOf[ChangeRequestReview]()},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}", ID: "getChangeRequestReviewById", Tag: "change-request-reviews", Summary: "Get a review of a change request", Status: 200, Response: typeOf[ChangeRequestReview](), Query: commentParams},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", ID: "getRequestedReviewersByChangeRequestId", Tag: "change-request-reviews", Summary: "Get the requested reviewers of a change request", Status: 200, Response: typeOf[List[ChangeRequestRequestedReviewer]](), Query: listParams},
	{Route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", ID: "requestReviewersForChangeRequest", Tag: "change-request-reviews", Summary: "Request reviewers (users and teams) for a change request", Status: 200, Request: typeOf[requestReviewersBody](), Required: []string{"users"}, Response: typeOf[requestedReviewers]()},
	{Route: "DELETE /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}", ID: "removeRequestedReviewerFromChangeRequest", Tag: "change-request-reviews", Summary: "Withdraw a requested reviewer (user or team) of a change request", Status: 205, Bodiless: []int{204}},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/contributors", ID: "getContributorsByChangeRequestId", Tag: "change-request-reviews", Summary: "Get the contributors of a change request", Status: 200, Response: typeOf[List[ChangeRequestContributor]]()},
	{Route: "GET /spaces/{spaceId}/change-requests/{changeRequestId}/pdf", ID: "getChangeRequestPDF", Tag: "change-requests", Summary: "Get a signed URL of the change request as a PDF", Status: 200, Response: typeOf[map[string]string](), Query: []apidoc.Param{textParam("page", "Only this page (with its subpages unless only)"), flagParam("only", "Without the subpages of page")}},
	{Route: "POST /spaces/{spaceId}/change-requests/{changeRequestId}/update", ID: "updateChangeRequest", Tag: "change-requests", Summary: "Bring a change request up to date with the main content", Status: 200, Response: typeOf[mergeResult]()},
	{Route: "POST /spaces/{spaceId}/comments", ID: "postCommentInSpace", Tag: "space-comments", Summary: "Post comment in space", Status: 200, Request: typeOf[posted](), Required: []string{"body"}, Response: typeOf[Comment](), Query: commentParams},
	{Route: "GET /spaces/{spaceId}/comments", ID: "listCommentsInSpace", Tag: "space-comments", Summary: "List comments in space", Status: 200, Response: typeOf[List[Comment]](), Query: commentListParams},
	{Route: "DELETE /spaces/{spaceId}/comments/{commentId}", ID: "deleteCommentInSpace", Tag: "space-comments", Summary: "Delete comment in space", Status: 205, Bodiless: []int{204}, Query: commentParams},
	{Route: "GET /spaces/{spaceId}/comments/{commentId}", ID: "getCommentInSpace", Tag: "space-comments", Summary: "Get comment in space", Status: 200, Response: typeOf[Comment](), Query: commentParams},
	{Route: "PUT /spaces/{spaceId}/comments/{commentId}", ID: "updateCommentInSpace", Tag: "space-comments", Summary: "Update comment in space", Status: 200, Request: typeOf[commentEdit](), Response: typeOf[Comment](), Query: commentParams},
	{Route: "GET /spaces/{spaceId}/comments/{commentId}/replies", ID: "listCommentRepliesInSpace", Tag: "space-comment", Summary: "List comment replies in space", Status: 200, Response: typeOf[List[CommentReply]](), Query: replyListParams},
	{Route: "POST /spaces/{spaceId}/comments/{commentId}/replies", ID: "postCommentReplyInSpace", Tag: "space-comments", Summary: "Post comment reply in space", Status: 200, Request: typeOf[posted](), Required: []string{"body"}, Response: typeOf[CommentReply](), Query: commentParams},
	{Route: "GET /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", ID: "getCommentReplyInSpace", Tag: "space-comments", Summary: "Get comment reply in space", Status: 200, Response: typeOf[CommentReply](), Query: commentParams},
	{Route: "PUT /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", ID: "updateCommentReplyInSpace", Tag: "space-comments", Summary: "Update comment reply in space", Status: 200, Request: typeOf[commentEdit](), Response: typeOf[CommentReply](), Query: commentParams},
	{Route: "DELETE /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}", ID: "deleteCommentReplyInSpace", Tag: "space-comments", Summary: "Delete comment reply in space", Status: 205, Bodiless: []int{204}, Query: commentParams},
	{Route: "GET /spaces/{spaceId}/content", ID: "getCurrentRevision", Tag: "space-content", Summary: "Get the current revision of a space", Status: 200, Response: typeOf[Revision](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/content/files", ID: "listFiles", Tag: "space-content", Summary: "List the files of a space", Status: 200, Response: typeOf[List[RevisionFile]](), Query: contentListParams},
	{Route: "GET /spaces/{spaceId}/content/files/{fileId}", ID: "getFileById", Tag: "space-content", Summary: "Get a file of a space", Status: 200, Response: typeOf[RevisionFile](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/content/reusable-contents/{reusableContentId}", ID: "getReusableContentById", Tag: "space-content", Summary: "Get a reusable content of a space", Status: 200, Response: typeOf[RevisionReusableContent](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/content/files/{fileId}/backlinks", ID: "listFileBacklinks", Tag: "space-content", Summary: "List the pages linking to a file", Status: 200, Response: typeOf[List[PageLocation]](), Query: contentListParams},
	{Route: "POST /spaces/{spaceId}/content/import", ID: "importContent", Tag: "space-content", Summary: "Import content (a website, Markdown files, a zip) into a space", Status: 201, Request: typeOf[importBody](), Required: []string{"source"}, Response: typeOf[importResult]()},
	{Route: "GET /spaces/{spaceId}/content/page/{pageId}", ID: "getPageById", Tag: "space-content", Summary: "Get a page of a space", Status: 200, Response: typeOf[RevisionPage](), Query: contentPageParams},
	{Route: "GET /spaces/{spaceId}/content/page/{pageId}/links", ID: "listPageLinks", Tag: "space-content", Summary: "List the links of a page", Status: 200, Response: typeOf[LinkList](), Query: contentLinkParams},
	{Route: "GET /spaces/{spaceId}/content/pages", ID: "listPages", Tag: "space-content", Summary: "List the pages of a space", Status: 200, Response: typeOf[pageTree](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/content/path/*", ID: "getPageByPath", Tag: "space-content", Summary: "Get a page of a space by its path", Status: 200, Response: typeOf[RevisionPage](), Query: contentPageParams},
	{Route: "PATCH /spaces/{spaceId}/custom-fields", ID: "updateSpaceCustomFields", Tag: "custom-fields", Summary: "Set custom field values of a space", Status: 204, Request: typeOf[spaceCustomFieldsBody](), Required: []string{"values"}},
	{Route: "GET /spaces/{spaceId}/custom-fields", ID: "listSpaceCustomFields", Tag: "custom-fields", Summary: "List the custom field values of a space", Status: 200, Response: typeOf[[]CustomFieldValue]()},
	{Route: "POST /spaces/{spaceId}/duplicate", ID: "duplicateSpace", Tag: "spaces", Summary: "Duplicate a space and its content", Status: 201, Response: typeOf[Space]()},
	{Route: "POST /spaces/{spaceId}/git/export", ID: "exportToGitRepository", Tag: "space-git", Summary: "Push space content to a Git repository; not standalone, link the space to it", Status: 204, Request: typeOf[gitRepositoryBody](), Required: []string{"url", "ref", "commitMessage"}},
	{Route: "POST /spaces/{spaceId}/git/import", ID: "importGitRepository", Tag: "space-git", Summary: "Pull a Git repository's branch into a space; not standalone, link the space to it", Status: 204, Request: typeOf[importGitBody](), Required: []string{"url", "ref"}},
	{Route: "GET /spaces/{spaceId}/git/info", ID: "getSpaceGitInfo", Tag: "space-git", Summary: "Get the Git Sync link and last operation of a space", Status: 200, Response: typeOf[gitSyncState]()},
	{Route: "POST /spaces/{spaceId}/git/webhook-secret", ID: "rotateGitSyncWebhookSecret", Tag: "space-git", Summary: "Make a new secret for the push webhook of a space's Git Sync link (Bindery's; shown once)", Status: 200, Response: typeOf[gitWebhook]()},
	{Route: "POST /spaces/{spaceId}/git/webhook", ID: "receiveGitPush", Tag: "space-git", Summary: "A git host's push webhook (Bindery's; no token: GitHub's, Gitea's and Forgejo's X-Hub-Signature-256, GitLab's X-Gitlab-Token); 202 when the sync is queued", Status: 202, Request: typeOf[map[string]any](), Response: typeOf[gitPushAnswer]()},
	{Route: "GET /spaces/{spaceId}/links", ID: "listSpaceLinks", Tag: "space-content", Summary: "List the links of every page of a space", Status: 200, Response: typeOf[LinkList](), Query: linkParams},
	{Route: "POST /spaces/{spaceId}/move", ID: "moveSpace", Tag: "spaces", Summary: "Move space", Status: 200, Request: typeOf[moveBody](), Response: typeOf[Space]()},
	{Route: "POST /spaces/{spaceId}/permissions", ID: "inviteToSpace", Tag: "space-permissions", Summary: "Invite to space", Status: 204, Request: typeOf[grantInviteBody](), Required: []string{"role"}},
	{Route: "GET /spaces/{spaceId}/permissions/aggregate", ID: "listPermissionsAggregateInSpace", Tag: "space-permissions", Summary: "List everyone with access to a space, with their role", Status: 200, Response: typeOf[List[UserPermission]](), Query: accessListParams},
	{Route: "GET /spaces/{spaceId}/permissions/teams", ID: "listTeamPermissionsInSpace", Tag: "space-permissions", Summary: "List team permissions in space", Status: 200, Response: typeOf[List[TeamPermission]](), Query: listParams},
	{Route: "PATCH /spaces/{spaceId}/permissions/teams/{teamId}", ID: "updateTeamPermissionInSpace", Tag: "space-permissions", Summary: "Update team permission in space", Status: 204, Request: typeOf[grantRoleBody]()},
	{Route: "DELETE /spaces/{spaceId}/permissions/teams/{teamId}", ID: "removeTeamFromSpace", Tag: "space-permissions", Summary: "Remove team from space", Status: 204},
	{Route: "GET /spaces/{spaceId}/permissions/users", ID: "listUserPermissionsInSpace", Tag: "space-permissions", Summary: "List user permissions in space", Status: 200, Response: typeOf[List[UserPermission]](), Query: listParams},
	{Route: "DELETE /spaces/{spaceId}/permissions/users/{userId}", ID: "removeUserFromSpace", Tag: "space-permissions", Summary: "Remove user from space", Status: 204},
	{Route: "PATCH /spaces/{spaceId}/permissions/users/{userId}", ID: "updateUserPermissionInSpace", Tag: "space-permissions", Summary: "Update user permission in space", Status: 204, Request: typeOf[grantRoleBody]()},
	{Route: "POST /spaces/{spaceId}/restore", ID: "restoreSpace", Tag: "spaces", Summary: "Restore a deleted space", Status: 200, Response: typeOf[Space]()},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}/changes", ID: "getRevisionSemanticChanges", Tag: "space-content", Summary: "Get semantic content changes introduced by a revision (from its first parent, or from another revision of the space)", Status: 200, Response: typeOf[RevisionSemanticChanges](), Query: []apidoc.Param{textParam("from", "Compare with this revision of the space instead of the first parent"),
		{Name: "limit", Description: "At most this many changes, 1 to 1000 (default 10); `more` counts the rest", Schema: apidoc.Schema{"type": "number"}}}},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}/changes/page/{pageId}/diff", ID: "getRevisionPageDiff", Tag: "space-content", Summary: "The unified diff of a page's Markdown from the revision's first parent (or `from`) to it", Status: 200, Content: "text/x-diff", Query: []apidoc.Param{textParam("from", "Compare with this revision of the space instead of the first parent")}},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}", ID: "getRevisionById", Tag: "space-content", Summary: "Get revision", Status: 200, Response: typeOf[Revision](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}/files", ID: "listFilesInRevisionById", Tag: "space-content", Summary: "List files in revision", Status: 200, Response: typeOf[List[RevisionFile]](), Query: contentListParams},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}/files/{fileId}", ID: "getFileInRevisionById", Tag: "space-content", Summary: "Get file in revision", Status: 200, Response: typeOf[RevisionFile](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document", ID: "getPageDocumentInRevisionById", Tag: "space-content", Summary: "Get the document of a page in a revision", Status: 200, Response: typeOf[jsondoc.Document](), Query: pageDocumentParams},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}", ID: "getReusableContentInRevisionById", Tag: "space-content", Summary: "Get a reusable content in a revision", Status: 200, Response: typeOf[RevisionReusableContent](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document", ID: "getReusableContentDocumentInRevisionById", Tag: "space-content", Summary: "Get the document of a reusable content in a revision", Status: 200, Response: typeOf[jsondoc.Document](), Query: pageDocumentParams},
	{Route: "GET /spaces/{spaceId}/documents/{documentId}", ID: "getDocumentById", Tag: "space-content", Summary: "Get a document of a space by its id (a page's documentId)", Status: 200, Response: typeOf[jsondoc.Document](), Query: documentParams},
	{Route: "POST /spaces/{spaceId}/content/computed/document", ID: "getComputedDocument", Tag: "space-content", Summary: "Compute a document from a computed content source (builtin:openapi operations)", Status: 200, Request: typeOf[computedBody](), Required: []string{"source", "seed"}, Response: typeOf[jsondoc.Document](), Query: documentParams[1:]},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}/page/{pageId}", ID: "getPageInRevisionById", Tag: "space-content", Summary: "Get page in revision", Status: 200, Response: typeOf[RevisionPage](), Query: contentPageParams},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}/pages", ID: "listPagesInRevisionById", Tag: "space-content", Summary: "List pages in revision", Status: 200, Response: typeOf[pageTree](), Query: contentParams},
	{Route: "GET /spaces/{spaceId}/revisions/{revisionId}/path/*", ID: "getPageInRevisionByPath", Tag: "space-content", Summary: "Get page in revision by path", Status: 200, Response: typeOf[RevisionPage](), Query: contentPageParams},
	{Route: "GET /spaces/{spaceId}/search", ID: "searchSpaceContent", Tag: "space-content", Summary: "Search the content of a space", Status: 200, Response: typeOf[List[SearchPageResult]](), Query: listQuery(textParam("query", "The words searched for"))},
	{Route: "POST /spaces/{spaceId}/transfer", ID: "transferSpace", Tag: "spaces", Summary: "Transfer a space to another organization", Status: 200, Request: typeOf[transferBody](), Required: []string{"organization"}, Response: typeOf[Space]()},
	{Route: "GET /user", ID: "getAuthenticatedUser", Tag: "users", Summary: "Get the viewer", Status: 200, Response: typeOf[User]()},
	{Route: "POST /user/tokens", ID: "createAPIToken", Tag: "user-tokens", Summary: "Create a personal API token (its secret is answered once)", Status: 201, Request: typeOf[createAPITokenBody](), Response: typeOf[APIToken]()},
	{Route: "GET /user/tokens", ID: "listAPITokens", Tag: "user-tokens", Summary: "List the viewer's personal API tokens", Status: 200, Response: typeOf[List[APIToken]](), Query: listParams},
	{Route: "DELETE /user/tokens/{tokenId}", ID: "revokeAPIToken", Tag: "user-tokens", Summary: "Revoke a personal API token", Status: 204},
	{Route: "GET /users/{userId}", ID: "getUserById", Tag: "users", Summary: "Get user", Status: 200, Response: typeOf[User]()},
}

// publicOperations are the routes of /v1 answered without a token (registered outside the
// authenticated group of NewRouter).
var publicOperations = map[string]bool{"POST /spaces/{spaceId}/git/webhook": true, "GET /orgs/{organizationId}/sso": true, "POST /orgs/{organizationId}/sites/{siteId}/insights/events": true, "GET /openapi.json": true, "GET /docs": true}

// listParams are the query parameters of a list.
var listParams = []apidoc.Param{
	{Name: "limit", Description: "Items per page, 0..1000 (default 100; 0 answers only the count)", Schema: apidoc.Schema{"type": "integer", "minimum": 0, "maximum": 1000}},
	{Name: "page", Description: "The next.page of the previous page", Schema: apidoc.Schema{"type": "string"}},
}

// The query parameters of the operations that have more than a list's.
var (
	linkParams = listQuery(choiceParam("status", "Only links of this status", "ok", "broken", "in-app"))
	// Every comment route takes format, which changes nothing: bodies are Markdown either way.
	commentParams     = []apidoc.Param{choiceParam("format", "document or markdown: bodies are Markdown either way", "document", "markdown")}
	commentListParams = listQuery(slices.Concat(commentParams, []apidoc.Param{choiceParam("order", "By creation", "asc", "desc"),
		choiceParam("status", "Which comments", "all", "open", "resolved"), textParam("targetPage", "Only the comments of this page"),
		textParam("authors", "Only the comments of these users: ids, comma-separated or the parameter repeated")})...)
	replyListParams = slices.Concat(commentParams, listParams)
	pageParams      = []apidoc.Param{choiceParam("format", "markdown adds the page's whole Markdown, document its body as a JSON document", "document", "markdown")}
	// Every read of content takes a share key, and the reference's two flags: metadata=false
	// leaves the pages' git blobs out; computed changes nothing, Bindery computes no content.
	contentParams = []apidoc.Param{shareKeyParam, flagParam("metadata", "false leaves out the pages' git blobs (Git Sync); true by default"),
		flagParam("computed", "Accepted; Bindery has no computed content to evaluate")}
	contentListParams  = slices.Concat(contentParams, listParams)
	contentPageParams  = slices.Concat(pageParams, contentParams, []apidoc.Param{dereferencedParam})
	contentLinkParams  = slices.Concat(linkParams, contentParams)
	documentParams     = []apidoc.Param{shareKeyParam, choiceParam("schema", "Accepted; Bindery answers one version of the document model", "current", "next")}
	pageDocumentParams = []apidoc.Param{shareKeyParam,
		choiceParam("evaluated", "Evaluates if blocks and expressions as for a reader without claims (true), or only those that read no claim (deterministic-only)", "true", "false", "deterministic-only"),
		dereferencedParam}
	shareKeyParam    = textParam("shareKey", "The key of a share link: opens a share-link space, or a site shared by link, to whoever presents it")
	accessListParams = listQuery(choiceParam("role", "Only people with this role", "admin", "create", "edit", "review", "comment", "read"))
	memberListParams = listQuery(textParam("search", "Only members whose name or email contains this"), choiceParam("order", "asc or desc", "asc", "desc"),
		choiceParam("sort", "What members are ordered by", "joinedAt", "lastSeenAt"), choiceParam("role", "Only members with this role", "admin", "create", "edit", "review", "comment", "read", "guest"))
	changeRequestListParams = listQuery(choiceParam("status", "Only change requests in this status", "draft", "open", "archived", "merged"),
		choiceParam("orderBy", "What change requests are ordered by", "updatedAt", "createdAt"),
		textParam("creator", "Only change requests this user created"), textParam("contributor", "Only change requests this user contributed to"),
		textParam("requestedReviewer", "Only change requests whose review is requested of this user (or of a team of theirs)"),
		choiceParam("reviewStatus", "Only change requests with a current (not outdated) review of this status", "approved", "changes-requested"))
	reviewListParams = listQuery(append(commentParams, flagParam("outdated", "Only the outdated (true) or the current (false) reviews"))...)
	auditListParams  = []apidoc.Param{
		{Name: "limit", Description: "Items per page, 0..100 (default 20; 0 answers only the count)", Schema: apidoc.Schema{"type": "integer", "minimum": 0, "maximum": 100}},
		listParams[1], textParam("actor", "Only the events of this actor (a user's id, or system)"),
		textParam("action", "Only the events of this action (listOrganizationAuditEventActions)"),
		textParam("target", "Only the events about this object (its id)"),
		{Name: "from", Description: "Only the events at or after this time", Schema: apidoc.Schema{"type": "string", "format": "date-time"}},
		{Name: "to", Description: "Only the events at or before this time", Schema: apidoc.Schema{"type": "string", "format": "date-time"}}}
	redirectListParams = listQuery(flagParam("draft", "Only the redirects of the draft (true) or the live site (false)"),
		choiceParam("orderBy", "What redirects are ordered by", "createdAt", "updatedAt", "source"), textParam("search", "Only redirects whose source contains this"))
)

// dereferencedParam is the reference's dereferenced of document reads.
var dereferencedParam = choiceParam("dereferenced", "true or reusable-contents puts the reusable contents the document places in their blocks' stead", "true", "false", "reusable-contents")

// listQuery is the query parameters of a list with params.
func listQuery(params ...apidoc.Param) []apidoc.Param { return append(params, listParams...) }

func textParam(name, description string) apidoc.Param {
	return apidoc.Param{Name: name, Description: description, Schema: apidoc.Schema{"type": "string"}}
}

func flagParam(name, description string) apidoc.Param {
	return apidoc.Param{Name: name, Description: description, Schema: apidoc.Schema{"type": "boolean"}}
}

func choiceParam(name, description string, values ...string) apidoc.Param {
	enum := make([]any, len(values))
	for i, v := range values {
		enum[i] = v
	}
	return apidoc.Param{Name: name, Description: description, Schema: apidoc.Schema{"type": "string", "enum": enum}}
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// documentHead is what the document of the API is said to hold: an OpenAPI document.
type documentHead struct {
	OpenAPI string         `json:"openapi"`
	Info    map[string]any `json:"info"`
	Paths   map[string]any `json:"paths"`
}

// pageTree is the answer of a list of pages, written from its encoded JSON (writePageTree).
type pageTree struct {
	Pages []RevisionPage `json:"pages"`
}

// JSONSchema says what a notNull field accepts: a value, never null.
func (notNull[T]) JSONSchema() apidoc.Schema { return apidoc.RequestSchemaOf(reflect.TypeFor[T]()) }

// JSONSchema says what a nullable field accepts: a value, or null to remove it.
func (nullable[T]) JSONSchema() apidoc.Schema {
	return apidoc.Nullable(apidoc.RequestSchemaOf(reflect.TypeFor[T]()))
}

// V1Routes lists the routes of /v1, as the document of the API describes them.
func V1Routes() ([]apidoc.Route, error) {
	return v1Routes(NewRouter(Config{Resolver: &graph.Resolver{}, GraphQL: http.NotFoundHandler()}).(chi.Routes))
}

// v1Routes lists the routes of r below /v1.
func v1Routes(r chi.Routes) ([]apidoc.Route, error) {
	var routes []apidoc.Route
	err := chi.Walk(r, func(method, pattern string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if p, ok := strings.CutPrefix(pattern, "/v1/"); ok {
			routes = append(routes, apidoc.Route{Method: method, Pattern: "/" + p})
		}
		return nil
	})
	return routes, err
}

// apiDocs serves the document of the API and its page, built from the router's routes the first
// time either is asked for (the router is complete by then).
type apiDocs struct {
	router  chi.Routes
	info    apidoc.Info
	once    sync.Once
	doc     []byte
	page    []byte
	etag    string
	failure error
}

func newAPIDocs(r chi.Routes, a *api) *apiDocs {
	version := a.r.Version
	if version == "" {
		version = "dev"
	}
	return &apiDocs{router: r, info: apidoc.Info{Version: version, ServerURL: a.url("/v1"), Public: publicOperations}}
}

func (d *apiDocs) build() error {
	d.once.Do(func() {
		routes, err := v1Routes(d.router)
		if err == nil {
			d.doc, err = apidoc.Build(routes, operations, d.info)
		}
		if err == nil {
			d.page, err = apidoc.Page(d.doc)
		}
		sum := sha256.Sum256(d.doc)
		d.etag, d.failure = `"`+hex.EncodeToString(sum[:16])+`"`, err
	})
	return d.failure
}

// serveDocument answers GET /v1/openapi.json.
func (d *apiDocs) serveDocument(w http.ResponseWriter, r *http.Request) {
	d.serve(w, r, "application/json", func() []byte { return d.doc })
}

// servePage answers GET /v1/docs: the document as a page, without scripts.
func (d *apiDocs) servePage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	d.serve(w, r, "text/html; charset=utf-8", func() []byte { return d.page })
}

func (d *apiDocs) serve(w http.ResponseWriter, r *http.Request, contentType string, body func() []byte) {
	if err := d.build(); err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("ETag", d.etag)
	w.Header().Set("Cache-Control", "no-cache")
	if r.Header.Get("If-None-Match") == d.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", contentType)
	_, _ = w.Write(body())
}
