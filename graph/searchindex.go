package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
)

// reindexSearch brings the search index of space s from the content at root oldRoot to the content
// at root newRoot, in tx: call it in the transaction that moves the space's active revision (merge,
// import), so search answers with the new content as soon as the transaction commits. Only the
// pages that differ between the two roots are read and re-indexed, so its cost follows the change.
func (r *Resolver) reindexSearch(ctx context.Context, tx *ent.Tx, s *ent.Space, oldRoot, newRoot string) error {
	return nil // filled in by the search work (issue 5)
}
