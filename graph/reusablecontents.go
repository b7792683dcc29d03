package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/content/edit"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/document"
)

// Reusable contents: read from a revision the viewer reads (Content), like its pages; written by
// content batches (revisions.Service.EditChangeRequest), merged with the rest of the content.

// ReusableContent returns the reusable content with the id. Returns NOT_FOUND when the revision
// has none.
func (c *Content) ReusableContent(id string) (*tree.Reusable, error) {
	return revisions.InRevision(c.Tree.Reusable(id), "reusable content "+id)
}

// ReusableDocument is a reusable content's body as a JSON document of the tree t, with the
// reusable contents it places put in when dereferenced (getReusableContentDocumentInRevisionById,
// ReusableContent.document). Shared when not dereferenced: callers must not change it.
func (r *Resolver) ReusableDocument(ctx context.Context, t *tree.Tree, c *tree.Reusable, dereferenced bool) (*document.Document, error) {
	doc, err := r.content().ReusableDocument(ctx, c)
	if err != nil || !dereferenced {
		return doc, err
	}
	return r.content().Dereferenced(ctx, t, doc, nil)
}

// DereferencedPageDocument is a page's document with the reusable contents of t it places put in
// (getPageDocumentInRevisionById with dereferenced, published pages: missing ones are left for
// the reader to see). Returns NOT_FOUND for a group, as PageDocument.
func (r *Resolver) DereferencedPageDocument(ctx context.Context, t *tree.Tree, p *tree.Page) (*document.Document, error) {
	doc, err := r.PageDocument(ctx, p)
	if err != nil {
		return nil, err
	}
	return r.content().Dereferenced(ctx, t, doc, nil)
}

// DereferencedPageMarkdown is a page's whole Markdown (PageMarkdown) with the reusable contents of
// t it places put in (the reference's page reads with format=markdown and dereferenced).
func (r *Resolver) DereferencedPageMarkdown(ctx context.Context, t *tree.Tree, p *tree.Page) (string, error) {
	doc, err := r.PageDocument(ctx, p)
	if err != nil {
		return "", err
	}
	if len(document.Placed(doc)) == 0 {
		return r.PageMarkdown(ctx, p)
	}
	placed, err := r.content().Dereferenced(ctx, t, doc, nil)
	if err != nil {
		return "", err
	}
	return revisions.PageMarkdown(p, document.Markdown(placed)), nil
}

// PlacedPageMarkdown is a page's stored body as the readers of its .md receive it, with the
// reusable contents of t it places put in (revisions.Contents.PlacedMarkdown).
func (r *Resolver) PlacedPageMarkdown(ctx context.Context, t *tree.Tree, p *tree.Page) (string, error) {
	return r.content().PlacedMarkdown(ctx, t, p)
}

// revisionReusableContents lists a revision's reusable contents, by title then id.
func (r *Resolver) revisionReusableContents(ctx context.Context, rev *ent.Revision) ([]*model.ReusableContent, error) {
	t, err := r.revisionTree(ctx, rev)
	if err != nil {
		return nil, err
	}
	list := t.Reusables()
	out := make([]*model.ReusableContent, len(list))
	for i, c := range list {
		out[i] = &model.ReusableContent{Reusable: c, Tree: t, RevisionID: rev.ID}
	}
	return out, nil
}

// revisionReusableContent is a revision's reusable content by id, nil when it has none.
func (r *Resolver) revisionReusableContent(ctx context.Context, rev *ent.Revision, id string) (*model.ReusableContent, error) {
	t, err := r.revisionTree(ctx, rev)
	if err != nil || t.Reusable(id) == nil {
		return nil, err
	}
	return &model.ReusableContent{Reusable: t.Reusable(id), Tree: t, RevisionID: rev.ID}, nil
}

// reusableContentMarkdown is a reusable content's stored Markdown.
func (r *Resolver) reusableContentMarkdown(ctx context.Context, c *model.ReusableContent) (string, error) {
	bodies, err := r.content().Bodies(ctx, []string{c.Body})
	return bodies[c.Body], err
}

// reusableContentChanges converts the reusable contents a batch touched.
func reusableContentChanges(touched []edit.Affected) []*model.ContentReusableContentChange {
	out := make([]*model.ContentReusableContentChange, len(touched))
	for i, c := range touched {
		out[i] = &model.ContentReusableContentChange{Kind: c.Kind, ReusableContentID: c.ID}
		if c.Ref != "" {
			out[i].Ref = &c.Ref
		}
	}
	return out
}
