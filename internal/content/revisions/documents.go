package revisions

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
)

// documentCacheBytes bounds the Markdown of the bodies kept parsed: a document holds about ten
// times its Markdown in memory, so some 160 MB at most. Parsing is most of what rendering a long
// page costs, and bodies never change under their hash.
const documentCacheBytes = 16 << 20

// Document returns a page's body as a document of the reference's model, parsed once per body
// while it is kept, and shared: callers must not change it.
func (c *Contents) Document(ctx context.Context, p *tree.Page) (*document.Document, error) {
	if doc, ok := c.documents.Get(p.Body); ok {
		return doc, nil
	}
	body, err := c.Body(ctx, p)
	if err != nil {
		return nil, err
	}
	doc := document.FromMarkdown(body)
	c.documents.Add(p.Body, doc, len(body))
	return doc, nil
}

// documentSearchLimit bounds how many of a space's open change requests PageWithDocument looks
// in, newest first, after the main content.
const documentSearchLimit = 100

// PageWithDocument returns the page whose document id (the hash of its body) is documentID in
// main, the tree of the space's current content, or failing that in one of the space's open or
// draft change requests (the newest documentSearchLimit), as the viewer reads them; nil when no
// page there has it.
func (c *Contents) PageWithDocument(ctx context.Context, spaceID string, main *tree.Tree, documentID string) (*tree.Page, error) {
	if p := pageWithBody(main, documentID); p != nil {
		return p, nil
	}
	crs, err := c.client.ChangeRequest.Query().
		Where(changerequest.SpaceID(spaceID), changerequest.StatusIn(changerequest.StatusOpen, changerequest.StatusDraft)).
		Order(ent.Desc(changerequest.FieldCreatedAt)).Limit(documentSearchLimit).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, cr := range crs {
		rev, err := c.client.Revision.Query().Where(revision.ID(cr.RevisionID)).Only(ctx)
		if err != nil {
			return nil, err
		}
		t, err := c.Tree(ctx, rev)
		if err != nil {
			return nil, err
		}
		if p := pageWithBody(t, documentID); p != nil {
			return p, nil
		}
	}
	return nil, nil
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
