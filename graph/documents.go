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
// change requests (revisions.Contents.PageWithDocument). Returns NOT_FOUND when the viewer cannot
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
	if p == nil {
		return nil, apperr.NotFoundf("no page of the space has the document %q", documentID)
	}
	return r.PageDocument(ctx, p)
}
