package revisions

import (
	"cmp"
	"context"
	"slices"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// The types of semantic changes: the reference's RevisionSemanticChange types that Bindery's
// content has.
const (
	PageCreated     = "page_created"
	PageEdited      = "page_edited"
	PageDeleted     = "page_deleted"
	PageMoved       = "page_moved"
	FileCreated     = "file_created"
	FileEdited      = "file_edited"
	FileDeleted     = "file_deleted"
	ReusableCreated = "reusable_content_created"
	ReusableEdited  = "reusable_content_edited"
	ReusableDeleted = "reusable_content_deleted"
)

// Change is one semantic change from one content of a space to another: a page, file or
// reusable content created, edited, deleted or moved. The object is as it is after the change
// (before it, when deleted).
type Change struct {
	Type     string
	Page     *tree.Page
	PagePath string
	File     *tree.File
	Reusable *tree.Reusable
	// ParentBefore and ParentAfter are a moved page's parents (nil: the top level).
	ParentBefore, ParentAfter *tree.Page
	// Attributes are an edit's changed attributes, by the reference's names (a page's or
	// reusable content's "document" is its body's documentId).
	Attributes map[string]Attribute
}

// Attribute is one changed attribute of an edit: its value before and after.
type Attribute struct{ Before, After any }

// SemanticChanges lists what changed from the content at root before to the content at root
// after (before "": nothing, so everything was created): pages first in the order of the newer
// tree, then files by name, then reusable contents by title. Only the entries that differ are
// compared.
func (c *Contents) SemanticChanges(ctx context.Context, before, after string) ([]Change, error) {
	newer, err := c.trees.Load(ctx, after)
	if err != nil {
		return nil, err
	}
	older, keys := tree.New(nil), []string(nil)
	if before != "" {
		if older, err = c.trees.Load(ctx, before); err != nil {
			return nil, err
		}
		keys, err = c.trees.Diff(ctx, before, after)
	} else {
		for _, e := range newer.Entries() {
			keys = append(keys, e.Key())
		}
	}
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, key := range keys {
		changes = append(changes, entryChanges(older, newer, key)...)
	}
	sortChanges(changes, older, newer)
	return changes, nil
}

// entryChanges are the changes of the entry with key from tree older to tree newer.
func entryChanges(older, newer *tree.Tree, key string) []Change {
	was, _ := older.Entry(key)
	is, _ := newer.Entry(key)
	switch {
	case was.Page != nil || is.Page != nil:
		return pageChanges(older, newer, was.Page, is.Page)
	case was.File != nil || is.File != nil:
		return fileChanges(was.File, is.File)
	case was.Reusable != nil || is.Reusable != nil:
		return reusableChanges(was.Reusable, is.Reusable)
	}
	return nil
}

func pageChanges(older, newer *tree.Tree, was, is *tree.Page) []Change {
	switch {
	case was == nil:
		return []Change{{Type: PageCreated, Page: is, PagePath: newer.Path(is.ID)}}
	case is == nil:
		return []Change{{Type: PageDeleted, Page: was, PagePath: older.Path(was.ID)}}
	}
	var out []Change
	if was.Parent != is.Parent || was.Order != is.Order {
		out = append(out, Change{Type: PageMoved, Page: is, PagePath: newer.Path(is.ID),
			ParentBefore: older.Page(was.Parent), ParentAfter: newer.Page(is.Parent)})
	}
	attrs := changed(map[string][2]string{"title": {was.Title, is.Title}, "slug": {was.Slug, is.Slug},
		"emoji": {was.Emoji, is.Emoji}, "description": {was.Description, is.Description}, "document": {was.Body, is.Body}})
	if len(attrs) > 0 {
		out = append(out, Change{Type: PageEdited, Page: is, PagePath: newer.Path(is.ID), Attributes: attrs})
	}
	return out
}

func fileChanges(was, is *tree.File) []Change {
	switch {
	case was == nil:
		return []Change{{Type: FileCreated, File: is}}
	case is == nil:
		return []Change{{Type: FileDeleted, File: was}}
	}
	attrs := changed(map[string][2]string{"name": {was.Name, is.Name}, "contentType": {was.ContentType, is.ContentType}})
	if was.Size != is.Size {
		attrs["size"] = Attribute{Before: was.Size, After: is.Size}
	}
	if len(attrs) == 0 && was.Blob != is.Blob {
		attrs["size"] = Attribute{Before: was.Size, After: is.Size} // same size, other bytes
	}
	if len(attrs) == 0 {
		return nil
	}
	return []Change{{Type: FileEdited, File: is, Attributes: attrs}}
}

func reusableChanges(was, is *tree.Reusable) []Change {
	switch {
	case was == nil:
		return []Change{{Type: ReusableCreated, Reusable: is}}
	case is == nil:
		return []Change{{Type: ReusableDeleted, Reusable: was}}
	}
	attrs := changed(map[string][2]string{"title": {was.Title, is.Title}, "document": {was.Body, is.Body}})
	if len(attrs) == 0 {
		return nil
	}
	return []Change{{Type: ReusableEdited, Reusable: is, Attributes: attrs}}
}

// changed keeps the pairs whose two values differ.
func changed(pairs map[string][2]string) map[string]Attribute {
	out := map[string]Attribute{}
	for name, p := range pairs {
		if p[0] != p[1] {
			out[name] = Attribute{Before: p[0], After: p[1]}
		}
	}
	return out
}

// sortChanges orders changes: pages in the newer tree's order (deleted ones after, by path),
// then files by name, then reusable contents by title; a page's move before its edit.
func sortChanges(changes []Change, older, newer *tree.Tree) {
	position := map[string]int{}
	newer.Walk(func(p *tree.Page, _ string) { position[p.ID] = len(position) })
	rank := func(c Change) (kind, pos int, name string) {
		switch {
		case c.Page != nil:
			if p, ok := position[c.Page.ID]; ok && c.Type != PageDeleted {
				return 0, p, ""
			}
			return 1, 0, c.PagePath
		case c.File != nil:
			return 2, 0, c.File.Name
		}
		return 3, 0, c.Reusable.Title
	}
	slices.SortStableFunc(changes, func(a, b Change) int {
		ka, pa, na := rank(a)
		kb, pb, nb := rank(b)
		return cmp.Or(cmp.Compare(ka, kb), cmp.Compare(pa, pb), cmp.Compare(na, nb))
	})
}

// PageDiff is the unified diff of a page's Markdown body from tree older to tree newer (either
// may lack the page: its body is then empty), labelled with the revisions' ids. Returns
// NOT_FOUND when neither has the page.
func (c *Contents) PageDiff(ctx context.Context, pageID string, older, newer *tree.Tree, olderID, newerID string) (string, error) {
	was, is := older.Page(pageID), newer.Page(pageID)
	if was == nil && is == nil {
		return "", apperr.NotFoundf("page %q is in neither revision", pageID)
	}
	a, err := c.bodyOf(ctx, was)
	if err != nil {
		return "", err
	}
	b, err := c.bodyOf(ctx, is)
	if err != nil {
		return "", err
	}
	return difflib.GetUnifiedDiffString(difflib.UnifiedDiff{A: difflib.SplitLines(a), B: difflib.SplitLines(b),
		FromFile: olderID, ToFile: newerID, Context: 3})
}

// bodyOf is a page's Markdown body, "" for no page or no body.
func (c *Contents) bodyOf(ctx context.Context, p *tree.Page) (string, error) {
	if p == nil || p.Body == "" {
		return "", nil
	}
	return c.Body(ctx, p)
}
