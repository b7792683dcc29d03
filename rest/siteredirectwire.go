package rest

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
)

// SiteRedirect is the wire shape of a site redirect (the reference client's SiteRedirect).
// updatedAt is absent until the redirect changes after its creation.
type SiteRedirect struct {
	Object          string              `json:"object"`
	ID              string              `json:"id"`
	Source          string              `json:"source"`
	Draft           bool                `json:"draft"`
	CaptureWildcard bool                `json:"captureWildcard"`
	Permanent       bool                `json:"permanent"`
	Destination     RedirectDestination `json:"destination"`
	CreatedAt       time.Time           `json:"createdAt"`
	UpdatedAt       *time.Time          `json:"updatedAt,omitempty"`
}

// RedirectDestination is the wire shape of where a redirect leads (the reference's
// SiteRedirectDestination): the fields of its kind.
type RedirectDestination struct {
	Kind          string  `json:"kind"`
	SiteSectionID *string `json:"siteSectionId,omitempty"`
	SiteSpaceID   *string `json:"siteSpaceId,omitempty"`
	PageID        *string `json:"pageId,omitempty"`
	URL           *string `json:"url,omitempty"`
}

// RedirectTarget is the answer of getSiteRedirectBySource.
type RedirectTarget struct {
	Redirect SiteRedirect `json:"redirect"`
	Target   string       `json:"target"`
}

// RedirectResult is one item's result in the answer of bulkUpsertSiteRedirects.
type RedirectResult struct {
	Status string  `json:"status"`
	Source string  `json:"source"`
	Draft  bool    `json:"draft"`
	ID     *string `json:"id,omitempty"`
	Error  *string `json:"error,omitempty"`
}

func (a *api) siteRedirect(ctx context.Context, red *ent.SiteRedirect) (SiteRedirect, error) {
	rr := a.r.SiteRedirect()
	dest, err := rr.Destination(ctx, red)
	if err != nil {
		return SiteRedirect{}, err
	}
	updated, err := rr.UpdatedAt(ctx, red)
	return SiteRedirect{
		Object: "site-redirect", ID: red.ID, Source: red.Source, Draft: red.Draft,
		CaptureWildcard: red.CaptureWildcard, Permanent: red.Permanent, CreatedAt: red.CreatedAt, UpdatedAt: updated,
		Destination: RedirectDestination{Kind: wireEnum(string(dest.Kind)), SiteSectionID: dest.SiteSectionID,
			SiteSpaceID: dest.SiteSpaceID, PageID: dest.PageID, URL: dest.URL},
	}, err
}

// redirectTarget is a found redirect and its target.
func (a *api) redirectTarget(ctx context.Context, t *model.SiteRedirectTarget) (RedirectTarget, error) {
	red, err := a.siteRedirect(ctx, t.Redirect)
	return RedirectTarget{Redirect: red, Target: t.Target}, err
}

func bulkResults(_ context.Context, results []*model.SiteRedirectUpsertResult) (map[string][]RedirectResult, error) {
	out := make([]RedirectResult, len(results))
	for i, res := range results {
		out[i] = RedirectResult{Status: wireEnum(string(res.Status)), Source: res.Source, Draft: res.Draft, ID: res.ID, Error: res.Error}
	}
	return map[string][]RedirectResult{"results": out}, nil
}

// wireEnum is a GraphQL enum value as the reference writes it: SITE_PAGE is site-page.
func wireEnum(v string) string { return strings.ReplaceAll(strings.ToLower(v), "_", "-") }

// destinationBody is a destination in a request body (the reference's
// SiteRedirectInputDestination): its kind and the fields of that kind.
type destinationBody struct {
	Kind          destinationKind `json:"kind"`
	SiteSectionID *string         `json:"siteSectionId"`
	SiteSpaceID   *string         `json:"siteSpaceId"`
	PageID        *string         `json:"pageId"`
	URL           *string         `json:"url"`
	SpaceID       *string         `json:"spaceId"`
	Path          *string         `json:"path"`
}

// input converts a destination given under field. Returns INVALID when it or its kind is absent.
func (d *destinationBody) input(field string) (*model.SiteRedirectDestinationInput, error) {
	if d == nil {
		return nil, missing(field)
	}
	if d.Kind == "" {
		return nil, missing(field + ".kind")
	}
	return &model.SiteRedirectDestinationInput{Kind: model.SiteRedirectDestinationInputKind(d.Kind),
		SiteSectionID: d.SiteSectionID, SiteSpaceID: d.SiteSpaceID, PageID: d.PageID, URL: d.URL,
		SpaceID: d.SpaceID, Path: d.Path}, nil
}

// destinationKind is a destination's kind in a request body, read as the resolver's enum.
type destinationKind model.SiteRedirectDestinationInputKind

func (k *destinationKind) UnmarshalJSON(b []byte) error {
	var s string
	_ = json.Unmarshal(b, &s)
	v := model.SiteRedirectDestinationInputKind(strings.ToUpper(strings.ReplaceAll(s, "-", "_")))
	if !v.IsValid() || s != wireEnum(string(v)) {
		return invalidValue("must be one of site-section, site-space, site-page, external, path")
	}
	*k = destinationKind(v)
	return nil
}

// upsertItem is an item of a bulk upsert's body.
type upsertItem struct {
	Source          *string                   `json:"source"`
	Intent          *redirectIntent           `json:"intent"`
	CaptureWildcard *bool                     `json:"captureWildcard"`
	Permanent       *bool                     `json:"permanent"`
	Destination     nullable[destinationBody] `json:"destination"`
}

// input converts an item given under field. Returns INVALID naming a field absent.
func (it upsertItem) input(field string) (*model.SiteRedirectUpsertInput, error) {
	if it.Source == nil {
		return nil, missing(field + ".source")
	}
	in := &model.SiteRedirectUpsertInput{Source: *it.Source, Intent: (*model.SiteRedirectIntent)(it.Intent),
		CaptureWildcard: it.CaptureWildcard, Permanent: it.Permanent}
	if it.Destination.Set {
		var dest *model.SiteRedirectDestinationInput
		if it.Destination.Value != nil {
			var err error
			if dest, err = it.Destination.Value.input(field + ".destination"); err != nil {
				return nil, err
			}
		}
		in.Destination = graphql.OmittableOf(dest)
	}
	return in, nil
}

// redirectIntent is an item's intent in a request body: live, draft or publish.
type redirectIntent model.SiteRedirectIntent

func (i *redirectIntent) UnmarshalJSON(b []byte) error {
	var s string
	_ = json.Unmarshal(b, &s)
	v := model.SiteRedirectIntent(strings.ToUpper(s))
	if !v.IsValid() || s != strings.ToLower(s) {
		return invalidValue("must be one of live, draft, publish")
	}
	*i = redirectIntent(v)
	return nil
}
