package rest_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	entsql "entgo.io/ent/dialect/sql"
	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/testkit/ssotest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
	"github.com/binderyhq/bindery/rest"
)

// authEndpoint is one route of rest/router.go with a real path and a valid body.
type authEndpoint struct {
	method, pattern, path string
	body                  any
	scoped                bool // organization-scoped: an outsider must get 404
}

func (ep authEndpoint) String() string { return ep.method + " " + ep.pattern }

// authFixture is an organization with a member, a team and an invite link, and an outsider (the
// admin of another organization) who holds an invite link of their own organization.
type authFixture struct {
	e                           *testenv.Env
	admin, reader, outsider     testenv.Actor
	org, otherOrg, team, invite string
	foreignInvite               string
	collection                  string
	spaceRevision               string // the space's active revision (empty: no pages or files)
	space                       string
	changeRequest               string // number 1 of space
	comment, reply              string // a comment on the space's content, and a reply to it
	crComment, crReply          string // a comment on change request 1, and a reply to it
	site                        string // a site showing space
	section, sectionGroup       string // a section of site (holding space), and a group holding it
	siteSpace, shareLink        string // the site space of space on site, and a share link of the site
	redirect                    string // a redirect of site, from /kept
	spec                        string // the slug of an OpenAPI spec given as text
	saml, translation           string // a SAML provider and translation settings of the organization
	webhook, delivery           string // a webhook of the organization, and its test delivery
	oidc                        string // an OpenID Connect provider of the organization
	scimToken                   string // the id of a SCIM token of the organization
	auditEvent                  string // an entry of the organization's audit log
}

func newAuthFixture(t *testing.T) *authFixture {
	t.Helper()
	e := testenv.New(t)
	f := &authFixture{e: e}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.reader = e.User("rob@example.com", f.org, testenv.Role(viewer.RoleRead))
	f.outsider, f.otherOrg = e.Bootstrap("zed@zeta.io", "Zeta")
	f.team = authCreated(t, e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/teams", map[string]any{"title": "Core", "members": []string{f.reader.UserID}}))
	f.invite = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/link-invites", map[string]any{"role": "edit"}))
	f.foreignInvite = authCreated(t, e.Do(f.outsider, "POST", "/v1/orgs/"+f.otherOrg+"/link-invites", map[string]any{"role": "admin"}))
	authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/custom-fields", map[string]any{"name": "cf", "type": "text"}))
	f.collection = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/collections", map[string]any{"title": "Guides"}))
	f.space = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/spaces", map[string]any{"title": "Docs"}))
	f.spaceRevision = e.Do(f.admin, "GET", "/v1/spaces/"+f.space, nil).Map(t)["revision"].(string)
	f.changeRequest = authCreated(t, e.Do(f.admin, "POST", "/v1/spaces/"+f.space+"/change-requests", map[string]any{"subject": "Draft"}))
	f.comment, f.reply = authDiscussion(t, e, f.admin, "/v1/spaces/"+f.space+"/comments")
	f.crComment, f.crReply = authDiscussion(t, e, f.admin, "/v1/spaces/"+f.space+"/change-requests/1/comments")
	f.site = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites", map[string]any{"title": "Docs site", "spaces": []string{f.space}}))
	var siteSpaces struct{ Items []struct{ ID string } }
	e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/sites/"+f.site+"/site-spaces", nil).JSON(t, &siteSpaces)
	f.siteSpace = siteSpaces.Items[0].ID
	e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/sites/"+f.site+"/adaptive-schema", map[string]any{"jsonSchema": map[string]any{
		"type": "object", "properties": map[string]any{"beta": map[string]any{"type": "boolean", "description": "d"}}, "additionalProperties": false}})
	f.shareLink = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites/"+f.site+"/share-links", map[string]any{"name": "Kept"}))
	site := "/v1/orgs/" + f.org + "/sites/" + f.site
	e.Do(f.admin, "PATCH", site, map[string]any{"hostname": authHostname})
	f.section = authCreated(t, e.Do(f.admin, "POST", site+"/sections", map[string]any{"spaceId": f.space}))
	f.redirect = authCreated(t, e.Do(f.admin, "POST", site+"/redirects", map[string]any{"source": "/kept", "destination": authRedirectTo}))
	f.sectionGroup = authCreated(t, e.Do(f.admin, "POST", site+"/section-groups", map[string]any{"title": "Group", "sections": []string{f.section}}))
	f.spec = "petstore"
	authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/openapi", map[string]any{"slug": f.spec, "source": authSpecSource}))
	e.RunDueJobs()
	idp := ssotest.NewKeyPair(t, time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	f.saml = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/saml", map[string]any{"label": "Okta",
		"entityID": "https://idp.example.com", "ssoURL": "https://idp.example.com/sso", "certificate": idp.CertPEM, "defaultTeam": f.team}))
	f.translation = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/translations", map[string]any{"title": "French", "languages": []string{"fr"}}))
	f.webhook = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/webhooks", map[string]any{"url": "https://hooks.example.invalid/docs"}))
	f.delivery = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/webhooks/"+f.webhook+"/test", nil))
	f.oidc = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/oidc-providers", map[string]any{"label": "Keycloak",
		"issuer": "https://id.example.com/realms/acme", "clientId": "bindery", "clientSecret": "s3cret"}))
	f.scimToken = authCreated(t, e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/scim-tokens", nil))
	var audit struct{ Items []struct{ ID string } }
	e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/audit-events", nil).JSON(t, &audit)
	f.auditEvent = audit.Items[0].ID
	return f
}

// appURL is the absolute URL of path on the fixture's server (path alone without one).
func (f *authFixture) appURL(path string) string {
	if f.e == nil {
		return path
	}
	return f.e.Server.URL + path
}

// authHostname is the custom hostname of the fixture's site.
const authHostname = "docs.acme.test"

