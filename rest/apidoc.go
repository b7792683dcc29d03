package rest

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/rest/apidoc"
)

// ownOperations describes the /v1 routes the reference client does not have, or has as another
// resource (apispec.Superseded): Bindery's own. Every other route is described by the reference
// (rest/apidoc/reference.json, made by go generate). TestAPIDocumentDescribesEveryRoute fails
// when a route is described by neither.
var ownOperations = map[string]apidoc.Operation{
	"GET /openapi.json": {ID: "getOpenAPIDocument", Tag: "api", Status: http.StatusOK,
		Summary:  "This document: the OpenAPI 3.1 description of the /v1 API of this server",
		Response: apidoc.Schema{"type": "object", "required": []any{"openapi", "info", "paths"}}},
	"GET /docs": {ID: "getAPIDocs", Tag: "api", Status: http.StatusOK, Content: "text/html",
		Summary: "This document as a web page"},

	"GET /user/tokens":              listOf[APIToken]("listAPITokens", "user-tokens", "List the viewer's personal API tokens"),
	"POST /user/tokens":             writes[createAPITokenBody, APIToken]("createAPIToken", "user-tokens", "Create a personal API token (its secret is answered once)", http.StatusCreated),
	"DELETE /user/tokens/{tokenId}": removes("revokeAPIToken", "user-tokens", "Revoke a personal API token", http.StatusNoContent),

	"GET /orgs/{organizationId}/custom-fields":                reads[List[CustomField]]("listCustomFields", "custom-fields", "List the organization's custom fields", listParams...),
	"POST /orgs/{organizationId}/custom-fields":               writes[createCustomFieldBody, CustomField]("createCustomField", "custom-fields", "Create a custom field", http.StatusCreated, "name", "type"),
	"GET /orgs/{organizationId}/custom-fields/{fieldName}":    reads[CustomField]("getCustomField", "custom-fields", "Get a custom field"),
	"PATCH /orgs/{organizationId}/custom-fields/{fieldName}":  writes[updateCustomFieldBody, CustomField]("updateCustomField", "custom-fields", "Update a custom field", http.StatusOK),
	"DELETE /orgs/{organizationId}/custom-fields/{fieldName}": removes("deleteCustomField", "custom-fields", "Delete a custom field and its values", http.StatusNoContent),
	"GET /spaces/{spaceId}/custom-fields":                     reads[[]CustomFieldValue]("listSpaceCustomFields", "custom-fields", "List the custom field values of a space"),
	"PATCH /spaces/{spaceId}/custom-fields": {ID: "updateSpaceCustomFields", Tag: "custom-fields", Summary: "Set custom field values of a space",
		Request: apidoc.RequestSchemaFor[spaceCustomFieldsBody]("values"), Status: http.StatusNoContent},

	"GET /orgs/{organizationId}/translations":                                        listOf[TranslationSettings]("listTranslationSettings", "translation-settings", "List the organization's translation settings"),
	"POST /orgs/{organizationId}/translations":                                       writes[translationSettingsBody, TranslationSettings]("createTranslationSettings", "translation-settings", "Create translation settings", http.StatusCreated, "title"),
	"GET /orgs/{organizationId}/translations/{translationSettingsId}":                reads[TranslationSettings]("getTranslationSettings", "translation-settings", "Get translation settings"),
	"PUT /orgs/{organizationId}/translations/{translationSettingsId}":                writes[translationSettingsBody, TranslationSettings]("updateTranslationSettings", "translation-settings", "Replace translation settings", http.StatusOK, "title"),
	"DELETE /orgs/{organizationId}/translations/{translationSettingsId}":             removes("deleteTranslationSettings", "translation-settings", "Delete translation settings", http.StatusNoContent),
	"GET /orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content/raw": reads[openAPIRawContent]("getOpenAPISpecVersionRawContent", "openapi-versions", "Get the entry document of a spec version as it was fetched ({versionId} may be latest)"),

	"POST /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections":                   writes[addSectionToGroupBody, SiteSectionGroup]("addSiteSectionToGroup", "site-section-groups", "Move a section into a section group", http.StatusCreated, "sectionId"),
	"DELETE /orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}": removes("removeSiteSectionFromGroup", "site-section-groups", "Move a section out of a section group", http.StatusResetContent),

	"POST /spaces/{spaceId}/transfer":                                         writes[transferBody, Space]("transferSpace", "spaces", "Transfer a space to another organization", http.StatusOK, "organization"),
	"POST /spaces/{spaceId}/content/import":                                   writes[importBody, importResult]("importContent", "space-content", "Import content (a website, Markdown files, a zip) into a space", http.StatusCreated, "source"),
	"POST /spaces/{spaceId}/change-requests/{changeRequestId}/content/import": writes[importBody, importResult]("importChangeRequestContent", "change-request-content", "Import content into a change request", http.StatusCreated, "source"),

	"GET /spaces/{spaceId}/links":                                                              reads[LinkList]("listSpaceLinks", "space-content", "List the links of every page of a space", linkParams...),
	"GET /spaces/{spaceId}/content/page/{pageId}/links":                                        reads[LinkList]("listPageLinks", "space-content", "List the links of a page", linkParams...),
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links":      reads[LinkList]("listChangeRequestPageLinks", "change-request-content", "List the links of a page of a change request", linkParams...),
	"GET /spaces/{spaceId}/content/files/{fileId}/backlinks":                                   listOf[PageLocation]("listFileBacklinks", "space-content", "List the pages linking to a file"),
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks": listOf[PageLocation]("listChangeRequestFileBacklinks", "change-request-content", "List the pages of a change request linking to a file"),
}

