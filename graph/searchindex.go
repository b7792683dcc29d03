package graph

import (
	"context"
	"fmt"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/contentobject"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/search"
	"github.com/binderyhq/bindery/internal/text"
)

// reindexSearch brings the search index of space s from the content at root oldRoot to the content
// at root newRoot, in tx: call it in the transaction that moves the space's active revision (merge,
// import), so search answers with the new content as soon as the transaction commits. Only the
// pages that differ between the two roots are read and re-indexed, so its cost follows the change.
func (r *Resolver) reindexSearch(ctx context.Context, tx *ent.Tx, s *ent.Space, oldRoot, newRoot string) error {
	d, err := r.diffRoots(ctx, oldRoot, newRoot)
	if err != nil || d == nil {
		return err
	}
	return r.indexChanged(ctx, tx, s, d)
}

// rootDiff is how the content at one root differs from the content at another: the keys of the
// entries that differ (tree.Store.Diff) and the newer tree.
type rootDiff struct {
	oldRoot string
	changed []string
	now     *tree.Tree
}

// diffRoots compares the content at two roots, reading only the nodes that differ; nil when
// nothing does.
func (r *Resolver) diffRoots(ctx context.Context, oldRoot, newRoot string) (*rootDiff, error) {
	if oldRoot == newRoot {
		return nil, nil
	}
	trees := r.content().trees
	changed, err := trees.Diff(ctx, oldRoot, newRoot)
	if err != nil || len(changed) == 0 {
		return nil, err
	}
	now, err := trees.Load(ctx, newRoot)
	if err != nil {
		return nil, err
	}
	return &rootDiff{oldRoot: oldRoot, changed: changed, now: now}, nil
}

// indexChanged re-indexes the pages a diff changed.
func (r *Resolver) indexChanged(ctx context.Context, tx *ent.Tx, s *ent.Space, d *rootDiff) error {
	var pages []*tree.Page
	var hashes []string
	for _, key := range d.changed { // page and file ids: the files match no section
		if p := d.now.Page(key); p != nil {
			pages = append(pages, p)
			hashes = append(hashes, p.Body)
		}
	}
	bodies, err := r.bodiesIn(ctx, tx, hashes)
	if err != nil {
		return err
	}
	var sections []search.Section
	for _, p := range pages {
		if err := storableText(p, bodies[p.Body]); err != nil {
			return err
		}
		sections = append(sections, pageSections(p, bodies[p.Body])...)
	}
	return r.Search.Replace(ctx, tx, s.ID, d.changed, sections)
}

// storableText returns CONFLICT naming the page when its title, description or body is text a
// database cannot hold (text.Problem). Writes refuse such text, but a body stored by an earlier
// version (SQLite kept NULs) may still reach the main content through a merge: it is refused
// there, naming the page to fix, rather than failing in PostgreSQL's index with a 500.
func storableText(p *tree.Page, body string) error {
	for _, f := range []struct{ name, value string }{{"title", p.Title}, {"description", p.Description}, {"Markdown", body}} {
		if problem := text.Problem(f.value); problem != "" {
			return apperr.Conflictf("page %q (%s): its %s %s; edit the page in a change request first",
				text.Clean(p.Title), p.ID, f.name, problem)
		}
	}
	return nil
}

// pageSections are the documents of a page: its body split at its headings, each with the page's
// title; the description leads the text before the first heading.
func pageSections(p *tree.Page, body string) []search.Section {
	parts := markdown.Sections(body)
	if p.Description != "" {
		parts[0].Text = p.Description + "\n" + parts[0].Text
	}
	out := make([]search.Section, len(parts))
	for i, part := range parts {
		out[i] = search.Section{PageID: p.ID, Ordinal: i, Anchor: part.Anchor, Title: p.Title,
			Heading: part.Heading, Body: part.Text}
	}
	return out
}

// bodiesIn returns page bodies by hash like pageBodies, reading what the cache lacks through tx:
// the revision being written in tx (a merge's merged lines, an import's pages) has bodies that
// are not committed yet, which the resolver's client would not see.
func (r *Resolver) bodiesIn(ctx context.Context, tx *ent.Tx, hashes []string) (map[string]string, error) {
	cache := r.content().bodies
	out := make(map[string]string, len(hashes))
	var missing []string
	for _, h := range hashes {
		if body, ok := cache.Get(h); ok || h == "" {
			out[h] = body
		} else {
			missing = append(missing, h)
		}
	}
	for chunk := range chunks(missing, objectBatch) {
		objs, err := tx.ContentObject.Query().Where(contentobject.IDIn(chunk...)).
			Select(contentobject.FieldID, contentobject.FieldData).All(objectsContext(ctx))
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			out[o.ID] = string(o.Data)
			cache.Add(o.ID, string(o.Data))
		}
	}
	for _, h := range missing {
		if _, ok := out[h]; !ok {
			return nil, fmt.Errorf("page body %s is missing from the content store", h)
		}
	}
	return out, nil
}
