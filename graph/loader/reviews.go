package loader

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/comment"
)

// Comments looks up comments by id (the comments of reviews): nil for one the viewer may not read.
var Comments = byID("comments", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.Comment, error) {
	return c.Comment.Query().Where(comment.IDIn(ids...)).All(ctx)
}, func(c *ent.Comment) string { return c.ID })