// authCreated returns the id of a created object.
func authCreated(t *testing.T, r testenv.Response) string {
	t.Helper()
	if r.Status != http.StatusCreated && r.Status != http.StatusOK {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	id, _ := r.Map(t)["id"].(string)
	if id == "" {
		t.Fatalf("no id in %s", r.Body)
	}
	return id
}

// endpoints lists every REST endpoint with real ids. The join endpoint names the outsider's own
// invite: holding an invite of this organization would be a legitimate way in.
func (f *authFixture) endpoints() []authEndpoint {
	o := "/v1/orgs/" + f.org
	m := o + "/members/" + f.reader.UserID
	tm := o + "/teams/" + f.team
	inv := o + "/link-invites/" + f.invite
	st := o + "/sites/" + f.site
	sec, grp := st+"/sections/"+f.section, st+"/section-groups/"+f.sectionGroup
	sts := st + "/site-spaces/" + f.siteSpace
	spec := o + "/openapi/" + f.spec
	eps := []authEndpoint{
		{"GET", "/v1/", "/v1/", nil, false},
		{"GET", "/v1/user", "/v1/user", nil, false},
		{"GET", "/v1/users/{userId}", "/v1/users/" + f.reader.UserID, nil, true},
		{"GET", "/v1/email-domains/{emailDomain}/orgs", "/v1/email-domains/example.com/orgs", nil, false},
		{"GET", "/v1/orgs", "/v1/orgs", nil, false},
		{"POST", "/v1/orgs", "/v1/orgs", map[string]any{"title": "New org"}, false},
		{"GET", "/v1/orgs/{organizationId}", o, nil, true},
		{"PATCH", "/v1/orgs/{organizationId}", o, map[string]any{"title": "Hacked", "hostname": "hacked"}, true},
		{"POST", "/v1/orgs/{organizationId}/ping", o + "/ping", nil, true},
		{"GET", "/v1/orgs/{organizationId}/members", o + "/members", nil, true},
		{"GET", "/v1/orgs/{organizationId}/members/{userId}", m, nil, true},
		{"PATCH", "/v1/orgs/{organizationId}/members/{userId}", m, map[string]any{"role": "admin"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/members/{userId}", m, nil, true},
		{"POST", "/v1/orgs/{organizationId}/members/{userId}/sso", m + "/sso", nil, true},
		{"GET", "/v1/orgs/{organizationId}/members/{userId}/teams", m + "/teams", nil, true},
		{"GET", "/v1/orgs/{organizationId}/members/{userId}/spaces", m + "/spaces", nil, true},
		{"GET", "/v1/orgs/{organizationId}/teams", o + "/teams", nil, true},
		{"PUT", "/v1/orgs/{organizationId}/teams", o + "/teams", map[string]any{"title": "Evil"}, true},
		{"GET", "/v1/orgs/{organizationId}/teams/{teamId}", tm, nil, true},
		{"PATCH", "/v1/orgs/{organizationId}/teams/{teamId}", tm, map[string]any{"title": "Evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/teams/{teamId}", tm, nil, true},
		{"GET", "/v1/orgs/{organizationId}/teams/{teamId}/members", tm + "/members", nil, true},
		{"PUT", "/v1/orgs/{organizationId}/teams/{teamId}/members", tm + "/members",
			map[string]any{"add": []string{f.outsider.UserID}, "remove": []string{f.reader.UserID}}, true},
		{"PUT", "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", tm + "/members/" + f.reader.UserID,
			map[string]any{"role": "owner"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", tm + "/members/" + f.reader.UserID, nil, true},
		{"GET", "/v1/orgs/{organizationId}/link-invites", o + "/link-invites", nil, true},
		{"POST", "/v1/orgs/{organizationId}/link-invites", o + "/link-invites", map[string]any{"role": "admin"}, true},
		{"GET", "/v1/orgs/{organizationId}/link-invites/{inviteId}", inv, nil, true},
		{"PATCH", "/v1/orgs/{organizationId}/link-invites/{inviteId}", inv, map[string]any{"role": "admin"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/link-invites/{inviteId}", inv, nil, true},
		{"POST", "/v1/orgs/{organizationId}/invites/{inviteId}", o + "/invites/" + f.foreignInvite, nil, true},
		{"GET", "/v1/user/tokens", "/v1/user/tokens", nil, false},
		{"POST", "/v1/user/tokens", "/v1/user/tokens", map[string]any{"label": "x"}, false},
		{"DELETE", "/v1/user/tokens/{tokenId}", "/v1/user/tokens/x", nil, false},
		{"GET", "/v1/orgs/{organizationId}/oidc-providers", o + "/oidc-providers", nil, true},
		{"POST", "/v1/orgs/{organizationId}/oidc-providers", o + "/oidc-providers", map[string]any{"label": "Evil",
			"issuer": "https://evil.example.com", "clientId": "evil", "clientSecret": "evil"}, true},
		{"GET", "/v1/orgs/{organizationId}/oidc-providers/{providerId}", o + "/oidc-providers/" + f.oidc, nil, true},
		{"PATCH", "/v1/orgs/{organizationId}/oidc-providers/{providerId}", o + "/oidc-providers/" + f.oidc, map[string]any{"label": "Evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/oidc-providers/{providerId}", o + "/oidc-providers/" + f.oidc, nil, true},
		{"GET", "/v1/orgs/{organizationId}/scim-tokens", o + "/scim-tokens", nil, true},
		{"POST", "/v1/orgs/{organizationId}/scim-tokens", o + "/scim-tokens", nil, true},
		{"DELETE", "/v1/orgs/{organizationId}/scim-tokens/{tokenId}", o + "/scim-tokens/" + f.scimToken, nil, true},
		{"GET", "/v1/orgs/{organizationId}/saml", o + "/saml", nil, true},
		{"POST", "/v1/orgs/{organizationId}/saml", o + "/saml", map[string]any{"label": "Evil"}, true},
		{"GET", "/v1/orgs/{organizationId}/saml/{samlProviderId}", o + "/saml/" + f.saml, nil, true},
		{"PATCH", "/v1/orgs/{organizationId}/saml/{samlProviderId}", o + "/saml/" + f.saml, map[string]any{"label": "Evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/saml/{samlProviderId}", o + "/saml/" + f.saml, nil, true},
		{"GET", "/v1/orgs/{organizationId}/sso", o + "/sso", nil, false},
		{"GET", "/v1/openapi.json", "/v1/openapi.json", nil, false},
		{"GET", "/v1/docs", "/v1/docs", nil, false},
		{"GET", "/v1/orgs/{organizationId}/translations", o + "/translations", nil, true},
		{"POST", "/v1/orgs/{organizationId}/translations", o + "/translations", map[string]any{"title": "Evil"}, true},
		{"GET", "/v1/orgs/{organizationId}/translations/{translationSettingsId}", o + "/translations/" + f.translation, nil, true},
		{"PUT", "/v1/orgs/{organizationId}/translations/{translationSettingsId}", o + "/translations/" + f.translation, map[string]any{"title": "Evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/translations/{translationSettingsId}", o + "/translations/" + f.translation, nil, true},
		{"GET", "/v1/urls/content", "/v1/urls/content?url=" + url.QueryEscape(f.appURL("/o/"+f.org+"/s/"+f.space)), nil, true},
		// A published URL answers what its reader sees, whoever asks: not organization-scoped.
		{"GET", "/v1/urls/published", "/v1/urls/published?url=" + url.QueryEscape(f.appURL("/sites/none")), nil, false},
		{"POST", "/v1/urls/published", "/v1/urls/published", map[string]any{"url": f.appURL("/sites/none")}, false},
		{"GET", "/v1/custom-hostnames/{hostname}", "/v1/custom-hostnames/" + authHostname, nil, true},
		{"PATCH", "/v1/custom-hostnames/{hostname}", "/v1/custom-hostnames/" + authHostname, nil, true},
		// Another organization's hostname is as one no site has: 204, nothing removed.
		{"DELETE", "/v1/custom-hostnames/{hostname}", "/v1/custom-hostnames/" + authHostname, nil, false},
		{"GET", "/v1/orgs/{organizationId}/audit-events", o + "/audit-events", nil, true},
		{"GET", "/v1/orgs/{organizationId}/audit-events/{auditEventId}", o + "/audit-events/" + f.auditEvent, nil, true},
		{"GET", "/v1/orgs/{organizationId}/audit-event-actions", o + "/audit-event-actions", nil, true},
		{"GET", "/v1/orgs/{organizationId}/webhooks", o + "/webhooks", nil, true},
		{"POST", "/v1/orgs/{organizationId}/webhooks", o + "/webhooks", map[string]any{"url": "https://evil.example.com/"}, true},
		{"GET", "/v1/orgs/{organizationId}/webhooks/{webhookId}", o + "/webhooks/" + f.webhook, nil, true},
		{"PATCH", "/v1/orgs/{organizationId}/webhooks/{webhookId}", o + "/webhooks/" + f.webhook, map[string]any{"url": "https://evil.example.com/"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/webhooks/{webhookId}", o + "/webhooks/" + f.webhook, nil, true},
		{"POST", "/v1/orgs/{organizationId}/webhooks/{webhookId}/rotate-secret", o + "/webhooks/" + f.webhook + "/rotate-secret", nil, true},
		{"POST", "/v1/orgs/{organizationId}/webhooks/{webhookId}/test", o + "/webhooks/" + f.webhook + "/test", nil, true},
		{"GET", "/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries", o + "/webhooks/" + f.webhook + "/deliveries", nil, true},
		{"POST", "/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", o + "/webhooks/" + f.webhook + "/deliveries/" + f.delivery + "/redeliver", nil, true},
		{"GET", "/v1/orgs/{organizationId}/sites", o + "/sites", nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites", o + "/sites", map[string]any{"title": "Evil", "spaces": []string{f.space}}, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}", o + "/sites/" + f.site, nil, true},
		{"PATCH", "/v1/orgs/{organizationId}/sites/{siteId}", st, map[string]any{"title": "Evil", "basename": "evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/sites/{siteId}", st, nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/publish", st + "/publish", nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/insights/events", st + "/insights/events", map[string]any{"events": []any{}}, false},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/insights/events/aggregate", st + "/insights/events/aggregate", map[string]any{"range": "last7Days"}, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/insights/visitor-segments", st + "/insights/visitor-segments", nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/unpublish", st + "/unpublish", nil, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces", st + "/site-spaces", nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces", st + "/site-spaces", map[string]any{"spaceId": nil}, true},
		{"PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", sts, map[string]any{"path": "evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", sts, nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", sts + "/move", map[string]any{}, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/share-links", st + "/share-links", nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/share-links", st + "/share-links", map[string]any{"name": "Evil"}, true},
		{"PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", st + "/share-links/" + f.shareLink,
			map[string]any{"active": false}, true},
		{"DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", st + "/share-links/" + f.shareLink, nil, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/redirects", st + "/redirects", nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/redirects", st + "/redirects",
			map[string]any{"source": "/evil", "destination": authRedirectTo}, true},
		{"PUT", "/v1/orgs/{organizationId}/sites/{siteId}/redirects", st + "/redirects",
			map[string]any{"redirects": []any{map[string]any{"source": "/kept", "destination": nil}}}, true},
		{"PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", st + "/redirects/" + f.redirect,
			map[string]any{"source": "/evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}", st + "/redirects/" + f.redirect, nil, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/redirect", st + "/redirect?source=/kept", nil, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth", st + "/publishing/auth", nil, true},
		{"PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth", st + "/publishing/auth",
			map[string]any{"fallbackURL": "https://evil.example.com"}, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate", st + "/publishing/auth/regenerate", nil, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema", st + "/adaptive-schema", nil, true},
		{"PUT", "/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema", st + "/adaptive-schema",
			map[string]any{"jsonSchema": map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false}}, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/customization", st + "/customization", nil, true},
		{"PUT", "/v1/orgs/{organizationId}/sites/{siteId}/customization", st + "/customization", map[string]any{"title": "Evil"}, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", sts + "/customization", nil, true},
		{"PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", sts + "/customization",
			map[string]any{"title": "Evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", sts + "/customization", nil, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/structure", st + "/structure", nil, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/published", st + "/published", nil, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/sections", st + "/sections", nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/sections", st + "/sections", map[string]any{"spaceId": f.space, "title": "Evil"}, true},
		{"PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", sec, map[string]any{"title": "Evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", sec, nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", sec + "/move", nil, true},
		{"GET", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups", st + "/section-groups", nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups", st + "/section-groups", map[string]any{"title": "Evil"}, true},
		{"PATCH", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", grp, map[string]any{"title": "Evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", grp, nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", grp + "/sections", map[string]any{"sectionId": f.section}, true},
		{"DELETE", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", grp + "/sections/" + f.section, nil, true},
		{"POST", "/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move", grp + "/move", nil, true},
		{"GET", "/v1/orgs/{organizationId}/openapi", o + "/openapi", nil, true},
		{"POST", "/v1/orgs/{organizationId}/openapi", o + "/openapi", map[string]any{"slug": "evil", "source": authSpecSource}, true},
		{"GET", "/v1/orgs/{organizationId}/openapi/{specSlug}", spec, nil, true},
		{"PUT", "/v1/orgs/{organizationId}/openapi/{specSlug}", spec, map[string]any{"source": authSpecSource}, true},
		{"PATCH", "/v1/orgs/{organizationId}/openapi/{specSlug}", spec, map[string]any{"visibility": "public"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/openapi/{specSlug}", spec, nil, true},
		{"GET", "/v1/orgs/{organizationId}/openapi/{specSlug}/versions", spec + "/versions", nil, true},
		{"GET", "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}", spec + "/versions/latest", nil, true},
		{"GET", "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content", spec + "/versions/latest/content", nil, true},
		{"GET", "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content/raw", spec + "/versions/latest/content/raw", nil, true},
		{"GET", "/v1/orgs/{organizationId}/custom-fields", o + "/custom-fields", nil, true},
		{"POST", "/v1/orgs/{organizationId}/custom-fields", o + "/custom-fields", map[string]any{"name": "evil", "type": "text"}, true},
		{"GET", "/v1/orgs/{organizationId}/custom-fields/{fieldName}", o + "/custom-fields/cf", nil, true},
		{"PATCH", "/v1/orgs/{organizationId}/custom-fields/{fieldName}", o + "/custom-fields/cf", map[string]any{"title": "Evil"}, true},
		{"DELETE", "/v1/orgs/{organizationId}/custom-fields/{fieldName}", o + "/custom-fields/cf", nil, true},
		{"GET", "/v1/orgs/{organizationId}/collections", o + "/collections", nil, true},
		{"POST", "/v1/orgs/{organizationId}/collections", o + "/collections", map[string]any{"title": "Evil"}, true},
		{"GET", "/v1/collections/{collectionId}", "/v1/collections/" + f.collection, nil, true},
		{"PATCH", "/v1/collections/{collectionId}", "/v1/collections/" + f.collection, map[string]any{"title": "Evil"}, true},
		{"DELETE", "/v1/collections/{collectionId}", "/v1/collections/" + f.collection, nil, true},
		{"GET", "/v1/collections/{collectionId}/spaces", "/v1/collections/" + f.collection + "/spaces", nil, true},
		{"POST", "/v1/collections/{collectionId}/move", "/v1/collections/" + f.collection + "/move", map[string]any{"parent": nil}, true},
		{"POST", "/v1/collections/{collectionId}/transfer", "/v1/collections/" + f.collection + "/transfer", map[string]any{"organization": f.otherOrg}, true},
		{"GET", "/v1/orgs/{organizationId}/spaces", o + "/spaces", nil, true},
		{"POST", "/v1/orgs/{organizationId}/spaces", o + "/spaces", map[string]any{"title": "Evil"}, true},
		{"GET", "/v1/spaces/{spaceId}", "/v1/spaces/" + f.space, nil, true},
		{"GET", "/v1/spaces/{spaceId}/git/info", "/v1/spaces/" + f.space + "/git/info", nil, true},
		{"POST", "/v1/spaces/{spaceId}/git/webhook-secret", "/v1/spaces/" + f.space + "/git/webhook-secret", nil, true},
		{"POST", "/v1/spaces/{spaceId}/git/webhook", "/v1/spaces/" + f.space + "/git/webhook", map[string]any{"ref": "refs/heads/main"}, true},
		{"POST", "/v1/spaces/{spaceId}/git/export", "/v1/spaces/" + f.space + "/git/export",
			map[string]any{"url": "https://evil.example.com/docs.git", "ref": "refs/heads/main", "commitMessage": "Evil"}, true},
		{"POST", "/v1/spaces/{spaceId}/git/import", "/v1/spaces/" + f.space + "/git/import",
			map[string]any{"url": "https://evil.example.com/docs.git", "ref": "refs/heads/main"}, true},
		{"PATCH", "/v1/spaces/{spaceId}", "/v1/spaces/" + f.space, map[string]any{"title": "Evil"}, true},
		{"DELETE", "/v1/spaces/{spaceId}", "/v1/spaces/" + f.space, nil, true},
		{"POST", "/v1/spaces/{spaceId}/restore", "/v1/spaces/" + f.space + "/restore", nil, true},
		{"POST", "/v1/spaces/{spaceId}/duplicate", "/v1/spaces/" + f.space + "/duplicate", nil, true},
		{"POST", "/v1/spaces/{spaceId}/move", "/v1/spaces/" + f.space + "/move", map[string]any{"parent": nil}, true},
		{"POST", "/v1/spaces/{spaceId}/transfer", "/v1/spaces/" + f.space + "/transfer", map[string]any{"organization": f.otherOrg}, true},
		{"GET", "/v1/spaces/{spaceId}/content", "/v1/spaces/" + f.space + "/content", nil, true},
		{"GET", "/v1/spaces/{spaceId}/content/pages", "/v1/spaces/" + f.space + "/content/pages", nil, true},
		{"GET", "/v1/spaces/{spaceId}/content/page/{pageId}", "/v1/spaces/" + f.space + "/content/page/p", nil, true},
		{"GET", "/v1/spaces/{spaceId}/content/path/*", "/v1/spaces/" + f.space + "/content/path/guides/intro", nil, true},
		{"GET", "/v1/spaces/{spaceId}/content/files", "/v1/spaces/" + f.space + "/content/files", nil, true},
		{"GET", "/v1/spaces/{spaceId}/content/files/{fileId}", "/v1/spaces/" + f.space + "/content/files/f", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", "/v1/spaces/" + f.space + "/change-requests/1/content", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages", "/v1/spaces/" + f.space + "/change-requests/1/content/pages", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}", "/v1/spaces/" + f.space + "/change-requests/1/content/page/p", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/*", "/v1/spaces/" + f.space + "/change-requests/1/content/path/guides/intro", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files", "/v1/spaces/" + f.space + "/change-requests/1/content/files", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}", "/v1/spaces/" + f.space + "/change-requests/1/content/files/f", nil, true},
		{"POST", "/v1/spaces/{spaceId}/content/import", "/v1/spaces/" + f.space + "/content/import", authImportBody, true},
		{"POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import", "/v1/spaces/" + f.space + "/change-requests/1/content/import", authImportBody, true},
		{"GET", "/v1/spaces/{spaceId}/links", "/v1/spaces/" + f.space + "/links", nil, true},
		{"GET", "/v1/spaces/{spaceId}/content/page/{pageId}/links", "/v1/spaces/" + f.space + "/content/page/p/links", nil, true},
		{"GET", "/v1/spaces/{spaceId}/content/files/{fileId}/backlinks", "/v1/spaces/" + f.space + "/content/files/f/backlinks", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links", "/v1/spaces/" + f.space + "/change-requests/1/content/page/p/links", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks", "/v1/spaces/" + f.space + "/change-requests/1/content/files/f/backlinks", nil, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision, nil, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/changes", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision + "/changes", nil, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/changes/page/{pageId}/diff", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision + "/changes/page/p/diff", nil, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/pages", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision + "/pages", nil, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision + "/page/p", nil, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision + "/page/p/document", nil, true},
		{"GET", "/v1/spaces/{spaceId}/documents/{documentId}", "/v1/spaces/" + f.space + "/documents/d", nil, true},
		{"POST", "/v1/spaces/{spaceId}/content/computed/document", "/v1/spaces/" + f.space + "/content/computed/document", authComputedBody, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/path/*", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision + "/path/guides/intro", nil, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/files", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision + "/files", nil, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision + "/files/f", nil, true},
		{"GET", "/v1/spaces/{spaceId}/content/reusable-contents/{reusableContentId}", "/v1/spaces/" + f.space + "/content/reusable-contents/rc", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}", "/v1/spaces/" + f.space + "/change-requests/1/content/reusable-contents/rc", nil, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision + "/reusable-contents/rc", nil, true},
		{"GET", "/v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document", "/v1/spaces/" + f.space + "/revisions/" + f.spaceRevision + "/reusable-contents/rc/document", nil, true},
		{"POST", "/v1/spaces/{spaceId}/permissions", "/v1/spaces/" + f.space + "/permissions", map[string]any{"role": "admin", "users": []string{f.reader.UserID}}, true},
		{"GET", "/v1/spaces/{spaceId}/permissions/users", "/v1/spaces/" + f.space + "/permissions/users", nil, true},
		{"PATCH", "/v1/spaces/{spaceId}/permissions/users/{userId}", "/v1/spaces/" + f.space + "/permissions/users/" + f.reader.UserID, map[string]any{"role": "admin"}, true},
		{"DELETE", "/v1/spaces/{spaceId}/permissions/users/{userId}", "/v1/spaces/" + f.space + "/permissions/users/" + f.reader.UserID, nil, true},
		{"GET", "/v1/spaces/{spaceId}/permissions/teams", "/v1/spaces/" + f.space + "/permissions/teams", nil, true},
		{"PATCH", "/v1/spaces/{spaceId}/permissions/teams/{teamId}", "/v1/spaces/" + f.space + "/permissions/teams/" + f.team, map[string]any{"role": "admin"}, true},
		{"DELETE", "/v1/spaces/{spaceId}/permissions/teams/{teamId}", "/v1/spaces/" + f.space + "/permissions/teams/" + f.team, nil, true},
		{"GET", "/v1/spaces/{spaceId}/permissions/aggregate", "/v1/spaces/" + f.space + "/permissions/aggregate", nil, true},
		{"POST", "/v1/collections/{collectionId}/permissions", "/v1/collections/" + f.collection + "/permissions", map[string]any{"role": "admin", "users": []string{f.reader.UserID}}, true},
		{"GET", "/v1/collections/{collectionId}/permissions/users", "/v1/collections/" + f.collection + "/permissions/users", nil, true},
		{"PATCH", "/v1/collections/{collectionId}/permissions/users/{userId}", "/v1/collections/" + f.collection + "/permissions/users/" + f.reader.UserID, map[string]any{"role": "admin"}, true},
		{"DELETE", "/v1/collections/{collectionId}/permissions/users/{userId}", "/v1/collections/" + f.collection + "/permissions/users/" + f.reader.UserID, nil, true},
		{"GET", "/v1/collections/{collectionId}/permissions/teams", "/v1/collections/" + f.collection + "/permissions/teams", nil, true},
		{"PATCH", "/v1/collections/{collectionId}/permissions/teams/{teamId}", "/v1/collections/" + f.collection + "/permissions/teams/" + f.team, map[string]any{"role": "admin"}, true},
		{"DELETE", "/v1/collections/{collectionId}/permissions/teams/{teamId}", "/v1/collections/" + f.collection + "/permissions/teams/" + f.team, nil, true},
		{"GET", "/v1/collections/{collectionId}/permissions/aggregate", "/v1/collections/" + f.collection + "/permissions/aggregate", nil, true},
		{"GET", "/v1/spaces/{spaceId}/custom-fields", "/v1/spaces/" + f.space + "/custom-fields", nil, true},
		{"PATCH", "/v1/spaces/{spaceId}/custom-fields", "/v1/spaces/" + f.space + "/custom-fields",
			map[string]any{"values": map[string]any{"cf": map[string]any{"value": "evil"}}}, true},
		{"GET", "/v1/spaces/{spaceId}/search", "/v1/spaces/" + f.space + "/search?query=evil", nil, true},
		{"GET", "/v1/orgs/{organizationId}/search", o + "/search?query=evil", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests", "/v1/spaces/" + f.space + "/change-requests", nil, true},
		{"POST", "/v1/spaces/{spaceId}/change-requests", "/v1/spaces/" + f.space + "/change-requests", map[string]any{"subject": "Evil"}, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}", "/v1/spaces/" + f.space + "/change-requests/" + f.changeRequest, nil, true},
		{"PATCH", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}", "/v1/spaces/" + f.space + "/change-requests/1",
			map[string]any{"subject": "Evil", "status": "archived"}, true},
		{"POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", "/v1/spaces/" + f.space + "/change-requests/1/content",
			map[string]any{"changes": []any{map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": "evil"}}}}, true},
		{"POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge", "/v1/spaces/" + f.space + "/change-requests/1/merge", nil, true},
		{"POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/update", "/v1/spaces/" + f.space + "/change-requests/1/update", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf", "/v1/spaces/" + f.space + "/change-requests/1/pdf", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", "/v1/spaces/" + f.space + "/change-requests/1/reviews", nil, true},
		{"POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", "/v1/spaces/" + f.space + "/change-requests/1/reviews", map[string]any{"status": "changes-requested"}, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}", "/v1/spaces/" + f.space + "/change-requests/1/reviews/none", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", "/v1/spaces/" + f.space + "/change-requests/1/requested-reviewers", nil, true},
		{"POST", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", "/v1/spaces/" + f.space + "/change-requests/1/requested-reviewers",
			map[string]any{"users": []string{"someone"}}, true},
		{"DELETE", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}", "/v1/spaces/" + f.space + "/change-requests/1/requested-reviewers/someone", nil, true},
		{"GET", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}/contributors", "/v1/spaces/" + f.space + "/change-requests/1/contributors", nil, true},
	}
	eps = append(eps, commentEndpoints("/v1/spaces/{spaceId}/comments", "/v1/spaces/"+f.space+"/comments", f.comment, f.reply)...)
	return append(eps, commentEndpoints("/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments",
		"/v1/spaces/"+f.space+"/change-requests/1/comments", f.crComment, f.crReply)...)
}

// authDiscussion posts a comment at base as a, and a reply to it, and returns their ids.
func authDiscussion(t *testing.T, e *testenv.Env, a testenv.Actor, base string) (comment, reply string) {
	t.Helper()
	body := map[string]any{"body": map[string]any{"markdown": "Seed"}}
	comment = authCreated(t, e.Do(a, "POST", base, body))
	return comment, authCreated(t, e.Do(a, "POST", base+"/"+comment+"/replies", body))
}

// commentEndpoints are the routes of a comment table (pattern, at path) on a comment and its reply.
func commentEndpoints(pattern, path, comment, reply string) []authEndpoint {
	c, r := path+"/"+comment, path+"/"+comment+"/replies/"+reply
	cp, rp := pattern+"/{commentId}", pattern+"/{commentId}/replies/{commentReplyId}"
	body := map[string]any{"body": map[string]any{"markdown": "evil"}}
	return []authEndpoint{
		{"GET", pattern, path, nil, true},
		{"POST", pattern, path, body, true},
		{"GET", cp, c, nil, true},
		{"PUT", cp, c, map[string]any{"resolved": true, "addedReactions": []string{"👎"}}, true},
		{"DELETE", cp, c, nil, true},
		{"GET", cp + "/replies", c + "/replies", nil, true},
		{"POST", cp + "/replies", c + "/replies", body, true},
		{"GET", rp, r, nil, true},
		{"PUT", rp, r, map[string]any{"body": body["body"], "addedReactions": []string{"👎"}}, true},
		{"DELETE", rp, r, nil, true},
	}
}

// authRedirectTo is a redirect's destination outside the site.
var authRedirectTo = map[string]any{"kind": "external", "url": "https://evil.example.com"}

// authSpecSource is an OpenAPI document given as text.
var authSpecSource = map[string]any{"text": `{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{}}`}

// authComputedBody computes the document of an operation of the spec "evil".
var authComputedBody = map[string]any{"seed": "s", "source": map[string]any{"type": "builtin:openapi",
	"props":        map[string]any{"doc": "operation", "page": "/pets", "method": "get"},
	"dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "evil"}}}}}

// authImportBody imports one uploaded Markdown page ("evil").
var authImportBody = map[string]any{"source": "markdown", "files": []any{map[string]any{"path": "evil.md", "base64": "ZXZpbA=="}}}

// TestAuthTableCoversRouter keeps the endpoint table in step with the route table.
func TestAuthTableCoversRouter(t *testing.T) {
	h := rest.NewRouter(rest.Config{Resolver: &graph.Resolver{}, GraphQL: http.NotFoundHandler()})
	var routes []string
	err := chi.Walk(h.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if strings.HasPrefix(route, "/v1/") {
			routes = append(routes, method+" "+route)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var table []string
	for _, ep := range (&authFixture{}).endpoints() {
		table = append(table, ep.String())
	}
	sort.Strings(routes)
	sort.Strings(table)
	if strings.Join(routes, "\n") != strings.Join(table, "\n") {
		t.Fatalf("router:\n%s\n\ntable:\n%s", strings.Join(routes, "\n"), strings.Join(table, "\n"))
	}
}

func TestAuthRequired(t *testing.T) {
	f := newAuthFixture(t)
	tokens := map[string]string{
		"ErrNoToken":         "",
		"ErrGarbageBdyToken": "bdy_" + strings.Repeat("x", 40),
		"ErrShortBdyToken":   "bdy_",
		"ErrNotBdyToken":     "not-a-bindery-token",
		"ErrLongToken":       "bdy_" + strings.Repeat("a", 500),
	}
	for _, ep := range f.endpoints() {
		if publicRoutes[ep.String()] {
			continue
		}
		for name, token := range tokens {
			t.Run(name+"/"+ep.String(), func(t *testing.T) {
				testenv.CheckError(t, f.e.Do(testenv.Actor{Token: token}, ep.method, ep.path, ep.body), http.StatusUnauthorized)
			})
		}
	}
	t.Run("NothingChanged", func(t *testing.T) {
		var l struct{ Count int }
		f.e.Do(f.admin, "GET", "/v1/orgs", nil).JSON(t, &l)
		if l.Count != 1 {
			t.Fatalf("the admin has %d organizations, want 1", l.Count)
		}
	})
}

// publicRoutes answer without a token: a sign-in page reads the sign-in entries (decision 146);
// the API's document and its page describe the software (decision 240); a git host's push webhook
// is checked with its link's secret (decision 538).
var publicRoutes = map[string]bool{"POST /v1/spaces/{spaceId}/git/webhook": true, "GET /v1/orgs/{organizationId}/sso": true, "POST /v1/orgs/{organizationId}/sites/{siteId}/insights/events": true, "GET /v1/openapi.json": true, "GET /v1/docs": true}

func TestAuthPublicRoutes(t *testing.T) {
	f := newAuthFixture(t)
	for _, ep := range f.endpoints() {
		if publicRoutes[ep.String()] {
			want := http.StatusOK
			switch {
			case strings.HasSuffix(ep.pattern, "/insights/events"):
				want = http.StatusNotFound // readers' events: the fixture's site is not published
			case strings.HasSuffix(ep.pattern, "/git/webhook"):
				want = http.StatusNotFound // a push webhook: the fixture's space has no Git Sync link
			}
			if r := f.e.Do(testenv.Actor{}, ep.method, ep.path, ep.body); r.Status != want {
				t.Errorf("%s without a token: %d %s", ep, r.Status, r.Body)
			}
		}
	}
}

// authSnapshot reads, as the admin, everything the outsider's calls could change.
func (f *authFixture) authSnapshot(t *testing.T) map[string]string {
	t.Helper()
	o := "/v1/orgs/" + f.org
	snap := map[string]string{}
	for _, p := range []string{o, o + "/members", o + "/members/" + f.reader.UserID, o + "/members/" + f.reader.UserID + "/teams",
		o + "/teams", o + "/teams/" + f.team, o + "/teams/" + f.team + "/members", o + "/link-invites",
		o + "/link-invites/" + f.invite, o + "/custom-fields", o + "/custom-fields/cf", o + "/sites", o + "/sites/" + f.site,
		o + "/sites/" + f.site + "/site-spaces",
		o + "/sites/" + f.site + "/share-links", o + "/sites/" + f.site + "/publishing/auth", o + "/sites/" + f.site + "/customization",
		o + "/sites/" + f.site + "/redirects", o + "/sites/" + f.site + "/redirects?draft=true",
		o + "/sites/" + f.site + "/adaptive-schema",
		o + "/sites/" + f.site + "/site-spaces/" + f.siteSpace + "/customization",
		o + "/sites/" + f.site + "/structure", o + "/sites/" + f.site + "/published", o + "/sites/" + f.site + "/sections",
		o + "/sites/" + f.site + "/section-groups",
		o + "/openapi", o + "/openapi/" + f.spec, o + "/openapi/" + f.spec + "/versions", o + "/openapi/" + f.spec + "/versions/latest/content",
		o + "/saml", o + "/saml/" + f.saml, o + "/oidc-providers", o + "/oidc-providers/" + f.oidc, o + "/scim-tokens", o + "/translations", o + "/translations/" + f.translation,
		o + "/webhooks", o + "/webhooks/" + f.webhook, o + "/webhooks/" + f.webhook + "/deliveries", "/v1/custom-hostnames/" + authHostname,
		o + "/collections", "/v1/collections/" + f.collection,
		o + "/spaces", "/v1/spaces/" + f.space, "/v1/spaces/" + f.space + "/custom-fields",
		"/v1/spaces/" + f.space + "/change-requests", "/v1/spaces/" + f.space + "/change-requests/1",
		"/v1/spaces/" + f.space + "/comments", "/v1/spaces/" + f.space + "/change-requests/1/comments"} {
		r := f.e.Do(f.admin, "GET", p, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", p, r.Status, r.Body)
		}
		snap[p] = string(r.Body)
	}
	return snap
}

func TestAuthOutsider(t *testing.T) {
	f := newAuthFixture(t)
	before := f.authSnapshot(t)
	for _, ep := range f.endpoints() {
		if !ep.scoped {
			continue
		}
		t.Run("ErrNotFound/"+ep.String(), func(t *testing.T) {
			testenv.CheckError(t, f.e.Do(f.outsider, ep.method, ep.path, ep.body), http.StatusNotFound)
		})
	}
	t.Run("NothingChanged", func(t *testing.T) {
		after := f.authSnapshot(t)
		for p, b := range before {
			if after[p] != b {
				t.Errorf("GET %s changed:\nbefore %s\nafter  %s", p, b, after[p])
			}
		}
		var l struct{ Count int }
		f.e.Do(f.outsider, "GET", "/v1/orgs", nil).JSON(t, &l)
		if l.Count != 1 {
			t.Fatalf("the outsider is in %d organizations, want 1", l.Count)
		}
	})
}

func TestRevokedToken(t *testing.T) {
	f := newAuthFixture(t)
	ctx := context.Background()
	token, err := accounts.CreateToken(ctx, f.e.Store.Client, f.reader.UserID, "second")
	if err != nil {
		t.Fatal(err)
	}
	second := testenv.Actor{UserID: f.reader.UserID, Token: token}
	if r := f.e.Do(second, "GET", "/v1/user", nil); r.Status != http.StatusOK {
		t.Fatalf("a fresh token: %d %s", r.Status, r.Body)
	}
	if err := accounts.RevokeToken(ctx, f.e.Store.Client, token); err != nil {
		t.Fatal(err)
	}
	t.Run("ErrREST", func(t *testing.T) {
		testenv.CheckError(t, f.e.Do(second, "GET", "/v1/user", nil), http.StatusUnauthorized)
		testenv.CheckError(t, f.e.Do(second, "GET", "/v1/orgs/"+f.org, nil), http.StatusUnauthorized)
	})
	t.Run("ErrGraphQL", func(t *testing.T) {
		if g := f.e.GraphQL(second, `{ viewer { id } }`, nil); g.Status != http.StatusUnauthorized || g.Data != nil {
			t.Fatalf("revoked token on GraphQL: %d %s", g.Status, g.Data)
		}
	})
	t.Run("OKOtherTokensStillWork", func(t *testing.T) {
		if r := f.e.Do(f.reader, "GET", "/v1/user", nil); r.Status != http.StatusOK {
			t.Fatalf("the user's first token: %d %s", r.Status, r.Body)
		}
	})
	t.Run("ErrRevokeAgain", func(t *testing.T) {
		if err := accounts.RevokeToken(ctx, f.e.Store.Client, token); err != accounts.ErrInvalidToken {
			t.Fatalf("revoking twice: %v", err)
		}
	})
}

// authHeader sends GET path with a raw Authorization header.
func authHeader(t *testing.T, e *testenv.Env, path, header string) testenv.Response {
	t.Helper()
	req, err := http.NewRequest("GET", e.Server.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", header)
	res, err := e.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return testenv.Response{Status: res.StatusCode, Body: b}
}

func TestAuthorizationHeader(t *testing.T) {
	f := newAuthFixture(t)
	cases := []struct {
		name, header string
		status       int
	}{
		{"OKLowerCaseScheme", "bearer " + f.reader.Token, http.StatusOK},
		{"ErrBasic", "Basic " + f.reader.Token, http.StatusUnauthorized},
		{"ErrNoScheme", f.reader.Token, http.StatusUnauthorized},
		{"ErrEmptyBearer", "Bearer ", http.StatusUnauthorized},
		{"ErrTokenWithSuffix", "Bearer " + f.reader.Token + "x", http.StatusUnauthorized},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := authHeader(t, f.e, "/v1/user", c.header)
			if c.status == http.StatusOK {
				if r.Status != http.StatusOK || r.Map(t)["id"] != f.reader.UserID {
					t.Fatalf("%d %s", r.Status, r.Body)
				}
				return
			}
			testenv.CheckError(t, r, c.status)
		})
	}
}

func TestGraphQLAuth(t *testing.T) {
	f := newAuthFixture(t)
	query := strings.NewReader(`{"query":"{ viewer { id } }"}`)
	t.Run("ErrNoToken", func(t *testing.T) {
		testenv.CheckError(t, f.e.Raw(testenv.Actor{}, "POST", "/graphql", "application/json", query), http.StatusUnauthorized)
	})
	t.Run("ErrInvalidToken", func(t *testing.T) {
		g := f.e.GraphQL(testenv.Actor{Token: "bdy_bogus"}, `{ viewer { id } }`, nil)
		if g.Status != http.StatusUnauthorized || g.Data != nil {
			t.Fatalf("%d %s", g.Status, g.Data)
		}
	})
	t.Run("OKPlaygroundWithoutToken", func(t *testing.T) {
		req, err := http.NewRequest("GET", f.e.Server.URL+"/graphql", nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := f.e.Server.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
			!bytes.Contains(bytes.ToLower(body), []byte("<html")) {
			t.Fatalf("GET /graphql: %d %s %.200s", res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	})
}

// authRawRows returns every column of every row of a table, as text.
func authRawRows(t *testing.T, e *testenv.Env, table string) []string {
	t.Helper()
	var rows entsql.Rows
	if err := e.Store.Driver.Query(context.Background(), "SELECT * FROM "+table, []any{}, &rows); err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			if b, ok := v.([]byte); ok {
				v = string(b)
			}
			out = append(out, fmt.Sprint(v))
		}
	}
	return out
}

func TestTokensStoredHashed(t *testing.T) {
	f := newAuthFixture(t)
	ctx := context.Background()
	token, err := accounts.CreateToken(ctx, f.e.Store.Client, f.admin.UserID, "ci")
	if err != nil {
		t.Fatal(err)
	}
	tokens := []string{token, f.admin.Token, f.reader.Token, f.outsider.Token}
	rows, err := f.e.Store.Client.APIToken.Query().All(accounts.System(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(tokens) {
		t.Fatalf("%d token rows, want %d", len(rows), len(tokens))
	}
	for _, row := range rows {
		if len(row.TokenHash) != 32 {
			t.Errorf("token_hash is %d bytes, want 32 (SHA-256)", len(row.TokenHash))
		}
		for _, tok := range tokens {
			secret := strings.TrimPrefix(tok, "bdy_")
			if bytes.Equal(row.TokenHash, []byte(tok)) || bytes.Contains(row.TokenHash, []byte(secret)) ||
				strings.Contains(row.Label+row.ID+row.UserID, secret) {
				t.Errorf("row %s holds a token's text", row.ID)
			}
		}
	}
	t.Run("RawRows", func(t *testing.T) {
		for _, v := range authRawRows(t, f.e, "api_tokens") {
			for _, tok := range tokens {
				if strings.Contains(v, strings.TrimPrefix(tok, "bdy_")) {
					t.Fatalf("a column of api_tokens holds a token's text: %q", v)
				}
			}
		}
	})
	t.Run("OKTokenWorks", func(t *testing.T) {
		if r := f.e.Do(testenv.Actor{Token: token}, "GET", "/v1/user", nil); r.Status != http.StatusOK {
			t.Fatalf("%d %s", r.Status, r.Body)
		}
	})
}

func TestUnknownRoute(t *testing.T) {
	f := newAuthFixture(t)
	cases := []struct {
		name   string
		actor  testenv.Actor
		method string
		path   string
	}{
		{"ErrUnknownV1Path", f.admin, "GET", "/v1/nope"},
		{"ErrUnknownOrgSubpath", f.admin, "GET", "/v1/orgs/" + f.org + "/nope"},
		{"ErrUnknownTopLevel", testenv.Actor{}, "GET", "/nope"},
		{"ErrUnknownTopLevelPost", f.admin, "POST", "/v2/orgs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			authJSONError(t, f.e.Raw(c.actor, c.method, c.path, "", nil), http.StatusNotFound)
		})
	}
}

// authJSONError asserts the error body of status (decoded as JSON, so not plain text).
func authJSONError(t *testing.T, r testenv.Response, status int) {
	t.Helper()
	if msg := testenv.CheckError(t, r, status); msg == "" {
		t.Fatal("empty message")
	}
}

func TestWrongMethod(t *testing.T) {
	f := newAuthFixture(t)
	cases := []struct{ method, path string }{
		{"DELETE", "/v1/orgs"},
		{"PUT", "/v1/orgs/" + f.org},
		{"POST", "/v1/user"},
		{"PATCH", "/v1/orgs/" + f.org + "/members"},
		{"GET", "/v1/orgs/" + f.org + "/ping"},
	}
	for _, c := range cases {
		t.Run("Err"+c.method+c.path, func(t *testing.T) {
			r := f.e.Raw(f.admin, c.method, c.path, "application/json", strings.NewReader(`{}`))
			if r.Status != http.StatusMethodNotAllowed && r.Status != http.StatusBadRequest {
				t.Fatalf("want 405 or 400, got %d %s", r.Status, r.Body)
			}
			authJSONError(t, r, r.Status)
			if !strings.Contains(string(r.Body), c.method) {
				t.Fatalf("the message should name the method: %s", r.Body)
			}
		})
	}
	t.Run("ErrAnonymous", func(t *testing.T) {
		authJSONError(t, f.e.Raw(testenv.Actor{}, "DELETE", "/v1/orgs", "", nil), http.StatusUnauthorized)
	})
}
