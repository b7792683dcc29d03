package graph

import (
	"context"
	"slices"
	"sync"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/readcache"
	"github.com/binderyhq/bindery/internal/sites"
)

// publishedContent is Site.publishedContent (getPublishedContentSite): the site as its renderer
// needs it, unpublished ones too (decision 176). shareKey, when given, must open the site
// (SiteShareKey); the URLs under the answer then carry it (keyedURL).
// Returns NOT_FOUND for a key that opens nothing, INVALID for one too long to be a key.
func (r *Resolver) publishedContent(ctx context.Context, s *ent.Site, shareKey *string) (*model.PublishedContentSite, error) {
	key, err := r.SiteShareKey(ctx, s, shareKey)
	if err != nil {
		return nil, err
	}
	return &model.PublishedContentSite{Site: s, ShareKey: key}, nil
}

// publishedCustomizations is PublishedContentSite.customizations: the site's settings, and each
// site space's the viewer sees (the site's with the site space's override over them). The site
// spaces of every site of the level are read in one statement.
func (r *Resolver) publishedCustomizations(ctx context.Context, pc *model.PublishedContentSite) (*model.PublishedSiteCustomizations, error) {
	s := pc.Site
	all, err := loader.For(ctx, r.Client).AllSiteSpaces(ctx, s)
	if err != nil {
		return nil, err
	}
	out := &model.PublishedSiteCustomizations{Site: sites.Customization(ctx, s), SiteSpaces: make([]*model.SiteSpaceCustomization, len(all))}
	for i, ss := range all {
		out.SiteSpaces[i] = &model.SiteSpaceCustomization{SiteSpace: ss, Settings: sites.SiteSpaceCustomization(ctx, s, ss)}
	}
	return out, nil
}

// siteShareKeyContext carries the share key a request resolved for a site (WithSiteShareKey).
type siteShareKeyContext struct{}

type resolvedShareKey struct{ siteID, key string }

// WithSiteShareKey returns ctx carrying key, resolved for site siteID by SiteShareKey: the URLs
// of that site that resolvers write under ctx carry it (decision 161). REST sets it for an
// operation's `shareKey`.
func WithSiteShareKey(ctx context.Context, siteID, key string) context.Context {
	return context.WithValue(ctx, siteShareKeyContext{}, resolvedShareKey{siteID: siteID, key: key})
}

// keyedURL returns u, a URL of site siteID where publish serves it, as the reader needs it: with
// the share key resolved for that site, when there is one (shareKeyFor).
func keyedURL(ctx context.Context, siteID, u string) string {
	if key := shareKeyFor(ctx, siteID); key != "" {
		return SharedURL(u, key)
	}
	return u
}

// shareKeyFor returns the share key resolved for site siteID in ctx: REST's (WithSiteShareKey),
// or in GraphQL that of the nearest Site.publishedContent above the field being resolved, whose
// answer gqlgen keeps on its field context before resolving the fields under it. A key is only
// ever for its own site: another site reached under the field gets none.
func shareKeyFor(ctx context.Context, siteID string) string {
	if k, ok := ctx.Value(siteShareKeyContext{}).(resolvedShareKey); ok {
		return keyOfSite(siteID, k.siteID, &k.key)
	}
	for fc := graphql.GetFieldContext(ctx); fc != nil; fc = fc.Parent {
		if pc, ok := fc.Result.(*model.PublishedContentSite); ok {
			return keyOfSite(siteID, pc.Site.ID, pc.ShareKey)
		}
	}
	return ""
}

// keyOfSite is key, resolved for site keySite, when that is site; "" otherwise.
func keyOfSite(site, keySite string, key *string) string {
	if key == nil || site != keySite {
		return ""
	}
	return *key
}

// VisitSite returns the published site ref names as a reader with the given audience sees it,
// and admits the reader, a viewer.Visitor, to its spaces (sites.Service.Visit).
func (r *Resolver) VisitSite(ctx context.Context, ref sites.SiteRef, a sites.Audience) (*sites.Visit, error) {
	return r.sitesService().Visit(ctx, ref, a)
}

// VisitorFallbackURL is where a visitor-auth site sends readers without a valid token
// (sites.Service.VisitorFallbackURL).
func (r *Resolver) VisitorFallbackURL(ctx context.Context, ref sites.SiteRef) string {
	return r.sitesService().VisitorFallbackURL(ctx, ref)
}

// readerState is what the Resolver keeps for the readers of published sites under the database's
// version (decision 400): built on first use.
type readerState struct {
	readerOnce sync.Once
	structures *sites.Structures
	contents   *readcache.Table[string, *Content] // the active content of a space, by its id
}

// How many sites' rows and spaces' contents readers' visits keep.
const (
	keptSites    = 1024
	keptContents = 4096
)

func (r *Resolver) readers() *readerState {
	r.readerOnce.Do(func() {
		r.structures = sites.NewStructures(keptSites)
		r.contents = readcache.NewTable[string, *Content](keptContents)
	})
	return &r.readerState
}

// AdmittedSpaceContent is SpaceContent for a published site's reader: the active content of a
// space the site admitted them to (VisitSite), the space and revision rows kept under the
// database's version, so that the next reader of an unchanged database reads none. The rows are
// the same whoever reads them, and the reader may read them: the site admitted them to the space.
// Returns NOT_FOUND as SpaceContent does.
func (r *Resolver) AdmittedSpaceContent(ctx context.Context, spaceID string) (*Content, error) {
	read := func() (*Content, error) { return r.SpaceContent(ctx, spaceID, nil) }
	if !slices.Contains(viewer.FromContext(ctx).Admitted(), spaceID) {
		return read()
	}
	return r.readers().contents.Read(ctx, spaceID, read)
}
