package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/movedpage"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/graph/content/tree"
)

// Moved pages: when a merge or an import moves or renames pages of a space's main content, the
// paths they left are kept (MovedPage), each naming its page, so a published site answers an old
// path with a redirect to wherever the page is now, in one hop however often it moved.

// Bounds of moved pages: the longest path kept (longer ones are not recorded), and the rows of
// one statement (7 parameters each, well below the databases' limits).
const (
	movedPathMax  = 2048
	movedRowBatch = 500
)

// mainContentMoved brings what follows a space's main content from the content at oldRoot to
// the content at newRoot, in tx: the search index and the moved pages. Call it in the transaction
// that moves the space's active revision (merge, import). Only the entries that differ are read.
func (r *Resolver) mainContentMoved(ctx context.Context, tx *ent.Tx, s *ent.Space, oldRoot, newRoot string) error {
	d, err := r.diffRoots(ctx, oldRoot, newRoot)
	if err != nil || d == nil {
		return err
	}
	if err := r.indexChanged(ctx, tx, s, d); err != nil {
		return err
	}
	return r.recordMoves(ctx, tx, s, d)
}

// recordMoves keeps the paths that pages of space s left in a diff and forgets the paths pages
// hold now (a page there wins over a redirect). The rows follow from the content write the viewer
// was allowed to make, as the search index does, so they are written with that decision taken.
func (r *Resolver) recordMoves(ctx context.Context, tx *ent.Tx, s *ent.Space, d *rootDiff) error {
	old, err := r.content().trees.Load(ctx, d.oldRoot)
	if err != nil {
		return err
	}
	moves := tree.Moves(old, d.now, d.changed)
	allowed := privacy.DecisionContext(ctx, privacy.Allow)
	taken := map[string]bool{}
	for _, m := range moves {
		taken[m.To] = true
	}
	if err := forgetTakenPaths(allowed, tx, s.ID, moves); err != nil {
		return err
	}
	var rows []*ent.MovedPageCreate
	for _, m := range moves {
		if m.From != "" && !taken[m.From] && len(m.From) <= movedPathMax {
			rows = append(rows, tx.MovedPage.Create().SetOrganizationID(s.OrganizationID).SetSpaceID(s.ID).
				SetPath(m.From).SetPageID(m.PageID))
		}
	}
	for chunk := range chunks(rows, movedRowBatch) {
		err := tx.MovedPage.CreateBulk(chunk...).OnConflictColumns(movedpage.FieldSpaceID, movedpage.FieldPath).
			Update(func(u *ent.MovedPageUpsert) { u.UpdatePageID().UpdateUpdatedAt() }).Exec(allowed)
		if err != nil {
			return err
		}
	}
	return nil
}

// forgetTakenPaths deletes the moved pages of the paths that pages hold after the moves.
func forgetTakenPaths(ctx context.Context, tx *ent.Tx, spaceID string, moves []tree.Move) error {
	paths := make([]string, 0, len(moves))
	for _, m := range moves {
		if len(m.To) <= movedPathMax {
			paths = append(paths, m.To)
		}
	}
	for chunk := range chunks(paths, movedRowBatch) {
		if _, err := tx.MovedPage.Delete().Where(movedpage.SpaceID(spaceID), movedpage.PathIn(chunk...)).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// MovedPageAt returns the id of the page that last left path in the main content of a space, ""
// when no page did. It reads as the viewer: a published site's reader admitted to the space.
func (r *Resolver) MovedPageAt(ctx context.Context, spaceID, path string) (string, error) {
	if path == "" || len(path) > movedPathMax {
		return "", nil
	}
	m, err := r.Client.MovedPage.Query().Where(movedpage.SpaceID(spaceID), movedpage.Path(path)).Only(ctx)
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return m.PageID, nil
}
