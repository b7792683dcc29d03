package graph

import (
	"context"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/content/bodylinks"
	"github.com/binderyhq/bindery/internal/content/links"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/page"
)

// Links and backlinks of a revision's pages. A whole revision's links and a file's backlinks come
// from the links stored per body (internal/content/bodylinks); one page's links from its body, read at once.
// Statuses are decided at read time against the revision's tree (and, for spaces, what the viewer
// may read), so a page deleted later breaks the links to it in the revisions that lack it.

// LinkArgs filter and page a list of links.
type LinkArgs struct {
	Status *links.Status // nil lists every status
	First  *int
	After  *string
}

// RevisionLinks returns the links of every page of a revision, one per target with the pages
// linking there. Returns INVALID for a bad page size or cursor.
func (r *Resolver) RevisionLinks(ctx context.Context, rev *ent.Revision, t *tree.Tree, args LinkArgs) (*model.LinkConnection, error) {
	return r.linkList(ctx, rev, t, args, r.treeLinks)
}

// PageLinks returns the links of one page of a revision. Returns INVALID for a bad page size or
// cursor.
func (r *Resolver) PageLinks(ctx context.Context, rev *ent.Revision, t *tree.Tree, p *tree.Page, args LinkArgs) (*model.LinkConnection, error) {
	return r.linkList(ctx, rev, t, args, func(ctx context.Context, t *tree.Tree) ([]*model.Link, error) {
		if q := t.Page(p.ID); q != nil {
			return r.pageLinks(ctx, t, q)
		}
		return nil, nil // the page is not in the change request's base
	})
}

// linksOf lists the links of some pages of a tree (one item per target, statuses not set yet).
type linksOf func(ctx context.Context, t *tree.Tree) ([]*model.Link, error)

