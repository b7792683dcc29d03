package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
)

// documentSearchLimit bounds how many of a space's open change requests SpaceDocument looks in,
// newest first, after the main content.
const documentSearchLimit = 100

// PageDocument is a page's body as the reference's JSON document (getPageDocumentInRevisionById,
// published pages), shared: callers must not change it. Returns NOT_FOUND for a group, which has
// no document.
func (r *Resolver) PageDocument(ctx context.Context, p *tree.Page) (*document.Document, error) {
	if p.Type == PageTypeGroup {
		return nil, apperr.NotFoundf("page %q is a group: it has no document", p.ID)
	}
	return r.content().Document(ctx, p)
}

// SpaceDocument is getDocumentById: the document whose id (a page's documentId, the hash of its
// body) is a page's in the space's main content or, failing that, in one of its open or draft
// change requests (the newest documentSearchLimit). Returns NOT_FOUND when the viewer cannot read
// the space or no page of it there has that document.
func (r *Resolver) SpaceDocument(ctx context.Context, spaceID, documentID string, shareKey *string) (*document.Document, error) {
	c, err := r.SpaceContent(ctx, spaceID, shareKey)
	if err != nil {
		return nil, err
	}
	if p := pageWithBody(c.Tree, documentID); p != nil {
		return r.PageDocument(ctx, p)
	}
	crs, err := r.Client.ChangeRequest.Query().
		Where(changerequest.SpaceID(c.Space.ID), changerequest.StatusIn(changerequest.StatusOpen, changerequest.StatusDraft)).
		Order(ent.Desc(changerequest.FieldCreatedAt)).Limit(documentSearchLimit).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, cr := range crs {
		rev, err := r.Client.Revision.Query().Where(revision.ID(cr.RevisionID)).Only(ctx)
		if err != nil {
			return nil, err
		}
		t, err := r.revisionTree(ctx, rev)
		if err != nil {
			return nil, err
		}
		if p := pageWithBody(t, documentID); p != nil {
			return r.PageDocument(ctx, p)
		}
	}
	return nil, apperr.NotFoundf("no page of the space has the document %q", documentID)
}

// pageWithBody is a page of t whose body has the hash, or nil.
func pageWithBody(t *tree.Tree, hash string) *tree.Page {
	var found *tree.Page
	t.Walk(func(p *tree.Page, _ string) {
		if found == nil && hash != "" && p.Body == hash {
			found = p
		}
	})
	return found
}
