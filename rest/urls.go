package rest

import (
	"context"
	"net/http"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/sites"
)

// ContentByURL is the reference's answer of getContentByUrl: a collection, or a space with the
// change request and the page the URL names.
type ContentByURL struct {
	Collection    *Collection    `json:"collection,omitempty"`
	Space         *Space         `json:"space,omitempty"`
	ChangeRequest *ChangeRequest `json:"changeRequest,omitempty"`
	Page          *RevisionPage  `json:"page,omitempty"`
}

// getContentByURL answers GET /v1/urls/content?url=: what an app URL of this server shows.
func (a *api) getContentByURL(w http.ResponseWriter, r *http.Request) {
	raw := query{r}.str("url")
	if raw == nil {
		writeError(w, r, missing("url"))
		return
	}
	found, err := a.r.ContentByURL(r.Context(), *raw)
	respondWith(w, r, http.StatusOK, found, err, a.contentByURL)
}

func (a *api) contentByURL(ctx context.Context, found *graph.URLContent) (ContentByURL, error) {
	var out ContentByURL
	var err error
	if found.Collection != nil {
		c, err := a.collection(ctx, found.Collection)
		return ContentByURL{Collection: &c}, err
	}
	s, err := a.space(ctx, found.Space)
	out.Space = &s
	if c := found.Content; c != nil && c.ChangeRequest != nil && err == nil {
		cr, crErr := a.changeRequest(ctx, c.ChangeRequest)
		out.ChangeRequest, err = &cr, crErr
	}
	if p := found.Page; p != nil {
		page := a.contentView(found.Content).page(p, found.Content.Tree.Path(p.ID))
		out.Page = &page
	}
	return out, err
}

// PublishedSiteContent is the reference's PublishedSiteContent, the answer of
// getPublishedContentByUrl and resolvePublishedContentByUrl, with `revision` always and `page`
// (Bindery's addition: the page the URL shows). Bindery issues readers no API token: `apiToken`
// is empty (decision 502).
type PublishedSiteContent struct {
	Organization string `json:"organization"`
	Site         string `json:"site"`
	SiteSection  string `json:"siteSection,omitempty"`
	SiteSpace    string `json:"siteSpace"`
	Space        string `json:"space"`
	Revision     string `json:"revision"`
	Page         string `json:"page"`
	Pathname     string `json:"pathname"`
	BasePath     string `json:"basePath"`
	SiteBasePath string `json:"siteBasePath"`
	APIToken     string `json:"apiToken"`
	ShareKey     string `json:"shareKey,omitempty"`
	Complete     bool   `json:"complete"`
	CanonicalURL string `json:"canonicalUrl"`
}

// PublishedContentRedirect is the reference's PublishedContentRedirect that Bindery answers: a
// reader without a valid visitor token sent to the site's fallback URL (redirectOnError), or a
// URL the site redirects outside itself.
type PublishedContentRedirect struct {
	// Target is "application" (the site's authentication application) or "external".
	Target string `json:"target"`
	// Site is the site whose redirect leads outside it (external only).
	Site     string `json:"site,omitempty"`
	Redirect string `json:"redirect"`
}

// resolvePublishedBody is resolvePublishedContentByUrl's body.
type resolvePublishedBody struct {
	URL             *string `json:"url"`
	RedirectOnError bool    `json:"redirectOnError"`
	Visitor         *struct {
		Type           *string        `json:"type"`
		JWTToken       string         `json:"jwtToken"`
		UnsignedClaims map[string]any `json:"unsignedClaims"`
	} `json:"visitor"`
}

// getPublishedContentByURL answers GET /v1/urls/published?url=&visitorAuthToken=&redirectOnError=.
func (a *api) getPublishedContentByURL(w http.ResponseWriter, r *http.Request) {
	q := query{r}
	raw := q.str("url")
	redirect, err := q.boolean("redirectOnError")
	switch {
	case raw == nil:
		err = missing("url")
	case err == nil:
		var audience sites.Audience
		if token := q.str("visitorAuthToken"); token != nil {
			audience.Token = *token
		}
		found, err := a.r.PublishedContentByURL(r.Context(), *raw, audience, redirect != nil && *redirect)
		respondWith(w, r, http.StatusOK, found, err, publishedSiteContent)
		return
	}
	writeError(w, r, err)
}

// resolvePublishedContentByURL answers POST /v1/urls/published.
func (a *api) resolvePublishedContentByURL(w http.ResponseWriter, r *http.Request) {
	var body resolvePublishedBody
	err := decodeBody(r, &body)
	if err == nil && body.URL == nil {
		err = missing("url")
	}
	var audience sites.Audience
	if v := body.Visitor; err == nil && v != nil {
		if v.Type != nil && *v.Type != "human" && *v.Type != "agent" {
			err = apperr.Invalidf("visitor.type: must be human or agent, got %q", check.Truncate(*v.Type, 40))
		}
		audience = sites.Audience{Token: v.JWTToken, Claims: map[string]any{"unsigned": v.UnsignedClaims}}
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	found, err := a.r.PublishedContentByURL(r.Context(), *body.URL, audience, body.RedirectOnError)
	respondWith(w, r, http.StatusOK, found, err, publishedSiteContent)
}

// publishedSiteContent is the wire shape of a resolved published URL: PublishedSiteContent, or
// PublishedContentRedirect.
func publishedSiteContent(_ context.Context, found *graph.PublishedURLContent) (any, error) {
	switch {
	case found.External:
		return PublishedContentRedirect{Target: "external", Site: found.Visit.Site.ID, Redirect: found.Redirect}, nil
	case found.Redirect != "":
		return PublishedContentRedirect{Target: "application", Redirect: found.Redirect}, nil
	}
	loc := found.Location
	return PublishedSiteContent{Organization: found.Visit.Site.OrganizationID, Site: found.Visit.Site.ID,
		SiteSection: sites.SectionID(loc.Section), SiteSpace: loc.SiteSpace.ID, Space: loc.SiteSpace.SpaceID,
		Revision: found.Content.Revision.ID, Page: found.Page.ID, Pathname: loc.PagePath,
		BasePath: found.URL.BasePath + loc.BasePath(), SiteBasePath: found.URL.BasePath, ShareKey: found.ShareKey,
		Complete: true, CanonicalURL: found.CanonicalURL()}, nil
}
