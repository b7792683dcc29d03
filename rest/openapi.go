package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/openapispec"
	"github.com/binderyhq/bindery/graph/model"
)

// OpenAPISpec is the wire shape of an OpenAPI specification (the reference client's OpenAPISpec).
type OpenAPISpec struct {
	Object                  string                        `json:"object"`
	ID                      string                        `json:"id"`
	CreatedAt               time.Time                     `json:"createdAt"`
	UpdatedAt               time.Time                     `json:"updatedAt"`
	Slug                    string                        `json:"slug"`
	SourceURL               *string                       `json:"sourceURL,omitempty"`
	ProcessingState         string                        `json:"processingState"`
	Visibility              string                        `json:"visibility"`
	LastVersion             *string                       `json:"lastVersion,omitempty"`
	LastProcessedAt         *time.Time                    `json:"lastProcessedAt,omitempty"`
	LastProcessErrorCode    *string                       `json:"lastProcessErrorCode,omitempty"`
	LastProcessedErrors     []openAPIError                `json:"lastProcessedErrors,omitempty"`
	LastProcessedErrorCount int                           `json:"lastProcessedErrorCount"`
	Permissions             *model.OpenAPISpecPermissions `json:"permissions"`
	URLs                    urls                          `json:"urls"`
}

// openAPIError is the reference's OpenAPIErrorObject.
type openAPIError struct {
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

// OpenAPISpecVersion is the wire shape of a spec version.
type OpenAPISpecVersion struct {
	Object    string    `json:"object"`
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"createdAt"`
	URL       string    `json:"url"`
	URLs      urls      `json:"urls"`
	// Warnings and WarningCount are Bindery's: the problems validation found in a document
	// kept because it can be read (absent when there are none).
	Warnings     []string `json:"warnings,omitempty" doc:"Bindery only: the problems validation found in the document (at most 50), kept because it can be read"`
	WarningCount int      `json:"warningCount,omitempty" doc:"Bindery only: how many problems validation found"`
}

// openAPIContent is a version's content: spec/02's {filesystem, url} and the reference's urls.
type openAPIContent struct {
	Filesystem json.RawMessage    `json:"filesystem"`
	URL        string             `json:"url"`
	URLs       openAPIContentURLs `json:"urls"`
}

type openAPIContentURLs struct {
	Source string  `json:"source"`
	Public *string `json:"public"`
}

// openAPIRawContent is the entry document as fetched (the reference's OpenAPISpecRawContent).
type openAPIRawContent struct {
	Text   string `json:"text"`
	Format string `json:"format"`
}

func (a *api) specLocation(orgID, slug string) string {
	return a.url("/v1/orgs/" + orgID + "/openapi/" + slug)
}

// openAPISpec converts a spec to its wire shape.
func (a *api) openAPISpec(ctx context.Context, s *ent.OpenAPISpec) (OpenAPISpec, error) {
	w := OpenAPISpec{
		Object: "openapi-spec", ID: s.ID, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt, Slug: s.Slug,
		SourceURL: s.SourceURL, ProcessingState: string(s.ProcessingState), Visibility: string(s.Visibility),
		LastVersion: s.LastVersionID, LastProcessedAt: s.LastProcessedAt,
		URLs: urls{Location: a.specLocation(s.OrganizationID, s.Slug), App: a.url("/o/" + s.OrganizationID + "/openapi/" + s.Slug)},
	}
	if s.LastProcessErrorCode != nil {
		code := string(*s.LastProcessErrorCode)
		w.LastProcessErrorCode = &code
		w.LastProcessedErrorCount = s.LastProcessErrorCount
		for _, msg := range s.LastProcessErrors {
			w.LastProcessedErrors = append(w.LastProcessedErrors, openAPIError{Code: code, Message: msg})
		}
	}
	var err error
	w.Permissions, err = a.r.OpenAPISpec().Permissions(ctx, s)
	return w, err
}

// versionURL is where a version's document was found; for a document given as text, the
// version's content in this API.
func (a *api) versionURL(s *ent.OpenAPISpec, v *ent.OpenAPISpecVersion) string {
	if v.URL != "" {
		return v.URL
	}
	return a.versionLocation(s, v.ID) + "/content"
}

func (a *api) versionLocation(s *ent.OpenAPISpec, versionID string) string {
	return a.specLocation(s.OrganizationID, s.Slug) + "/versions/" + versionID
}

// openAPIVersion converts a version of s to its wire shape.
func (a *api) openAPIVersion(s *ent.OpenAPISpec) func(context.Context, *ent.OpenAPISpecVersion) (OpenAPISpecVersion, error) {
	return func(_ context.Context, v *ent.OpenAPISpecVersion) (OpenAPISpecVersion, error) {
		return OpenAPISpecVersion{Object: "openapi-spec-version", ID: v.ID, CreatedAt: v.CreatedAt,
			URL: a.versionURL(s, v), URLs: urls{Location: a.versionLocation(s, v.ID)},
			Warnings: v.Warnings, WarningCount: v.WarningCount}, nil
	}
}

// specSource is the source of a request body: {url} or {text}.
type specSource struct {
	URL  notNull[string] `json:"url"`
	Text notNull[string] `json:"text"`
}

func (s *specSource) input() *model.OpenAPISpecSourceInput {
	if s == nil {
		return nil
	}
	return &model.OpenAPISpecSourceInput{URL: s.URL.Value, Text: s.Text.Value}
}

func (a *api) listOpenAPISpecs(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.openAPISpec, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.OpenAPISpec], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().OpenAPISpecs(ctx, o, limit, page)
	})
}

type createOpenAPISpecBody struct {
	Slug   *string     `json:"slug"`
	Source *specSource `json:"source"`
}

func (a *api) createOpenAPISpec(w http.ResponseWriter, r *http.Request) {
	var body createOpenAPISpecBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Slug == nil {
		writeError(w, r, missing("slug"))
		return
	}
	s, err := a.r.Mutation().CreateOpenAPISpec(r.Context(), chi.URLParam(r, "organizationId"),
		model.CreateOpenAPISpecInput{Slug: *body.Slug, Source: body.Source.input()})
	if err == nil {
		w.Header().Set("Location", a.specLocation(s.OrganizationID, s.Slug))
	}
	respondWith(w, r, http.StatusCreated, s, err, a.openAPISpec)
}

func (a *api) getOpenAPISpec(w http.ResponseWriter, r *http.Request) {
	s, err := a.specOf(r.Context(), r)
	respondWith(w, r, http.StatusOK, s, err, a.openAPISpec)
}

// specOf loads the spec named in the path.
func (a *api) specOf(ctx context.Context, r *http.Request) (*ent.OpenAPISpec, error) {
	o, err := a.orgOf(ctx, r)
	if err != nil {
		return nil, err
	}
	return a.r.Organization().OpenAPISpec(ctx, o, chi.URLParam(r, "specSlug"))
}

type putOpenAPISpecBody struct {
	Source *specSource `json:"source"`
}

func (a *api) putOpenAPISpec(w http.ResponseWriter, r *http.Request) {
	var body putOpenAPISpecBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	s, created, err := a.r.PutOpenAPISpec(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "specSlug"), body.Source.input())
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	respondWith(w, r, status, s, err, a.openAPISpec)
}

type updateOpenAPISpecBody struct {
	Visibility *specVisibility `json:"visibility"`
}

func (a *api) updateOpenAPISpec(w http.ResponseWriter, r *http.Request) {
	var body updateOpenAPISpecBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Visibility == nil {
		writeError(w, r, missing("visibility"))
		return
	}
	s, err := a.r.Mutation().UpdateOpenAPISpec(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "specSlug"),
		model.UpdateOpenAPISpecInput{Visibility: openapispec.Visibility(*body.Visibility)})
	respondWith(w, r, http.StatusOK, s, err, a.openAPISpec)
}

// deleteOpenAPISpec answers 205, or 204 when there was no spec with the slug (the reference's
// "Specification did not exist").
func (a *api) deleteOpenAPISpec(w http.ResponseWriter, r *http.Request) {
	deleted, err := a.r.Mutation().DeleteOpenAPISpec(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "specSlug"))
	status := http.StatusResetContent
	if !deleted {
		status = http.StatusNoContent
	}
	respondEmpty(w, r, status, err)
}

func (a *api) listOpenAPISpecVersions(w http.ResponseWriter, r *http.Request) {
	s, err := a.specOf(r.Context(), r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	serveList(w, r, a.openAPIVersion(s), func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.OpenAPISpecVersion], error) {
		return a.r.OpenAPISpec().Versions(ctx, s, limit, page)
	})
}

// versionOf loads the spec and the version named in the path ("latest": the newest), with the
// version's content when withContent.
func (a *api) versionOf(r *http.Request, withContent bool) (*ent.OpenAPISpec, *ent.OpenAPISpecVersion, error) {
	s, err := a.specOf(r.Context(), r)
	if err != nil {
		return nil, nil, err
	}
	v, err := a.r.SpecVersion(r.Context(), s, chi.URLParam(r, "versionId"), withContent)
	return s, v, err
}

func (a *api) getOpenAPISpecVersion(w http.ResponseWriter, r *http.Request) {
	s, v, err := a.versionOf(r, false)
	if err != nil {
		writeError(w, r, err)
		return
	}
	respondWith(w, r, http.StatusOK, v, nil, a.openAPIVersion(s))
}

func (a *api) getOpenAPISpecContent(w http.ResponseWriter, r *http.Request) {
	s, v, err := a.versionOf(r, true)
	if err != nil {
		writeError(w, r, err)
		return
	}
	c := openAPIContent{Filesystem: v.Filesystem, URL: a.versionURL(s, v), URLs: openAPIContentURLs{Source: a.versionURL(s, v)}}
	if s.Visibility == openapispec.VisibilityPublic {
		public := v.URL // the source, for a document fetched from a URL (the reference's "external spec")
		if public == "" {
			public = a.publicSpecURL(s, v.ID)
		}
		c.URLs.Public = &public
	}
	respond(w, r, http.StatusOK, c, nil)
}

// publicSpecURL is where anyone reads a version of a public spec ("latest": the newest).
func (a *api) publicSpecURL(s *ent.OpenAPISpec, versionID string) string {
	return a.url("/openapi/" + s.OrganizationID + "/" + s.Slug + "/versions/" + versionID)
}

// servePublicOpenAPISpec serves the entry document of a version of a public spec as it was
// fetched or given, without a token: the reference's public URL of a stored spec, which an API
// reference's "Try it" loads from any page, so any origin may read it.
func (a *api) servePublicOpenAPISpec(w http.ResponseWriter, r *http.Request) {
	v, err := a.r.PublicSpecVersion(r.Context(), chi.URLParam(r, "organizationId"), chi.URLParam(r, "specSlug"), chi.URLParam(r, "versionId"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/"+string(v.Format))
	h.Set("Access-Control-Allow-Origin", "*") // public content, read without credentials
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", "public, max-age=60") // a spec may be made private, or get a new version
	h.Set("ETag", `"`+v.Digest+`"`)
	http.ServeContent(w, r, "", v.CreatedAt, bytes.NewReader(v.Raw))
}

func (a *api) getOpenAPISpecRawContent(w http.ResponseWriter, r *http.Request) {
	_, v, err := a.versionOf(r, true)
	if err != nil {
		writeError(w, r, err)
		return
	}
	respond(w, r, http.StatusOK, openAPIRawContent{Text: string(v.Raw), Format: string(v.Format)}, nil)
}

// specVisibility is a spec visibility in a request body; unknown values are refused with the field.
type specVisibility openapispec.Visibility

func (v *specVisibility) UnmarshalJSON(b []byte) error {
	return decodeEnum(b, (*openapispec.Visibility)(v), openapispec.VisibilityValidator, "one of private, public")
}
