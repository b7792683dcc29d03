package publish

import (
	"context"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/content/tree"
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
// that only hidden pages link to are found, and kept, per visible tree: the reader may not fetch
// them at ~files/ either.
const (
	cachedConditioned = 256
	cachedVisible     = 64
)

type visibility struct {
	conditioned *lru.Cache[string, []*tree.Page]    // root tree hash → its pages with a condition
	trees       *lru.Cache[string, *tree.Tree]      // root tree hash and hidden page ids → visible tree
	files       *lru.Cache[string, map[string]bool] // the same key → files only hidden pages link to
}

func newVisibility() visibility {
	conditioned, _ := lru.New[string, []*tree.Page](cachedConditioned)
	trees, _ := lru.New[string, *tree.Tree](cachedVisible)
	files, _ := lru.New[string, map[string]bool](cachedVisible)
	return visibility{conditioned: conditioned, trees: trees, files: files}
}

// hiding is what the reader's claims hide in the content of one revision.
type hiding struct {
	key  string     // root tree hash and hidden page ids: the caches' key and the ETag's part
	full *tree.Tree // the content with every page
	ids  []string   // the pages hidden (with their descendants)
}

// content returns the active content of a space of the site as the reader sees it (pages their
// claims hide left out), and records what it hid for the ETag and for files. Returns NOT_FOUND
// as graph.SpaceContent does.
func (s *siteView) content(ctx context.Context, spaceID string) (*graph.Content, error) {
	c, err := s.h.r.SpaceContent(ctx, spaceID, nil)
	if err != nil {
		return nil, err
	}
	var hidden []string
	for _, p := range s.h.visible.conditionedPages(c) {
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
	var pages []*tree.Page
	for _, id := range h.ids {
		pages = append(pages, h.full.Page(id))
		for _, d := range h.full.Descendants(id) {
			pages = append(pages, h.full.Page(d))
		}
	}
	files, err := s.h.r.FilesLinkedOnlyFrom(s.ctx, pages, content.Tree)
	if err != nil {
		return nil, err
	}
	s.h.visible.files.Add(h.key, files)
	return files, nil
}

// conditionedPages returns the pages of the content that have a condition, in tree order.
func (v visibility) conditionedPages(c *graph.Content) []*tree.Page {
	if pages, ok := v.conditioned.Get(c.Revision.RootTree); ok {
		return pages
	}
	var pages []*tree.Page
	c.Tree.Walk(func(p *tree.Page, _ string) {
		if p.Condition != "" {
			pages = append(pages, p)
		}
	})
	v.conditioned.Add(c.Revision.RootTree, pages)
	return pages
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
