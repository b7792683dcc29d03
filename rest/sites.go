package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/graph/model"
)

// Site is the wire shape of a site (the reference client's Site).
type Site struct {
	Object          string                 `json:"object"`
	ID              string                 `json:"id"`
	Type            string                 `json:"type"`
	AppliedType     string                 `json:"appliedType"`
	Title           string                 `json:"title"`
	Hostname        *string                `json:"hostname,omitempty"`
	Basename        *string                `json:"basename,omitempty"`
	Proxy           *model.SiteProxy       `json:"proxy,omitempty"`
	Visibility      string                 `json:"visibility"`
	DefaultLevel    string                 `json:"defaultLevel"`
	Permissions     *model.SitePermissions `json:"permissions"`
	Published       bool                   `json:"published"`
	SiteSpaces      int                    `json:"siteSpaces"`
	CreatedAt       time.Time              `json:"createdAt"`
	AdaptiveContent siteAdaptiveContent    `json:"adaptiveContent"`
	Features        []struct{}             `json:"features"`
	URLs            siteURLs               `json:"urls"`
}

type siteAdaptiveContent struct {
	Enabled bool `json:"enabled"`
}

type siteURLs struct {
	Location  string `json:"location"`
	App       string `json:"app"`
	Preview   string `json:"preview"`
	Published string `json:"published,omitempty"`
}

// site converts a site to its wire shape. Sites follow the organization role (defaultLevel
// inherit) and have no premium features.
func (a *api) site(ctx context.Context, s *ent.Site) (Site, error) {
	sr := a.r.Site()
	preview, err := sr.URL(ctx, s)
	if err != nil {
		return Site{}, err
	}
	w := Site{
		Object: "site", ID: s.ID, Type: string(s.Type), AppliedType: string(s.Type), Title: s.Title,
		Hostname: s.Hostname, Basename: s.Basename,
		Visibility: string(s.Visibility), DefaultLevel: "inherit", Published: s.Published,
		SiteSpaces: s.SiteSpacesCount, CreatedAt: s.CreatedAt,
		AdaptiveContent: siteAdaptiveContent{Enabled: s.AdaptiveContentEnabled}, Features: []struct{}{},
		URLs: siteURLs{Location: a.siteLocation(s), App: a.url("/o/" + s.OrganizationID + "/sites/" + s.ID),
			Preview: preview},
	}
	if s.Published {
		w.URLs.Published = preview
	}
	if w.Proxy, err = sr.Proxy(ctx, s); err != nil {
		return w, err
	}
	w.Permissions, err = sr.Permissions(ctx, s)
	return w, err
}

func (a *api) siteLocation(s *ent.Site) string {
	return a.url("/v1/orgs/" + s.OrganizationID + "/sites/" + s.ID)
}

func (a *api) listSites(w http.ResponseWriter, r *http.Request) {
	q := query{r}
	published, err := q.boolean("published")
	if err != nil {
		writeError(w, r, err)
		return
	}
	serveList(w, r, a.site, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.Site], error) {
		o, err := a.orgOf(ctx, r)
		if err != nil {
			return nil, err
		}
		return a.r.Organization().Sites(ctx, o, limit, page, q.str("space"), q.str("title"), published)
	})
}

type createSiteBody struct {
	Type       notNull[siteType]       `json:"type"`
	Title      notNull[string]         `json:"title"`
	Visibility notNull[siteVisibility] `json:"visibility"`
	Spaces     siteSpacesField         `json:"spaces"`
}

func (a *api) createSite(w http.ResponseWriter, r *http.Request) {
	var body createSiteBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	s, err := a.r.Mutation().CreateSite(r.Context(), chi.URLParam(r, "organizationId"), model.CreateSiteInput{
		Type: (*site.Type)(body.Type.Value), Title: body.Title.Value,
		Visibility: (*site.Visibility)(body.Visibility.Value), Spaces: body.Spaces.IDs, NewSpace: &body.Spaces.New,
	})
	if err == nil {
		w.Header().Set("Location", a.siteLocation(s))
	}
	respondWith(w, r, http.StatusCreated, s, err, a.site)
}

func (a *api) getSite(w http.ResponseWriter, r *http.Request) {
	s, err := a.siteOf(r.Context(), r)
	respondWith(w, r, http.StatusOK, s, err, a.site)
}

// siteOf loads the site named in the path.
func (a *api) siteOf(ctx context.Context, r *http.Request) (*ent.Site, error) {
	o, err := a.orgOf(ctx, r)
	if err != nil {
		return nil, err
	}
	return a.r.Organization().Site(ctx, o, chi.URLParam(r, "siteId"))
}

// siteType is a site type in a request body; unknown values are refused with the field.
type siteType site.Type

func (t *siteType) UnmarshalJSON(b []byte) error {
	return decodeEnum(b, (*site.Type)(t), site.TypeValidator, "one of basic, premium, ultimate")
}

// siteVisibility is a site visibility in a request body; unknown values are refused with the field.
type siteVisibility site.Visibility

func (v *siteVisibility) UnmarshalJSON(b []byte) error {
	return decodeEnum(b, (*site.Visibility)(v), site.VisibilityValidator, "one of public, unlisted, share-link, visitor-auth")
}
