package loader

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/siteredirect"
	"github.com/binderyhq/bindery/internal/page"
)

// RedirectFilter narrows and sorts a site's redirects.
type RedirectFilter struct {
	Draft  bool   // drafts instead of live redirects
	Search string // contained in the source, any case
	// Order is the column sorted by: created_at and updated_at newest first, source ascending.
	Order string
}

// SiteRedirectPage returns one page of a site's redirects.
func (l *Loaders) SiteRedirectPage(ctx context.Context, s *ent.Site, f RedirectFilter, a page.Args) (Page[*ent.SiteRedirect], error) {
	batch := redirectPagesByTime
	if f.Order == siteredirect.FieldSource {
		batch = redirectPagesBySource
	}
	return Get(ctx, l.client, batch, s, func(s *ent.Site) pageKey[RedirectFilter] { return pageOf(s.ID, f, a) })
}

// The redirects sorted by a time and by source: two batches, as the cursor's key is a time in
// one and text in the other.
var (
	redirectPagesByTime   = redirectPages("site redirect pages by time", true)
	redirectPagesBySource = redirectPages("site redirect pages by source", false)
)

func redirectPages(name string, timeKeyed bool) *Batch[pageKey[RedirectFilter], Page[*ent.SiteRedirect]] {
	return pages(name, fromQuery(pageSource[RedirectFilter, *ent.SiteRedirect]{
		partition: []string{siteredirect.FieldSiteID},
		order: func(f RedirectFilter) page.Order {
			return page.Order{Column: f.Order, Desc: f.Order != siteredirect.FieldSource}
		},
		parentOf:  func(r *ent.SiteRedirect) string { return r.SiteID },
		idOf:      func(r *ent.SiteRedirect) string { return r.ID },
		cursorKey: func(r *ent.SiteRedirect, f RedirectFilter) any { return RedirectSortKey(r, f.Order) },
		timeKeyed: timeKeyed,
	}, func(c *ent.Client, f RedirectFilter) *ent.SiteRedirectQuery {
		return c.SiteRedirect.Query().Where(f.predicates()...)
	}))
}

// RedirectSortKey is a redirect's key in a list sorted by the column order.
func RedirectSortKey(r *ent.SiteRedirect, order string) any {
	switch order {
	case siteredirect.FieldSource:
		return r.Source
	case siteredirect.FieldUpdatedAt:
		return r.UpdatedAt
	}
	return r.CreatedAt
}

func (f RedirectFilter) predicates() []predicate.SiteRedirect {
	where := []predicate.SiteRedirect{siteredirect.Draft(f.Draft)}
	if f.Search != "" {
		where = append(where, siteredirect.SourceContainsFold(f.Search))
	}
	return where
}
