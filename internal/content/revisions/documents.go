package revisions

import (
	"context"

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
