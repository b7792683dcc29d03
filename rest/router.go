// Package rest serves the /v1 REST surface (wire-compatible with the reference API) and mounts
// the GraphQL endpoint beside it. Handlers parse, call one resolver, convert, and write; access is
// decided by the resolvers and the ent policies beneath them, never here.
package rest

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/observe"
	"github.com/binderyhq/bindery/internal/readcache"
	"github.com/binderyhq/bindery/rest/playground"
)

// Config wires the router.
type Config struct {
	Resolver            *graph.Resolver
	GraphQL             http.Handler  // POST /graphql
	Authenticate        Authenticator // bearer token → viewer
	AuthenticateSession Authenticator // session cookie → viewer
	MaxBody             int64         // request body limit in bytes
	MaxUploadBody       int64         // request body limit of content uploads (change request content batches)
	RequestTimeout      time.Duration // deadline of one request
	BaseURL             string        // absolute URL of this server, for urls.location
	CORSOrigins         []string      // browser origins allowed to call the API; "*" for any
	// Sites adds the routes of the published sites (package publish), served beside the API
	// with the same middleware and no authentication; nil serves none.
	Sites func(chi.Router)
	// Ready reports whether the server can serve (GET /readyz); nil: always.
	Ready func(context.Context) error
	// Metrics serves GET /metrics; nil serves none (they are on their own listener, or off).
	Metrics http.Handler
	// Dashboard adds the routes of the pages site owners read (package dashboard), signed in.
	Dashboard func(chi.Router)
	// SitesByHost serves published sites at the root of their own hostnames, after the
	// middleware and before routing; nil serves none.
	SitesByHost func(http.Handler) http.Handler
	RateLimit   RateLimit
	// ReadCache keeps the answers of API reads while the database is unchanged; nil keeps none.
	ReadCache *readcache.Cache
}

type api struct {
	r         *graph.Resolver
	baseURL   string
	pageTrees *lru.Cache[string, []byte] // encoded page trees of big revisions (encodedPages)
	origins   trustedOrigins             // pages that may write with a session cookie, and receive people after sign-in
}

func (a *api) url(path string) string { return a.baseURL + path }

// NewRouter returns the HTTP handler of the whole server.
func NewRouter(c Config) http.Handler {
	a := &api{r: c.Resolver, baseURL: strings.TrimRight(c.BaseURL, "/"), pageTrees: newPageTreeCache(),
		origins: newTrustedOrigins(c.BaseURL, c.CORSOrigins)}
	r := chi.NewRouter()
	r.Use(recoverPanics, allowOrigins(c.CORSOrigins), meter(c.RateLimit),
		limitBody(c.MaxBody, max(c.MaxBody, c.MaxUploadBody)), deadline(c.RequestTimeout))
	r.Use(knowReader(c.RateLimit.Proxies))
	if c.SitesByHost != nil {
		r.Use(c.SitesByHost)
	}
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		observe.SetRoute(r.Context(), observe.RouteUnmatched)
		writeError(w, r, apperr.NotFoundf("no endpoint at %s %s", r.Method, truncate(r.URL.Path, 200)))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		observe.SetRoute(r.Context(), observe.RouteUnmatched)
		var body errorBody
		body.Error.Code = http.StatusMethodNotAllowed
		body.Error.Message = r.Method + " is not allowed on " + truncate(r.URL.Path, 200)
		writeJSON(w, body.Error.Code, body)
	})
	healthRoutes(r, c.Ready, c.Metrics)
	r.Get("/graphql", a.graphQLPage(c.GraphQL, c.Authenticate, c.AuthenticateSession, c.Resolver.Client)) // GraphiQL, or the subscriptions' WebSocket
	r.Handle("/graphql/assets/*", playground.Assets("/graphql/assets/"))
	r.Get("/files/{token}", a.downloadFile) // signed URLs: the token is the authority, not a bearer
	r.Get("/pdf/{token}", a.servePDF)
	r.Get("/openapi/{organizationId}/{specSlug}/versions/{versionId}", a.servePublicOpenAPISpec) // public specs: no token
	if c.Sites != nil {
		r.Group(func(r chi.Router) { // readers' pages are reads like the API's (decision 367)
			r.Use(trackReads(c.ReadCache), keptReads(c.ReadCache))
			c.Sites(r)
		})
	}
	r.Route("/sso", a.ssoRoutes)
	r.Handle("/scim/*", a.scimHandler(c.MaxBody))                               // SCIM 2.0: its own token and error format
	r.With(chargeAddress).Get("/v1/orgs/{organizationId}/sso", a.listSSOLogins) // no token: a sign-in page reads it
	// no token: readers' pages send their events, capped by address (internal/insights)
	r.With(chargeAddress).Post("/v1/orgs/{organizationId}/sites/{siteId}/insights/events", a.trackSiteEvents)
	// no token: a git host's push webhook, checked with the link's secret (internal/gitsync)
	r.With(chargeAddress).Post("/v1/spaces/{spaceId}/git/webhook", a.receiveGitPush)
	docs := newAPIDocs(r, a)
	r.Get("/v1/openapi.json", docs.serveDocument) // no token: the description of the API, and its page
	r.Get("/v1/docs", docs.servePage)
	r.Group(func(r chi.Router) {
		r.Use(trackReads(c.ReadCache), authenticate(c.Authenticate, c.AuthenticateSession, c.Resolver.Client, a.origins),
			bodyReader(c.MaxBody, max(c.MaxBody, c.MaxUploadBody)), // limitBody left it to be read once charged
			keptReads(c.ReadCache))
		r.With(refuseOverBudget).Post("/graphql", decodeGraphQL(c.GraphQL).ServeHTTP)
		r.Route("/v1", a.routes)
		if c.Dashboard != nil {
			c.Dashboard(r)
		}
	})
	return r
}

