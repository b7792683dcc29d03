package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/appurl"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/sites"
)

// URLContent is what an app URL of this server shows: a collection, or a space with its content
// (main, or a change request's; nil for a space without content) and the page at the URL's path.
type URLContent struct {
	Collection *ent.Collection
	Space      *ent.Space
	Content    *Content
	Page       *tree.Page
}

// ContentByURL reads what app URL raw shows (appurl.Parse), each part as the viewer reads it. A
// published page's URL (appurl.ParseSite) shows the space and the page its reader sees
// (PublishedContentByURL), read then as the viewer reads the space. Returns INVALID for a URL
// that is neither, NOT_FOUND for one that shows nothing the viewer reads (another organization's
// objects included).
func (r *Resolver) ContentByURL(ctx context.Context, raw string) (*URLContent, error) {
	if _, err := appurl.ParseSite("url", r.BaseURL, raw); err == nil {
		return r.publishedURLContent(ctx, raw)
	}
	t, err := appurl.Parse("url", r.BaseURL, raw)
	if err != nil {
		return nil, err
	}
	if t.Collection != "" {
		c, err := r.collection(ctx, t.Collection)
		if err == nil && c.OrganizationID != t.Organization {
			err = apperr.NotFoundf("collection not found")
		}
		return &URLContent{Collection: c}, err
	}
	return r.spaceURLContent(ctx, t)
}

// publishedURLContent reads the space and page a published page's URL shows its reader, as the
// viewer reads them. Returns NOT_FOUND when the URL shows no page or the viewer cannot read the
// space.
func (r *Resolver) publishedURLContent(ctx context.Context, raw string) (*URLContent, error) {
	found, err := r.PublishedContentByURL(ctx, raw, sites.Audience{}, false)
	if err != nil {
		if e := apperr.As(err); e == nil || e.Kind != apperr.Invalid {
			err = apperr.NotFoundf("url: no content at %q that the viewer reads", check.Truncate(raw, 100))
		}
		return nil, err
	}
	return r.spaceURLContent(ctx, appurl.Target{Organization: found.Visit.Site.OrganizationID,
		Space: found.Location.SiteSpace.SpaceID, PagePath: found.Content.Tree.Path(found.Page.ID)})
}

// spaceURLContent reads the space, content and page of target t.
func (r *Resolver) spaceURLContent(ctx context.Context, t appurl.Target) (*URLContent, error) {
	s, err := r.space(ctx, t.Space)
	if err == nil && s.OrganizationID != t.Organization {
		err = apperr.NotFoundf("space not found")
	}
	if err != nil {
		return nil, err
	}
	var c *Content
	if t.ChangeRequest != "" {
		c, err = r.ChangeRequestContent(ctx, s.ID, t.ChangeRequest, nil)
	} else if s.RevisionID != nil || t.PagePath != "" {
		c, err = r.SpaceContent(ctx, s.ID, nil)
	}
	if err != nil || t.PagePath == "" {
		return &URLContent{Space: s, Content: c}, err
	}
	p, err := c.PageByPath(t.PagePath)
	return &URLContent{Space: s, Content: c, Page: p}, err
}

// contentByURL is Query.contentByUrl.
func (r *Resolver) contentByURL(ctx context.Context, raw string) (*model.URLContent, error) {
	found, err := r.ContentByURL(ctx, raw)
	if err != nil {
		return nil, err
	}
	out := &model.URLContent{Collection: found.Collection, Space: found.Space}
	if c := found.Content; c != nil {
		out.ChangeRequest, out.Revision = c.ChangeRequest, c.Revision
	}
	if found.Page != nil {
		out.Page, err = r.contentPage(ctx, found.Content.Revision, func(t *tree.Tree) *tree.Page { return t.Page(found.Page.ID) })
	}
	return out, err
}
