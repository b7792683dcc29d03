package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/redirects"
)

// mainContentMoved brings what follows a space's main content from the content at oldRoot to
// the content at newRoot, in tx: the search index and the moved pages (redirects.RecordMoves).
// Call it in the transaction that moves the space's active revision (merge, import). Only the
// entries that differ are read.
func (r *Resolver) mainContentMoved(ctx context.Context, tx *ent.Tx, s *ent.Space, oldRoot, newRoot string) error {
	d, err := r.diffRoots(ctx, oldRoot, newRoot)
	if err != nil || d == nil {
		return err
	}
	if err := r.indexChanged(ctx, tx, s, d); err != nil {
		return err
	}
	old, err := r.content().trees.Load(ctx, d.oldRoot)
	if err != nil {
		return err
	}
	return redirects.RecordMoves(ctx, tx, s, tree.Moves(old, d.now, d.changed))
}
