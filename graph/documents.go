package graph

import (
	"context"

	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
)

// PageDocument is a page's body as the reference's JSON document (getPageDocumentInRevisionById,
// published pages), shared: callers must not change it. Returns NOT_FOUND for a group, which has
// no document.
func (r *Resolver) PageDocument(ctx context.Context, p *tree.Page) (*document.Document, error) {
	if p.Type == tree.TypeGroup {
		return nil, apperr.NotFoundf("page %q is a group: it has no document", p.ID)
	}
	return r.content().Document(ctx, p)
}

// SpaceDocument is getDocumentById: the document whose id (a page's documentId, the hash of its
// body) is a page's in the space's main content or, failing that, in one of its open or draft
// change requests (revisions.Contents.PageWithDocument), or a reusable content's in the main
// content. Returns NOT_FOUND when the viewer cannot
// read the space or no page of it there has that document.
func (r *Resolver) SpaceDocument(ctx context.Context, spaceID, documentID string, shareKey *string) (*document.Document, error) {
	c, err := r.SpaceContent(ctx, spaceID, shareKey)
	if err != nil {
		return nil, err
	}
	p, err := r.content().PageWithDocument(ctx, c.Space.ID, c.Tree, documentID)
	if err != nil {
		return nil, err
	}
	if p != nil {
		return r.PageDocument(ctx, p)
	}
	if rc := reusableWithBody(c.Tree, documentID); rc != nil {
		return r.content().ReusableDocument(ctx, rc)
	}
	return nil, apperr.NotFoundf("no page or reusable content of the space has the document %q", documentID)
}

// reusableWithBody is a reusable content of t whose body has the hash, or nil.
func reusableWithBody(t *tree.Tree, hash string) *tree.Reusable {
	for _, rc := range t.Reusables() {
		if hash != "" && rc.Body == hash {
			return rc
		}
	}
	return nil
}
