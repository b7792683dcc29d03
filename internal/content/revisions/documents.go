package revisions

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
)

// documentCacheBytes bounds the memory of the bodies kept parsed. Parsing is most of what
// rendering a long page costs, and bodies never change under their hash.
const documentCacheBytes = 160 << 20

// documentBytesPerByte is what a document holds in memory for each byte of its Markdown: × 26–29
// measured from 1 KB pages to 10,000 blocks (BenchmarkConvert10kBlocks, decision 579).
const documentBytesPerByte = 29

// Document returns a page's body as a document of the reference's model, parsed once per body
// while it is kept, and shared: callers must not change it.
func (c *Contents) Document(ctx context.Context, p *tree.Page) (*document.Document, error) {
	return c.bodyDocument(ctx, p.Body)
}

// ReusableDocument returns a reusable content's body as a document, as Document a page's.
func (c *Contents) ReusableDocument(ctx context.Context, r *tree.Reusable) (*document.Document, error) {
	return c.bodyDocument(ctx, r.Body)
}

// bodyDocument returns the document of the body with the hash ("" for the empty one), parsed once
// while it is kept.
func (c *Contents) bodyDocument(ctx context.Context, hash string) (*document.Document, error) {
	if doc, ok := c.documents.Get(hash); ok {
		return doc, nil
	}
	bodies, err := c.Bodies(ctx, []string{hash})
	if err != nil {
		return nil, err
	}
	doc := document.FromMarkdown(bodies[hash])
	c.documents.Add(hash, doc, len(bodies[hash])*documentBytesPerByte)
	return doc, nil
}

// maxPlaced bounds the reusable contents one document places, with those they place in turn.
const maxPlaced = 100

// Dereferenced returns doc, a document of the tree t, with the reusable contents of t it places
// put in its blocks' stead (document.Dereference, missing ones replaced by what missing gives or
// kept when it is nil): the reference's dereferenced=reusable-contents, and published pages.
// Without reusable-content blocks, doc itself is returned; it is never changed.
func (c *Contents) Dereferenced(ctx context.Context, t *tree.Tree, doc *document.Document,
	missing func(id string) []*document.Node) (*document.Document, error) {
	contents := map[string]*document.Document{}
	for next := document.Placed(doc); len(next) > 0 && len(contents) < maxPlaced; {
		var more []string
		for _, id := range next {
			r := t.Reusable(id)
			if _, seen := contents[id]; seen || r == nil {
				continue
			}
			placed, err := c.ReusableDocument(ctx, r)
			if err != nil {
				return nil, err
			}
			contents[id] = placed
			more = append(more, document.Placed(placed)...)
		}
		next = more
	}
	return document.Dereference(doc, contents, missing), nil
}

// PlacedMarkdown returns a page's stored Markdown as readers of its .md receive it: as stored
// when it places no reusable content; else written again from its document with the reusable
// contents put in (Dereferenced), a missing one as a warning.
func (c *Contents) PlacedMarkdown(ctx context.Context, t *tree.Tree, p *tree.Page) (string, error) {
	body, err := c.Body(ctx, p)
	if err != nil || !document.MayPlace(body) {
		return body, err
	}
	doc, err := c.Document(ctx, p)
	if err != nil || len(document.Placed(doc)) == 0 {
		return body, err
	}
	placed, err := c.Dereferenced(ctx, t, doc, document.MissingNotice)
	if err != nil {
		return "", err
	}
	return document.Markdown(placed), nil
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
