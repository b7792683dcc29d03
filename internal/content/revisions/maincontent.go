package revisions

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/markdown"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/redirects"
	"github.com/binderyhq/bindery/internal/search"
	"github.com/binderyhq/bindery/internal/text"
)

// What follows a space's main content: its search index and the paths its moved pages left
// (redirects.RecordMoves), kept in step in the transaction that moves the space's active
// revision, so both answer with the new content as soon as it commits. Only the entries that
// differ between the old content and the new are read, so the cost follows the change.

// mainContentMoved brings what follows a space's main content from revision old to revision now,
// in tx: the search index, the moved pages, and the space.content_updated event naming both
// revisions and the pages changed. Call it in the transaction that moves the space's active
// revision (merge, import).
func (svc *Service) mainContentMoved(ctx context.Context, tx *ent.Tx, s *ent.Space, old, now *ent.Revision) error {
	d, err := svc.diffRoots(ctx, old.RootTree, now.RootTree)
	if err != nil || d == nil {
		return err
	}
	if err := svc.indexChanged(ctx, tx, s, d); err != nil {
		return err
	}
	before, err := svc.Contents.trees.Load(ctx, d.oldRoot)
	if err != nil {
		return err
	}
	if err := redirects.RecordMoves(ctx, tx, s, tree.Moves(before, d.now, d.changed)); err != nil {
		return err
	}
	if svc.ContentMoved != nil {
		if err := svc.ContentMoved(ctx, tx, s); err != nil {
			return err
		}
	}
	pages, reusables := changedEntries(before, d)
	return events.Record(ctx, tx.Client(), events.Event{Type: events.SpaceContentUpdated, Organization: s.OrganizationID,
		ObjectKind: "space", ObjectID: s.ID, Space: s.ID,
		Details: map[string]any{"revisionBefore": old.ID, "revisionAfter": now.ID, "pages": pages, "reusableContents": reusables}})
}

// changedEntries are the ids of the pages and of the reusable contents a diff created, changed or
// removed.
func changedEntries(before *tree.Tree, d *rootDiff) (pages, reusables []string) {
	pages, reusables = []string{}, []string{}
	for _, key := range d.changed {
		switch {
		case d.now.Page(key) != nil || before.Page(key) != nil:
			pages = append(pages, key)
		case d.now.Reusable(key) != nil || before.Reusable(key) != nil:
			reusables = append(reusables, key)
		}
	}
	return pages, reusables
}

// reindexSearch brings the search index of space s from the content at root oldRoot to the
// content at root newRoot, in tx.
func (svc *Service) reindexSearch(ctx context.Context, tx *ent.Tx, s *ent.Space, oldRoot, newRoot string) error {
	d, err := svc.diffRoots(ctx, oldRoot, newRoot)
	if err != nil || d == nil {
		return err
	}
	return svc.indexChanged(ctx, tx, s, d)
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
func (svc *Service) diffRoots(ctx context.Context, oldRoot, newRoot string) (*rootDiff, error) {
	if oldRoot == newRoot {
		return nil, nil
	}
	trees := svc.Contents.trees
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
func (svc *Service) indexChanged(ctx context.Context, tx *ent.Tx, s *ent.Space, d *rootDiff) error {
	var pages []*tree.Page
	var hashes []string
	for _, key := range d.changed { // page and file ids: the files match no section
		if p := d.now.Page(key); p != nil {
			pages = append(pages, p)
			hashes = append(hashes, p.Body)
		}
	}
	bodies, err := svc.Contents.bodiesIn(ctx, tx, hashes)
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
	return svc.Search.Replace(ctx, tx, s.ID, d.changed, sections)
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
// title; the description leads the text before the first heading. What only some readers see (if
// blocks, expressions' values) is left out: search is the same for every reader.
func pageSections(p *tree.Page, body string) []search.Section {
	parts := markdown.Sections(document.ForEveryone(body))
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