// linkList checks the links of a revision that list names and answers one page of them, with
// stats over all; in a change request's revision, the broken links it introduced are those
// that the same list in its base did not have broken.
func (r *Resolver) linkList(ctx context.Context, rev *ent.Revision, t *tree.Tree, args LinkArgs, list linksOf) (*model.LinkConnection, error) {
	pa, err := page.NewArgs(args.First, args.After)
	if err != nil {
		return nil, err
	}
	items, err := r.checkedLinks(ctx, t, list)
	if err != nil {
		return nil, err
	}
	stats, err := r.linkStats(ctx, rev, items, list)
	if err != nil {
		return nil, err
	}
	items = slices.DeleteFunc(items, func(l *model.Link) bool { return args.Status != nil && l.Status != *args.Status })
	p := pageOf(items, pa, linkCursor, func(l *model.Link, after *page.Cursor) bool {
		kind, _ := after.Key.(string)
		return compareTargets(l.Target, links.Target{Kind: links.Kind(kind), Ref: after.ID}) > 0
	})
	return &model.LinkConnection{
		Edges: edges(ctx, p.Items, linkCursor, func(c string, l *model.Link) *model.LinkEdge {
			return &model.LinkEdge{Cursor: c, Node: l}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count, Stats: stats,
	}, nil
}

// checkedLinks lists links with list and decides their statuses against t, sorted by target.
func (r *Resolver) checkedLinks(ctx context.Context, t *tree.Tree, list linksOf) ([]*model.Link, error) {
	items, err := list(ctx, t)
	if err != nil {
		return nil, err
	}
	targets := make([]links.Target, len(items))
	for i, l := range items {
		targets[i] = l.Target
	}
	check, err := r.linkChecker(ctx, t, targets)
	if err != nil {
		return nil, err
	}
	for _, l := range items {
		l.Status = check.Status(l.Target)
	}
	slices.SortFunc(items, func(a, b *model.Link) int { return compareTargets(a.Target, b.Target) })
	return items, nil
}

// compareTargets orders link lists: by kind, then by the target's ID (a target t compares with
// the cursor {Kind, Ref: ID} made from it as with t itself).
func compareTargets(a, b links.Target) int {
	if c := strings.Compare(string(a.Kind), string(b.Kind)); c != 0 {
		return c
	}
	return strings.Compare(a.ID(), b.ID())
}

// linkCursor names a link by its target: its kind and ID.
func linkCursor(l *model.Link) page.Cursor {
	return page.Cursor{Key: string(l.Target.Kind), ID: l.Target.ID()}
}

// linkStats counts items; when rev is a change request's, the broken ones it introduced are
// those the same list of its base revision did not have broken.
func (r *Resolver) linkStats(ctx context.Context, rev *ent.Revision, items []*model.Link, list linksOf) (*model.LinkStats, error) {
	now := checkedOf(items)
	s := links.Count(now)
	base, err := r.changeBaseTree(ctx, rev)
	if err != nil || base == nil {
		return statsModel(s), err
	}
	before, err := r.checkedLinks(ctx, base, list)
	if err != nil {
		return nil, err
	}
	s.BrokenIntroduced = links.Introduced(now, checkedOf(before))
	return statsModel(s), nil
}

func checkedOf(items []*model.Link) []links.Checked {
	out := make([]links.Checked, len(items))
	for i, l := range items {
		out[i] = l.Checked
	}
	return out
}

func statsModel(s links.Stats) *model.LinkStats {
	return &model.LinkStats{Total: s.Total, Broken: s.Broken, BrokenInChangeRequest: s.BrokenIntroduced}
}

// changeBaseTree returns the tree of the base of the change request a revision was made in (the
// space revision it was created from or last updated from); nil for the main content's revisions.
func (r *Resolver) changeBaseTree(ctx context.Context, rev *ent.Revision) (*tree.Tree, error) {
	if rev.ChangeRequestID == nil {
		return nil, nil
	}
	cr, err := r.Client.ChangeRequest.Get(ctx, *rev.ChangeRequestID)
	if err != nil {
		return nil, rule.NotFound(err, "change request")
	}
	_, t, err := r.content().RevisionAndTree(ctx, revisions.ChangeRequestBase(cr))
	return t, err
}

// treeLinks lists the links of every page of t from the stored links of their bodies.
func (r *Resolver) treeLinks(ctx context.Context, t *tree.Tree) ([]*model.Link, error) {
	var hashes []string
	t.Walk(func(p *tree.Page, _ string) {
		if p.Body != "" {
			hashes = append(hashes, p.Body)
		}
	})
	slices.Sort(hashes)
	targets, err := bodylinks.Targets(ctx, r.Client, slices.Compact(hashes))
	if err != nil {
		return nil, err
	}
	byTarget := map[links.Target]*model.Link{}
	var items []*model.Link
	t.Walk(func(p *tree.Page, path string) {
		for _, tg := range targets[p.Body] {
			l := byTarget[tg]
			if l == nil {
				l = &model.Link{Checked: links.Checked{Target: tg}}
				byTarget[tg] = l
				items = append(items, l)
			}
			l.Sources = append(l.Sources, &model.LinkSource{Page: p, Path: path})
		}
	})
	return items, nil
}

// pageLinks lists the links of one page of t from its body.
func (r *Resolver) pageLinks(ctx context.Context, t *tree.Tree, p *tree.Page) ([]*model.Link, error) {
	body, err := r.PageBody(ctx, p)
	if err != nil {
		return nil, err
	}
	source := []*model.LinkSource{{Page: p, Path: t.Path(p.ID)}}
	var items []*model.Link
	for _, tg := range links.Extract(body) {
		items = append(items, &model.Link{Checked: links.Checked{Target: tg}, Sources: source})
	}
	return items, nil
}

// linkChecker decides statuses in t: pages and files exist when t has them, spaces when the
// viewer may read them (a space they cannot read is broken for them, as it would not open).
func (r *Resolver) linkChecker(ctx context.Context, t *tree.Tree, targets []links.Target) (links.Checker, error) {
	var spaceIDs []string
	for _, tg := range targets {
		if tg.Kind == links.Space {
			spaceIDs = append(spaceIDs, tg.Ref)
		}
	}
	readable := map[string]bool{}
	for chunk := range slices.Chunk(spaceIDs, revisions.ObjectBatch) {
		ids, err := r.Client.Space.Query().Where(space.IDIn(chunk...), space.DeletedAtIsNil()).IDs(ctx)
		if err != nil {
			return links.Checker{}, err
		}
		for _, id := range ids {
			readable[id] = true
		}
	}
	exists := func(tg links.Target) bool {
		switch tg.Kind {
		case links.Page:
			return t.Page(tg.Ref) != nil
		case links.File:
			return t.File(tg.Ref) != nil
		}
		return readable[tg.Ref]
	}
	return links.Checker{Exists: exists, App: r.BaseURL}, nil
}

// FileBacklinks returns the pages of a revision whose Markdown links to a file, by path then id.
// Returns INVALID for a bad page size or cursor.
func (r *Resolver) FileBacklinks(ctx context.Context, t *tree.Tree, fileID string, first *int, after *string) (*model.LinkSourceConnection, error) {
	pa, err := page.NewArgs(first, after)
	if err != nil {
		return nil, err
	}
	bodies, err := bodylinks.LinkingTo(ctx, r.Client, fileID)
	if err != nil {
		return nil, err
	}
	var sources []*model.LinkSource
	t.Walk(func(p *tree.Page, path string) {
		if bodies[p.Body] {
			sources = append(sources, &model.LinkSource{Page: p, Path: path})
		}
	})
	slices.SortFunc(sources, func(a, b *model.LinkSource) int {
		return strings.Compare(a.Path+"\x00"+a.ID, b.Path+"\x00"+b.ID)
	})
	p := pageOf(sources, pa, sourceCursor, func(s *model.LinkSource, after *page.Cursor) bool {
		path, _ := after.Key.(string)
		return s.Path > path || (s.Path == path && s.ID > after.ID)
	})
	return &model.LinkSourceConnection{
		Edges: edges(ctx, p.Items, sourceCursor, func(c string, s *model.LinkSource) *model.LinkSourceEdge {
			return &model.LinkSourceEdge{Cursor: c, Node: s}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func sourceCursor(s *model.LinkSource) page.Cursor { return page.Cursor{Key: s.Path, ID: s.ID} }

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
func linkTarget(l *model.Link) *model.LinkTarget {
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
