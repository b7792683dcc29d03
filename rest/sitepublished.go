package rest

import (
	"context"
	"net/http"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/model"
)

// PublishedContentSite is the wire shape of a site as its renderer needs it (the reference's
// PublishedContentSite). Bindery runs no integrations, so `scripts` is always empty.
type PublishedContentSite struct {
	Object         string                  `json:"object"`
	Site           Site                    `json:"site"`
	Structure      SiteStructure           `json:"structure"`
	Customizations publishedCustomizations `json:"customizations"`
	Scripts        []struct{}              `json:"scripts"`
}

// publishedCustomizations are the site's settings and each site space's, by site space id.
type publishedCustomizations struct {
	Site       any            `json:"site"`
	SiteSpaces map[string]any `json:"siteSpaces"`
}

// getPublishedContentSite answers GET …/published (decision 176); with `shareKey`, the answer's
// published URLs carry the key, and a key that opens nothing is 404 (decision 161).
func (a *api) getPublishedContentSite(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s, err := a.siteOf(ctx, r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	pc, err := a.r.Site().PublishedContent(ctx, s, query{r}.str("shareKey"))
	respondWith(w, r, http.StatusOK, pc, err, a.publishedContentSite)
}

func (a *api) publishedContentSite(ctx context.Context, pc *model.PublishedContentSite) (PublishedContentSite, error) {
	if pc.ShareKey != nil {
		ctx = graph.WithSiteShareKey(ctx, pc.Site.ID, *pc.ShareKey)
	}
	w := PublishedContentSite{Object: "published-content-site", Scripts: []struct{}{}}
	var err error
	if w.Site, err = a.site(ctx, pc.Site); err != nil {
		return w, err
	}
	pr := a.r.PublishedContentSite()
	st, err := pr.Structure(ctx, pc)
	if err != nil {
		return w, err
	}
	if w.Structure, err = a.siteStructure(pc.Site)(ctx, st); err != nil {
		return w, err
	}
	c, err := pr.Customizations(ctx, pc)
	if err != nil {
		return w, err
	}
	w.Customizations = publishedCustomizations{Site: c.Site, SiteSpaces: make(map[string]any, len(c.SiteSpaces))}
	for _, sc := range c.SiteSpaces {
		w.Customizations.SiteSpaces[sc.SiteSpace.ID] = sc.Settings
	}
	return w, nil
}
