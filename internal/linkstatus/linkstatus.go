// Package linkstatus lists the links of a revision's pages with whether each works, and the pages
// linking to a file. A whole revision's links and a file's backlinks come from the links stored
// per body (internal/content/bodylinks); one page's links from its body, read at once. Statuses
// are decided at read time against the revision's tree (internal/content/links) and, for spaces,
// what the viewer may read, so a page deleted later breaks the links to it in the revisions that
// lack it; in a change request's revision, the broken links it introduced are counted against its
// base. It knows nothing of the surfaces: graph and rest page and translate the lists.
package linkstatus

import (
	"context"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/internal/content/bodylinks"
	"github.com/binderyhq/bindery/internal/content/links"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Service is the link statuses of one server, as the viewer of a context reads them.
type Service struct {
	Client *ent.Client
	// Contents reads the trees and page bodies of revisions.
	Contents *revisions.Contents
	// App is this server's base URL: URLs under it point into the app (links.Checker.App).
	App string
}

// Link is a link target of a revision's pages, with its status and the pages linking there.
type Link struct {
	links.Checked
	Sources []*Source
}

// Source is a page that links, with its slug path.
type Source struct {
	*tree.Page
	Path string
}

// linksOf lists the links of some pages of a tree (one item per target, statuses not set yet).
type linksOf func(ctx context.Context, t *tree.Tree) ([]*Link, error)

// RevisionLinks returns the links of every page of rev (whose tree is t), one per target with
// the pages linking there, sorted by Compare, and their stats.
func (svc *Service) RevisionLinks(ctx context.Context, rev *ent.Revision, t *tree.Tree) ([]*Link, links.Stats, error) {
	return svc.checkedList(ctx, rev, t, svc.treeLinks)
}

// PageLinks returns the links of page p of rev (whose tree is t), sorted by Compare, and their
// stats.
func (svc *Service) PageLinks(ctx context.Context, rev *ent.Revision, t *tree.Tree, p *tree.Page) ([]*Link, links.Stats, error) {
	return svc.checkedList(ctx, rev, t, func(ctx context.Context, t *tree.Tree) ([]*Link, error) {
		if q := t.Page(p.ID); q != nil {
			return svc.pageLinks(ctx, t, q)
		}
		return nil, nil // the page is not in the change request's base
	})
}

// checkedList checks the links of a revision that list names, with stats over them; in a change
// request's revision, the broken links it introduced are those that the same list in its base
// did not have broken.
func (svc *Service) checkedList(ctx context.Context, rev *ent.Revision, t *tree.Tree, list linksOf) ([]*Link, links.Stats, error) {
	items, err := svc.checkedLinks(ctx, t, list)
	if err != nil {
		return nil, links.Stats{}, err
	}
	stats, err := svc.stats(ctx, rev, items, list)
	return items, stats, err
}

// checkedLinks lists links with list and decides their statuses against t, sorted by target.
func (svc *Service) checkedLinks(ctx context.Context, t *tree.Tree, list linksOf) ([]*Link, error) {
	items, err := list(ctx, t)
	if err != nil {
		return nil, err
	}
	targets := make([]links.Target, len(items))
	for i, l := range items {
		targets[i] = l.Target
	}
	check, err := svc.checker(ctx, t, targets)
	if err != nil {
		return nil, err
	}
	for _, l := range items {
		l.Status = check.Status(l.Target)
	}
	slices.SortFunc(items, func(a, b *Link) int { return Compare(a.Target, b.Target) })
	return items, nil
}

// Compare orders link lists: by kind, then by the target's ID (a target t compares with the
// cursor {Kind, Ref: ID} made from it as with t itself).
func Compare(a, b links.Target) int {
	if c := strings.Compare(string(a.Kind), string(b.Kind)); c != 0 {
		return c
	}
	return strings.Compare(a.ID(), b.ID())
}

// stats counts items; when rev is a change request's, the broken ones it introduced are those
// the same list of its base revision did not have broken.
func (svc *Service) stats(ctx context.Context, rev *ent.Revision, items []*Link, list linksOf) (links.Stats, error) {
	now := checkedOf(items)
	s := links.Count(now)
	base, err := svc.changeBaseTree(ctx, rev)
	if err != nil || base == nil {
		return s, err
	}
	before, err := svc.checkedLinks(ctx, base, list)
	if err != nil {
		return links.Stats{}, err
	}
	s.BrokenIntroduced = links.Introduced(now, checkedOf(before))
	return s, nil
}

func checkedOf(items []*Link) []links.Checked {
	out := make([]links.Checked, len(items))
	for i, l := range items {
		out[i] = l.Checked
	}
	return out
}

// changeBaseTree returns the tree of the base of the change request a revision was made in (the
// space revision it was created from or last updated from); nil for the main content's revisions.
func (svc *Service) changeBaseTree(ctx context.Context, rev *ent.Revision) (*tree.Tree, error) {
	if rev.ChangeRequestID == nil {
		return nil, nil
	}
	cr, err := svc.Client.ChangeRequest.Get(ctx, *rev.ChangeRequestID)
	if err != nil {
		return nil, rule.NotFound(err, "change request")
	}
	_, t, err := svc.Contents.RevisionAndTree(ctx, revisions.ChangeRequestBase(cr))
	return t, err
}

// treeLinks lists the links of every page of t from the stored links of their bodies.
func (svc *Service) treeLinks(ctx context.Context, t *tree.Tree) ([]*Link, error) {
	var hashes []string
	t.Walk(func(p *tree.Page, _ string) {
		if p.Body != "" {
			hashes = append(hashes, p.Body)
		}
	})
	slices.Sort(hashes)
	targets, err := bodylinks.Targets(ctx, svc.Client, slices.Compact(hashes))
	if err != nil {
		return nil, err
	}
	byTarget := map[links.Target]*Link{}
	var items []*Link
	t.Walk(func(p *tree.Page, path string) {
		for _, tg := range targets[p.Body] {
			l := byTarget[tg]
			if l == nil {
				l = &Link{Checked: links.Checked{Target: tg}}
				byTarget[tg] = l
				items = append(items, l)
			}
			l.Sources = append(l.Sources, &Source{Page: p, Path: path})
		}
	})
	return items, nil
}

// pageLinks lists the links of one page of t from its body.
func (svc *Service) pageLinks(ctx context.Context, t *tree.Tree, p *tree.Page) ([]*Link, error) {
	body, err := svc.Contents.Body(ctx, p)
	if err != nil {
		return nil, err
	}
	source := []*Source{{Page: p, Path: t.Path(p.ID)}}
	var items []*Link
	for _, tg := range links.Extract(body) {
		items = append(items, &Link{Checked: links.Checked{Target: tg}, Sources: source})
	}
	return items, nil
}

// checker decides statuses in t: pages and files exist when t has them, spaces when the viewer
// may read them (a space they cannot read is broken for them, as it would not open).
func (svc *Service) checker(ctx context.Context, t *tree.Tree, targets []links.Target) (links.Checker, error) {
	var spaceIDs []string
	for _, tg := range targets {
		if tg.Kind == links.Space {
			spaceIDs = append(spaceIDs, tg.Ref)
		}
	}
	readable := map[string]bool{}
	for chunk := range slices.Chunk(spaceIDs, revisions.ObjectBatch) {
		ids, err := svc.Client.Space.Query().Where(space.IDIn(chunk...), space.DeletedAtIsNil()).IDs(ctx)
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
	return links.Checker{Exists: exists, App: svc.App}, nil
}

// Backlinks returns the pages of t whose Markdown links to a file, by path then id.
func (svc *Service) Backlinks(ctx context.Context, t *tree.Tree, fileID string) ([]*Source, error) {
	bodies, err := bodylinks.LinkingTo(ctx, svc.Client, fileID)
	if err != nil {
		return nil, err
	}
	var sources []*Source
	t.Walk(func(p *tree.Page, path string) {
		if bodies[p.Body] {
			sources = append(sources, &Source{Page: p, Path: path})
		}
	})
	slices.SortFunc(sources, func(a, b *Source) int {
		return strings.Compare(a.Path+"\x00"+a.ID, b.Path+"\x00"+b.ID)
	})
	return sources, nil
}