// publicOperations are the routes of /v1 answered without a token (registered outside the
// authenticated group of NewRouter).
var publicOperations = map[string]bool{"GET /orgs/{organizationId}/sso": true, "GET /openapi.json": true, "GET /docs": true}

// listParams are the query parameters of a list.
var listParams = []apidoc.Param{
	{Name: "limit", Description: "Items per page, 0..1000 (default 100; 0 answers only the count)", Schema: apidoc.Schema{"type": "integer", "minimum": 0, "maximum": 1000}},
	{Name: "page", Description: "The next.page of the previous page", Schema: apidoc.Schema{"type": "string"}},
}

var linkParams = append([]apidoc.Param{{Name: "status", Description: "Only links of this status",
	Schema: apidoc.Schema{"type": "string", "enum": []any{"ok", "broken", "in-app"}}}}, listParams...)

func reads[T any](id, tag, summary string, query ...apidoc.Param) apidoc.Operation {
	return apidoc.Operation{ID: id, Tag: tag, Summary: summary, Query: query, Status: http.StatusOK, Response: apidoc.SchemaFor[T]()}
}

func listOf[T any](id, tag, summary string) apidoc.Operation {
	return reads[List[T]](id, tag, summary, listParams...)
}

func writes[B, T any](id, tag, summary string, status int, required ...string) apidoc.Operation {
	return apidoc.Operation{ID: id, Tag: tag, Summary: summary, Request: apidoc.RequestSchemaFor[B](required...),
		Status: status, Response: apidoc.SchemaFor[T]()}
}

func removes(id, tag, summary string, status int) apidoc.Operation {
	return apidoc.Operation{ID: id, Tag: tag, Summary: summary, Status: status}
}

// JSONSchema says what a notNull field accepts: a value, never null.
func (notNull[T]) JSONSchema() apidoc.Schema { return apidoc.RequestSchemaOf(reflect.TypeFor[T]()) }

// JSONSchema says what a nullable field accepts: a value, or null to remove it.
func (nullable[T]) JSONSchema() apidoc.Schema {
	return apidoc.Nullable(apidoc.RequestSchemaOf(reflect.TypeFor[T]()))
}

// V1Routes lists the routes of /v1, as the document of the API describes them (go generate
// extracts the reference's operations for them).
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
			d.doc, err = apidoc.Build(routes, ownOperations, d.info)
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
