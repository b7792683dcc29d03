package loader

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/sitesharelink"
	"github.com/binderyhq/bindery/internal/page"
)

// ShareLinkFilter narrows a site's share links.
type ShareLinkFilter struct {
	Search  string // contained in the name, any case
	KeyHash string // or: the hash of the link's key (Search's, when Search is given)
}

// ShareLinkPage returns one page of a site's share links, newest first.
func (l *Loaders) ShareLinkPage(ctx context.Context, s *ent.Site, f ShareLinkFilter, a page.Args) (Page[*ent.SiteShareLink], error) {
	return Get(ctx, l.client, shareLinkPages, s, func(s *ent.Site) pageKey[ShareLinkFilter] { return pageOf(s.ID, f, a) })
}

var shareLinkPages = pages("share link pages", fromQuery(pageSource[ShareLinkFilter, *ent.SiteShareLink]{
	partition: []string{sitesharelink.FieldSiteID},
	order: func(ShareLinkFilter) page.Order {
		return page.Order{Column: sitesharelink.FieldCreatedAt, Desc: true}
	},
	parentOf:  func(l *ent.SiteShareLink) string { return l.SiteID },
	idOf:      func(l *ent.SiteShareLink) string { return l.ID },
	cursorKey: func(l *ent.SiteShareLink, _ ShareLinkFilter) any { return l.CreatedAt },
	timeKeyed: true,
}, func(c *ent.Client, f ShareLinkFilter) *ent.SiteShareLinkQuery {
	return c.SiteShareLink.Query().Where(f.predicates()...)
}))

func (f ShareLinkFilter) predicates() []predicate.SiteShareLink {
	var where []predicate.SiteShareLink
	if f.Search != "" {
		where = append(where, sitesharelink.Or(sitesharelink.NameContainsFold(f.Search),
			sitesharelink.KeyHash([]byte(f.KeyHash))))
	}
	return where
}