// routes is the route table of /v1: one line per endpoint.
func (a *api) routes(r chi.Router) {
	r.Get("/", a.getInfo)
	r.Get("/user", a.getViewer)
	r.Get("/users/{userId}", a.getUser)
	r.Get("/email-domains/{emailDomain}/orgs", a.organizationsForEmailDomain)

	r.Get("/orgs", a.listOrganizations)
	r.Post("/orgs", a.createOrganization)
	r.Get("/orgs/{organizationId}", a.getOrganization)
	r.Patch("/orgs/{organizationId}", a.updateOrganization)
	r.Post("/orgs/{organizationId}/ping", a.ping)

	r.Get("/orgs/{organizationId}/members", a.listMembers)
	r.Get("/orgs/{organizationId}/members/{userId}", a.getMember)
	r.Patch("/orgs/{organizationId}/members/{userId}", a.updateMember)
	r.Delete("/orgs/{organizationId}/members/{userId}", a.removeMember)
	r.Post("/orgs/{organizationId}/members/{userId}/sso", a.setMemberSSO)
	r.Get("/orgs/{organizationId}/members/{userId}/teams", a.listMemberTeams)
	r.Get("/orgs/{organizationId}/members/{userId}/spaces", a.listMemberSpaces)

	r.Get("/orgs/{organizationId}/teams", a.listTeams)
	r.Put("/orgs/{organizationId}/teams", a.createTeam)
	r.Get("/orgs/{organizationId}/teams/{teamId}", a.getTeam)
	r.Patch("/orgs/{organizationId}/teams/{teamId}", a.updateTeam)
	r.Delete("/orgs/{organizationId}/teams/{teamId}", a.deleteTeam)
	r.Get("/orgs/{organizationId}/teams/{teamId}/members", a.listTeamMembers)
	r.Put("/orgs/{organizationId}/teams/{teamId}/members", a.updateTeamMembers)
	r.Put("/orgs/{organizationId}/teams/{teamId}/members/{userId}", a.setTeamMember)
	r.Delete("/orgs/{organizationId}/teams/{teamId}/members/{userId}", a.removeTeamMember)

	r.Get("/orgs/{organizationId}/link-invites", a.listInvites)
	r.Post("/orgs/{organizationId}/link-invites", a.createInvite)
	r.Get("/orgs/{organizationId}/link-invites/{inviteId}", a.getInvite)
	r.Patch("/orgs/{organizationId}/link-invites/{inviteId}", a.updateInvite)
	r.Delete("/orgs/{organizationId}/link-invites/{inviteId}", a.deleteInvite)
	r.Post("/orgs/{organizationId}/invites/{inviteId}", a.joinWithInvite)

	r.Get("/user/tokens", a.listAPITokens)
	r.Post("/user/tokens", a.createAPIToken)
	r.Delete("/user/tokens/{tokenId}", a.revokeAPIToken)

	r.Get("/orgs/{organizationId}/saml", a.listSAMLProviders)
	r.Post("/orgs/{organizationId}/saml", a.createSAMLProvider)
	r.Get("/orgs/{organizationId}/saml/{samlProviderId}", a.getSAMLProvider)
	r.Patch("/orgs/{organizationId}/saml/{samlProviderId}", a.updateSAMLProvider)
	r.Delete("/orgs/{organizationId}/saml/{samlProviderId}", a.deleteSAMLProvider)
	r.Get("/orgs/{organizationId}/oidc-providers", a.listOIDCProviders)
	r.Post("/orgs/{organizationId}/oidc-providers", a.createOIDCProvider)
	r.Get("/orgs/{organizationId}/oidc-providers/{providerId}", a.getOIDCProvider)
	r.Patch("/orgs/{organizationId}/oidc-providers/{providerId}", a.updateOIDCProvider)
	r.Delete("/orgs/{organizationId}/oidc-providers/{providerId}", a.deleteOIDCProvider)
	r.Get("/orgs/{organizationId}/scim-tokens", a.listSCIMTokens)
	r.Post("/orgs/{organizationId}/scim-tokens", a.createSCIMToken)
	r.Delete("/orgs/{organizationId}/scim-tokens/{tokenId}", a.revokeSCIMToken)

	r.Get("/urls/content", a.getContentByURL)
	r.Get("/urls/published", a.getPublishedContentByURL)
	r.Post("/urls/published", a.resolvePublishedContentByURL)
	r.Get("/custom-hostnames/{hostname}", a.getCustomHostname)
	r.Patch("/custom-hostnames/{hostname}", a.checkCustomHostname)
	r.Delete("/custom-hostnames/{hostname}", a.removeCustomHostname)
	r.Get("/orgs/{organizationId}/audit-events", a.listAuditEvents)
	r.Get("/orgs/{organizationId}/audit-events/{auditEventId}", a.getAuditEvent)
	r.Get("/orgs/{organizationId}/audit-event-actions", a.listAuditEventActions)
	r.Get("/orgs/{organizationId}/webhooks", a.listWebhooks)
	r.Post("/orgs/{organizationId}/webhooks", a.createWebhook)
	r.Get("/orgs/{organizationId}/webhooks/{webhookId}", a.getWebhook)
	r.Patch("/orgs/{organizationId}/webhooks/{webhookId}", a.updateWebhook)
	r.Delete("/orgs/{organizationId}/webhooks/{webhookId}", a.deleteWebhook)
	r.Post("/orgs/{organizationId}/webhooks/{webhookId}/rotate-secret", a.rotateWebhookSecret)
	r.Post("/orgs/{organizationId}/webhooks/{webhookId}/test", a.testWebhook)
	r.Get("/orgs/{organizationId}/webhooks/{webhookId}/deliveries", a.listWebhookDeliveries)
	r.Post("/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", a.redeliverWebhookDelivery)
	r.Get("/orgs/{organizationId}/translations", a.listTranslationSettings)
	r.Post("/orgs/{organizationId}/translations", a.createTranslationSettings)
	r.Get("/orgs/{organizationId}/translations/{translationSettingsId}", a.getTranslationSettings)
	r.Put("/orgs/{organizationId}/translations/{translationSettingsId}", a.updateTranslationSettings)
	r.Delete("/orgs/{organizationId}/translations/{translationSettingsId}", a.deleteTranslationSettings)

	r.Get("/orgs/{organizationId}/sites", a.listSites)
	r.Post("/orgs/{organizationId}/sites", a.createSite)
	r.Get("/orgs/{organizationId}/sites/{siteId}", a.getSite)
	r.Patch("/orgs/{organizationId}/sites/{siteId}", a.updateSite)
	r.Delete("/orgs/{organizationId}/sites/{siteId}", a.deleteSite)
	r.Post("/orgs/{organizationId}/sites/{siteId}/publish", a.publishSite)
	r.Post("/orgs/{organizationId}/sites/{siteId}/insights/events/aggregate", a.aggregateSiteEvents)
	r.Get("/orgs/{organizationId}/sites/{siteId}/insights/visitor-segments", a.listSiteVisitorSegments)
	r.Post("/orgs/{organizationId}/sites/{siteId}/unpublish", a.unpublishSite)
	r.Get("/orgs/{organizationId}/sites/{siteId}/site-spaces", a.listSiteSpaces)
	r.Post("/orgs/{organizationId}/sites/{siteId}/site-spaces", a.addSiteSpace)
	r.Patch("/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", a.updateSiteSpace)
	r.Delete("/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", a.deleteSiteSpace)
	r.Post("/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", a.moveSiteSpace)
	a.siteSharingRoutes(r)
	a.siteRedirectRoutes(r)
	r.Get("/orgs/{organizationId}/sites/{siteId}/structure", a.getSiteStructure)
	r.Get("/orgs/{organizationId}/sites/{siteId}/published", a.getPublishedContentSite)
	r.Get("/orgs/{organizationId}/sites/{siteId}/sections", a.listSiteSections)
	r.Post("/orgs/{organizationId}/sites/{siteId}/sections", a.addSectionToSite)
	r.Patch("/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", a.updateSiteSection)
	r.Delete("/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", a.deleteSiteSection)
	r.Post("/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", a.moveSiteSection)
	r.Get("/orgs/{organizationId}/sites/{siteId}/section-groups", a.listSiteSectionGroups)
	r.Post("/orgs/{organizationId}/sites/{siteId}/section-groups", a.addSectionGroupToSite)
	r.Patch("/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", a.updateSiteSectionGroup)
	r.Delete("/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", a.deleteSiteSectionGroup)
	r.Post("/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", a.addSectionToGroup)
	r.Delete("/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", a.removeSectionFromGroup)
	r.Post("/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move", a.moveSiteSectionGroup)
	r.Get("/orgs/{organizationId}/custom-fields", a.listCustomFields)
	r.Post("/orgs/{organizationId}/custom-fields", a.createCustomField)
	r.Get("/orgs/{organizationId}/custom-fields/{fieldName}", a.getCustomField)
	r.Patch("/orgs/{organizationId}/custom-fields/{fieldName}", a.updateCustomField)
	r.Delete("/orgs/{organizationId}/custom-fields/{fieldName}", a.deleteCustomField)

	r.Get("/orgs/{organizationId}/openapi", a.listOpenAPISpecs)
	r.Post("/orgs/{organizationId}/openapi", a.createOpenAPISpec)
	r.Get("/orgs/{organizationId}/openapi/{specSlug}", a.getOpenAPISpec)
	r.Put("/orgs/{organizationId}/openapi/{specSlug}", a.putOpenAPISpec)
	r.Patch("/orgs/{organizationId}/openapi/{specSlug}", a.updateOpenAPISpec)
	r.Delete("/orgs/{organizationId}/openapi/{specSlug}", a.deleteOpenAPISpec)
	r.Get("/orgs/{organizationId}/openapi/{specSlug}/versions", a.listOpenAPISpecVersions)
	r.Get("/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}", a.getOpenAPISpecVersion) // {versionId} may be "latest"
	r.Get("/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content", a.getOpenAPISpecContent)
	r.Get("/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content/raw", a.getOpenAPISpecRawContent)

	r.Get("/orgs/{organizationId}/collections", a.listCollections)
	r.Post("/orgs/{organizationId}/collections", a.createCollection)
	r.Get("/collections/{collectionId}", a.getCollection)
	r.Patch("/collections/{collectionId}", a.updateCollection)
	r.Delete("/collections/{collectionId}", a.deleteCollection)
	r.Get("/collections/{collectionId}/spaces", a.listCollectionSpaces)
	r.Post("/collections/{collectionId}/move", a.moveCollection)
	r.Post("/collections/{collectionId}/transfer", a.transferCollection)

	r.Get("/orgs/{organizationId}/spaces", a.listSpaces)
	r.Post("/orgs/{organizationId}/spaces", a.createSpace)
	r.Get("/spaces/{spaceId}", a.getSpace)
	r.Patch("/spaces/{spaceId}", a.updateSpace)
	r.Delete("/spaces/{spaceId}", a.deleteSpace)
	r.Post("/spaces/{spaceId}/restore", a.restoreSpace)
	r.Post("/spaces/{spaceId}/duplicate", a.duplicateSpace)
	r.Post("/spaces/{spaceId}/move", a.moveSpace)
	r.Post("/spaces/{spaceId}/transfer", a.transferSpace)

	a.grantRoutes(r, "/spaces/{spaceId}", a.spaceGrants())
	a.grantRoutes(r, "/collections/{collectionId}", a.collectionGrants())
	r.Get("/spaces/{spaceId}/custom-fields", a.listSpaceCustomFields)
	r.Patch("/spaces/{spaceId}/custom-fields", a.updateSpaceCustomFields)
	r.Get("/spaces/{spaceId}/search", a.searchSpace)
	r.Get("/orgs/{organizationId}/search", a.searchOrganization)

	a.contentRoutes(r, "/spaces/{spaceId}/content", a.spaceContent)
	a.contentRoutes(r, "/spaces/{spaceId}/change-requests/{changeRequestId}/content", a.changeRequestContent)
	a.contentRoutes(r, "/spaces/{spaceId}/revisions/{revisionId}", a.revisionContent)
	r.Get("/spaces/{spaceId}/revisions/{revisionId}/changes", a.getRevisionSemanticChanges)
	r.Get("/spaces/{spaceId}/revisions/{revisionId}/changes/page/{pageId}/diff", a.getRevisionPageDiff)
	r.Get("/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document", a.getPageDocument)
	r.Get("/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document", a.getReusableContentDocument)
	r.Get("/spaces/{spaceId}/documents/{documentId}", a.getDocument)
	r.Post("/spaces/{spaceId}/content/computed/document", a.getComputedDocument)
	r.Post("/spaces/{spaceId}/content/import", a.importContent)
	r.Post("/spaces/{spaceId}/git/export", a.exportToGitRepository)
	r.Post("/spaces/{spaceId}/git/import", a.importGitRepository)
	r.Get("/spaces/{spaceId}/git/info", a.getSpaceGitInfo)
	r.Post("/spaces/{spaceId}/git/webhook-secret", a.rotateGitSyncWebhookSecret)
	r.Post("/spaces/{spaceId}/change-requests/{changeRequestId}/content/import", a.importChangeRequestContent)
	r.Get("/spaces/{spaceId}/links", a.listSpaceLinks)
	a.linkRoutes(r, "/spaces/{spaceId}/content", a.spaceContent)
	a.linkRoutes(r, "/spaces/{spaceId}/change-requests/{changeRequestId}/content", a.changeRequestContent)

	r.Get("/spaces/{spaceId}/change-requests", a.listChangeRequests)
	r.Post("/spaces/{spaceId}/change-requests", a.createChangeRequest)
	r.Get("/spaces/{spaceId}/change-requests/{changeRequestId}", a.getChangeRequest)
	r.Patch("/spaces/{spaceId}/change-requests/{changeRequestId}", a.updateChangeRequest)

	r.Post("/spaces/{spaceId}/change-requests/{changeRequestId}/content", a.postChangeRequestContent)
	r.Post("/spaces/{spaceId}/change-requests/{changeRequestId}/merge", a.mergeChangeRequest)
	r.Get("/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", a.listReviews)
	r.Post("/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", a.submitReview)
	r.Get("/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}", a.getReview)
	r.Get("/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", a.listRequestedReviewers)
	r.Post("/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", a.requestReviewers)
	r.Delete("/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}", a.removeRequestedReviewer)
	r.Get("/spaces/{spaceId}/change-requests/{changeRequestId}/contributors", a.listContributors)
	r.Post("/spaces/{spaceId}/change-requests/{changeRequestId}/update", a.updateChangeRequestFromMain)
	r.Get("/spaces/{spaceId}/change-requests/{changeRequestId}/pdf", a.changeRequestPDF)

	a.commentRoutes(r, "/spaces/{spaceId}/comments")
	a.commentRoutes(r, "/spaces/{spaceId}/change-requests/{changeRequestId}/comments")
}

// ssoRoutes are the browser endpoints of SAML sign-in (no token: the provider and the browser
// call them), and sign-out.
func (a *api) ssoRoutes(r chi.Router) {
	r.Get("/saml/{providerId}/start", a.startSSO)
	r.Post("/saml/{providerId}/acs", a.consumeSSO)
	r.Get("/saml/{providerId}/metadata", a.ssoMetadata)
	r.Get("/oidc/{providerId}/login", a.startOIDC)
	r.Get("/oidc/{providerId}/callback", a.finishOIDC)
	r.Post("/logout", a.logout)
}

// missing is the error of a required body field that is absent.
func missing(field string) error { return apperr.Invalidf("%s: is required", field) }
