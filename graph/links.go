package graph

import (
	"context"
	"slices"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/content/links"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/linkstatus"
	"github.com/binderyhq/bindery/internal/page"
)

// Links translate between the schema and internal/linkstatus, which lists a revision's links with
// their statuses and a file's backlinks; graph pages the lists.

// linkStatuses is the link statuses as this resolver's viewer reads them.
func (r *Resolver) linkStatuses() *linkstatus.Service {
	return &linkstatus.Service{Client: r.Client, Contents: r.content(), App: r.BaseURL}
}

// LinkArgs filter and page a list of links.
type LinkArgs struct {
	Status *links.Status // nil lists every status
	First  *int
	After  *string
}

// RevisionLinks returns the links of every page of a revision, one per target with the pages
// linking there (linkstatus.Service.RevisionLinks). Returns INVALID for a bad page size or cursor.
func (r *Resolver) RevisionLinks(ctx context.Context, rev *ent.Revision, t *tree.Tree, args LinkArgs) (*model.LinkConnection, error) {
	return linkList(ctx, args, func() ([]*linkstatus.Link, links.Stats, error) {
		return r.linkStatuses().RevisionLinks(ctx, rev, t)
	})
}

// PageLinks returns the links of one page of a revision (linkstatus.Service.PageLinks). Returns
// INVALID for a bad page size or cursor.
func (r *Resolver) PageLinks(ctx context.Context, rev *ent.Revision, t *tree.Tree, p *tree.Page, args LinkArgs) (*model.LinkConnection, error) {
	return linkList(ctx, args, func() ([]*linkstatus.Link, links.Stats, error) {
		return r.linkStatuses().PageLinks(ctx, rev, t, p)
	})
}

// linkList answers one page of the checked links that list returns, filtered by status, with
// the stats over all of them.
func linkList(ctx context.Context, args LinkArgs, list func() ([]*linkstatus.Link, links.Stats, error)) (*model.LinkConnection, error) {
	pa, err := page.NewArgs(args.First, args.After)
	if err != nil {
		return nil, err
	}
	items, stats, err := list()
	if err != nil {
		return nil, err
	}
	items = slices.DeleteFunc(items, func(l *linkstatus.Link) bool { return args.Status != nil && l.Status != *args.Status })
	p := pageOf(items, pa, linkCursor, func(l *linkstatus.Link, after *page.Cursor) bool {
		kind, _ := after.Key.(string)
		return linkstatus.Compare(l.Target, links.Target{Kind: links.Kind(kind), Ref: after.ID}) > 0
	})
	return &model.LinkConnection{
		Edges: edges(ctx, p.Items, linkCursor, func(c string, l *linkstatus.Link) *model.LinkEdge {
			return &model.LinkEdge{Cursor: c, Node: l}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
		Stats: &model.LinkStats{Total: stats.Total, Broken: stats.Broken, BrokenInChangeRequest: stats.BrokenIntroduced},
	}, nil
}

// linkCursor names a link by its target: its kind and ID.
func linkCursor(l *linkstatus.Link) page.Cursor {
	return page.Cursor{Key: string(l.Target.Kind), ID: l.Target.ID()}
}

// FileBacklinks returns the pages of a revision whose Markdown links to a file, by path then id
// (linkstatus.Service.Backlinks). Returns INVALID for a bad page size or cursor.
func (r *Resolver) FileBacklinks(ctx context.Context, t *tree.Tree, fileID string, first *int, after *string) (*model.LinkSourceConnection, error) {
	pa, err := page.NewArgs(first, after)
	if err != nil {
		return nil, err
	}
	sources, err := r.linkStatuses().Backlinks(ctx, t, fileID)
	if err != nil {
		return nil, err
	}
	p := pageOf(sources, pa, sourceCursor, func(s *linkstatus.Source, after *page.Cursor) bool {
		path, _ := after.Key.(string)
		return s.Path > path || (s.Path == path && s.ID > after.ID)
	})
	return &model.LinkSourceConnection{
		Edges: edges(ctx, p.Items, sourceCursor, func(c string, s *linkstatus.Source) *model.LinkSourceEdge {
			return &model.LinkSourceEdge{Cursor: c, Node: s}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func sourceCursor(s *linkstatus.Source) page.Cursor { return page.Cursor{Key: s.Path, ID: s.ID} }

// pageOf is one page of sorted items held in memory: the first ones after the cursor (isAfter
// says whether an item sorts after it), at most the page size.
func pageOf[T any](items []T, a page.Args, cursorOf func(T) page.Cursor, isAfter func(T, *page.Cursor) bool) page.Page[T] {
	start := 0
	if a.After != nil {
		if start = slices.IndexFunc(items, func(it T) bool { return isAfter(it, a.After) }); start < 0 {
			start = len(items)
		}
	}
	rows := items[start:min(len(items), start+a.Limit+1)]
	return page.Trim(rows, a.Limit, len(items), cursorOf)
}

// LinkOrganization returns the organization of a space the viewer reads, which link locations
// show beside the page. A reader from outside it (of a public space) gets it too, with member
// false: callers show them only what names it, as authors come as public profiles.
func (r *Resolver) LinkOrganization(ctx context.Context, s *ent.Space) (o *ent.Organization, member bool, err error) {
	if _, member = viewer.FromContext(ctx).Membership(s.OrganizationID); member {
		o, err = organizationOf(ctx, r, s, func(s *ent.Space) string { return s.OrganizationID })
		return o, true, err
	}
	// The viewer read the space, so the organization's name is theirs to see; its policy shows
	// organizations to members only.
	o, err = r.Client.Organization.Get(privacy.DecisionContext(ctx, privacy.Allow), s.OrganizationID)
	return o, false, err
}

// GraphQL fields of links: on Revision, with a lookup that is null when the page or file is not
// in the revision, as Revision.page and Revision.file are.

// revisionLinks is Revision.links.
func (r *Resolver) revisionLinks(ctx context.Context, rev *ent.Revision, args LinkArgs) (*model.LinkConnection, error) {
	t, err := r.revisionTree(ctx, rev)
	if err != nil {
		return nil, err
	}
	return r.RevisionLinks(ctx, rev, t, args)
}

// revisionPageLinks is Revision.pageLinks: nil when the revision has no such page.
func (r *Resolver) revisionPageLinks(ctx context.Context, rev *ent.Revision, pageID string, args LinkArgs) (*model.LinkConnection, error) {
	t, err := r.revisionTree(ctx, rev)
	if err != nil || t.Page(pageID) == nil {
		return nil, err
	}
	return r.PageLinks(ctx, rev, t, t.Page(pageID), args)
}

// revisionFileBacklinks is Revision.fileBacklinks: nil when the revision has no such file.
func (r *Resolver) revisionFileBacklinks(ctx context.Context, rev *ent.Revision, fileID string, first *int, after *string) (*model.LinkSourceConnection, error) {
	t, err := r.revisionTree(ctx, rev)
	if err != nil || t.File(fileID) == nil {
		return nil, err
	}
	return r.FileBacklinks(ctx, t, fileID, first, after)
}

// linkTarget is Link.target: the target's id in the field of its kind.
func linkTarget(l *linkstatus.Link) *model.LinkTarget {
	t := l.Target
	out := &model.LinkTarget{Kind: string(t.Kind)}
	ref := &t.Ref
	switch t.Kind {
	case links.Page:
		out.Page = ref
		if t.Anchor != "" {
			out.Anchor = &t.Anchor
		}
	case links.File:
		out.File = ref
	case links.Space:
		out.Space = ref
	case links.URL:
		out.URL = ref
	}
	return out
}
