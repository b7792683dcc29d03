package publish

import (
	"context"
	"slices"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/internal/content/bodylinks"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/search"
)

// Pages with a condition. A reader sees a site space's content less the pages whose condition
// their claims do not satisfy, with those pages' descendants: every part of the site (sidebar,
// previous/next, page and .md answers, search, llms.txt, sitemap.xml, links between pages, moved
// pages' redirects) reads that visible tree, so a hidden page is nowhere, and its URL answers
// 404 as an unknown path does.
//
// Both steps are cached, so a revision without conditions costs one map lookup and one with them
// a few condition runs per request: the pages with a condition, per revision; and the visible
// trees, per revision and set of hidden pages (readers of one audience share them). The files
// that only hidden pages link to, and the pages search leaves out, are found, and kept, per
// visible tree.
const (
	cachedMarks   = 256
	cachedVisible = 64
)

type visibility struct {
	marks      *lru.Cache[string, marks]           // root tree hash → its marked pages
	trees      *lru.Cache[string, *tree.Tree]      // root tree hash and hidden page ids → visible tree
	files      *lru.Cache[string, map[string]bool] // the same key → files only hidden pages link to
	unsearched *lru.Cache[string, *search.PageSet] // the same key → pages search leaves out
}

func newVisibility() visibility {
	m, _ := lru.New[string, marks](cachedMarks)
	trees, _ := lru.New[string, *tree.Tree](cachedVisible)
	files, _ := lru.New[string, map[string]bool](cachedVisible)
	unsearched, _ := lru.New[string, *search.PageSet](cachedVisible)
	return visibility{marks: m, trees: trees, files: files, unsearched: unsearched}
}

// marks are the pages of a revision that some or all readers do not find: those with a
// condition, and those hidden from navigation (served at their URL, never listed or found).
type marks struct {
	conditioned []*tree.Page // in tree order
	unlistedIDs []string
	unlisted    *search.PageSet // the same pages, for search
}

// hiding is what the reader's claims hide in the content of one revision.
type hiding struct {
	key  string     // root tree hash and hidden page ids: the caches' key and the ETag's part
	full *tree.Tree // the content with every page
	ids  []string   // the pages hidden (with their descendants)
}

// pages are the pages hidden, with their descendants.
func (h hiding) pages() []*tree.Page {
	var pages []*tree.Page
	for _, id := range h.ids {
		pages = append(pages, h.full.Page(id))
		for _, d := range h.full.Descendants(id) {
			pages = append(pages, h.full.Page(d))
		}
	}
	return pages
}

// content returns the active content of a space of the site as the reader sees it (pages their
// claims hide left out), and records what it hid for the ETag and for files. Returns NOT_FOUND
// as graph.SpaceContent does.
func (s *siteView) content(ctx context.Context, spaceID string) (*graph.Content, error) {
	c, err := s.h.r.AdmittedSpaceContent(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	var hidden []string
	for _, p := range s.h.visible.marksOf(c.Revision.RootTree, c.Tree).conditioned {
		if !s.visit.Shows(p.Condition) {
			hidden = append(hidden, p.ID)
		}
	}
	if len(hidden) == 0 {
		return c, nil
	}
	key := c.Revision.RootTree + " " + strings.Join(hidden, " ")
	if s.hidden == nil {
		s.hidden = map[string]hiding{}
	}
	s.hidden[c.Revision.ID] = hiding{key: key, full: c.Tree, ids: hidden}
	visible := *c
	visible.Tree = s.h.visible.visibleTree(key, c.Tree, hidden)
	return &visible, nil
}

// hiddenFiles returns the files of content (as content returned it) that only pages hidden from
// the reader link to: none when it hid nothing. Found once per visible tree.
func (s *siteView) hiddenFiles(content *graph.Content) (map[string]bool, error) {
	h, ok := s.hidden[content.Revision.ID]
	if !ok {
		return nil, nil
	}
	if files, ok := s.h.visible.files.Get(h.key); ok {
		return files, nil
	}
	files, err := bodylinks.FilesLinkedOnlyFrom(s.ctx, s.h.r.Client, h.pages(), content.Tree)
	if err != nil {
		return nil, err
	}
	s.h.visible.files.Add(h.key, files)
	return files, nil
}

// unsearched is the set of pages of content (as content returned it) that search leaves out for
// the reader: those hidden from navigation, and those their claims hide with their subpages.
func (s *siteView) unsearched(content *graph.Content) *search.PageSet {
	h, ok := s.hidden[content.Revision.ID]
	if !ok {
		return s.h.visible.marksOf(content.Revision.RootTree, content.Tree).unlisted
	}
	if set, ok := s.h.visible.unsearched.Get(h.key); ok {
		return set
	}
	ids := slices.Clone(s.h.visible.marksOf(content.Revision.RootTree, h.full).unlistedIDs)
	for _, p := range h.pages() {
		ids = append(ids, p.ID)
	}
	set := search.NewPageSet(ids)
	s.h.visible.unsearched.Add(h.key, set)
	return set
}

// marksOf returns the marked pages of a revision's whole tree t, whose root tree hash is root.
func (v visibility) marksOf(root string, t *tree.Tree) marks {
	if m, ok := v.marks.Get(root); ok {
		return m
	}
	var m marks
	t.Walk(func(p *tree.Page, _ string) {
		if p.Condition != "" {
			m.conditioned = append(m.conditioned, p)
		}
		if p.Hidden {
			m.unlistedIDs = append(m.unlistedIDs, p.ID)
		}
	})
	m.unlisted = search.NewPageSet(m.unlistedIDs)
	v.marks.Add(root, m)
	return m
}

// visibleTree returns t without the hidden pages, kept under key.
func (v visibility) visibleTree(key string, t *tree.Tree, hidden []string) *tree.Tree {
	if visible, ok := v.trees.Get(key); ok {
		return visible
	}
	visible := t.Without(hidden)
	v.trees.Add(key, visible)
	return visible
}
