package model

import (
	"github.com/binderyhq/bindery/internal/content/tree"
)

// ContentPage is a page of a revision as GraphQL serves it: the stored page with its computed
// path and its children. Its Markdown loads only when asked for, with the bodies of the pages
// read together (one level).
type ContentPage struct {
	*tree.Page
	Path       string
	RevisionID string // the revision whose tree it is in
	Children   []*ContentPage
}

// ConditionOrNull is the page's condition, nil for none.
func (p *ContentPage) ConditionOrNull() *string {
	if p.Condition == "" {
		return nil
	}
	return &p.Condition
}

// ReusableContent is a reusable content of a revision, with the revision's tree (the reusable
// contents it places in turn are read from it).
type ReusableContent struct {
	*tree.Reusable
	Tree       *tree.Tree
	RevisionID string // the revision it was read from (ReusableContent.git)
}

// DocumentID is the id of its document, the hash of its body; nil when it is empty.
func (c *ReusableContent) DocumentID() *string {
	if c.Body == "" {
		return nil
	}
	return &c.Body
}

// RevisionFile is a file of a revision, with the revision it was read from (its download URL
// names both).
type RevisionFile struct {
	*tree.File
	RevisionID string
}

// Nodes returns the files of the page.
func (c *RevisionFileConnection) Nodes() []*RevisionFile {
	return nodesOf(c.Edges, func(e *RevisionFileEdge) *RevisionFile { return e.Node })
}

// Info returns where the page ends and the total count.
func (c *RevisionFileConnection) Info() (*PageInfo, int) { return c.PageInfo, c.TotalCount }
