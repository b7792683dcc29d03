package rest

import (
	"context"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/content/links"
	"github.com/binderyhq/bindery/internal/linkstatus"
)

// Wire shapes of links (spec/01 "Link and backlink items"): a link item names its target with the
// reference's ContentRef and where it is with ContentLocations of the pages that link there; a
// backlink item is such a page location.

// Link is the wire shape of a link item.
type Link struct {
	Status             string         `json:"status"`
	Relation           string         `json:"relation"`
	TargetReference    ContentRef     `json:"targetReference"`
	LocationReferences []PageLocation `json:"locationReferences"`
}

// ContentRef is the reference's relative reference to content: a page, an anchor in a page, a
// file, a space or a URL.
type ContentRef struct {
	Kind   string `json:"kind"`
	Page   string `json:"page,omitempty"`
	Anchor string `json:"anchor,omitempty"`
	File   string `json:"file,omitempty"`
	Space  string `json:"space,omitempty"`
	URL    string `json:"url,omitempty"`
}

// PageLocation is the reference's ContentLocationPage: a page (without its subpages) with its
// space and organization; in a change request's content, versionContext names the change request.
// A revision's context is left out: the reference's Revision carries the whole page tree.
type PageLocation struct {
	Kind           string          `json:"kind"`
	Organization   Organization    `json:"organization"`
	Space          Space           `json:"space"`
	Page           RevisionPage    `json:"page"`
	VersionContext *versionContext `json:"versionContext,omitempty"`
}

type versionContext struct {
	Type          string         `json:"type"`
	ChangeRequest *ChangeRequest `json:"changeRequest"`
}

// LinkList is List<Link> with the stats of the whole list, whatever its status filter.
type LinkList struct {
	List[Link]
	Stats linkStats `json:"stats"`
}

type linkStats struct {
	Total  int         `json:"total"`
	Broken brokenStats `json:"broken"`
}

// brokenStats: changeRequest counts the broken links a change request introduced.
type brokenStats struct {
	Total         int `json:"total"`
	ChangeRequest int `json:"changeRequest"`
}

// locator converts the pages of one content read into locations: the organization, space and
// change request they show are converted once per response.
type locator struct {
	view contentView
	base PageLocation
}

func (a *api) locator(ctx context.Context, c *graph.Content) (*locator, error) {
	l := &locator{view: a.contentView(c), base: PageLocation{Kind: "page"}}
	err := parallel(
		func() (err error) { l.base.Organization, err = a.linkOrganization(ctx, c); return err },
		func() (err error) { l.base.Space, err = a.space(ctx, c.Space); return err },
		func() error {
			if c.ChangeRequest == nil {
				return nil
			}
			cr, err := a.changeRequest(ctx, c.ChangeRequest)
			l.base.VersionContext = &versionContext{Type: "changeRequest", ChangeRequest: &cr}
			return err
		},
	)
	return l, err
}

// linkOrganization is the organization a location shows: in full for its members; for a reader
// from outside (of a public space) without its settings (email domains, hostname, default role
// and content, single sign-on, AI, invite links, logo), which are left at their neutral values.
func (a *api) linkOrganization(ctx context.Context, c *graph.Content) (Organization, error) {
	o, member, err := a.r.LinkOrganization(ctx, c.Space)
	if err != nil {
		return Organization{}, err
	}
	w, err := a.organization(ctx, o)
	if !member {
		w.EmailDomains, w.Hostname, w.UseCase, w.CommunityType, w.DefaultRole, w.DefaultContent = []string{}, nil, nil, nil, nil, nil
		w.SSO, w.AI, w.InviteLinks, w.URLs.Logo = false, false, false, ""
	}
	return w, err
}

func (l *locator) page(s *linkstatus.Source) PageLocation {
	loc := l.base
	loc.Page = l.view.pageAlone(s.Page, s.Path)
	return loc
}

func (l *locator) link(_ context.Context, k *linkstatus.Link) (Link, error) {
	locs := make([]PageLocation, len(k.Sources))
	for i, s := range k.Sources {
		locs[i] = l.page(s)
	}
	return Link{Status: string(k.Status), Relation: "reference", TargetReference: contentRef(k.Target),
		LocationReferences: locs}, nil
}

// contentRef is the ContentRef of a link target; a page link with an anchor is an anchor ref.
func contentRef(t links.Target) ContentRef {
	switch t.Kind {
	case links.Page:
		if t.Anchor != "" {
			return ContentRef{Kind: "anchor", Page: t.Ref, Anchor: t.Anchor}
		}
		return ContentRef{Kind: "page", Page: t.Ref}
	case links.File:
		return ContentRef{Kind: "file", File: t.Ref}
	case links.Space:
		return ContentRef{Kind: "space", Space: t.Ref}
	}
	return ContentRef{Kind: "url", URL: t.Ref}
}

func wireLinkStats(s *model.LinkStats) linkStats {
	return linkStats{Total: s.Total, Broken: brokenStats{Total: s.Broken, ChangeRequest: s.BrokenInChangeRequest}}
}
