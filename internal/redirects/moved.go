package redirects

import (
	"context"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/movedpage"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/siteredirect"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Moved pages: when a merge or an import moves or renames pages of a space's main content, the
// paths they left are kept (MovedPage), each naming its page, so a published site answers an old
// path with a redirect to wherever the page is now, in one hop however often it moved.

// MovedPathMax is the longest path of a moved page kept (longer ones are not recorded).
const MovedPathMax = 2048

// RecordMoves keeps the paths that pages of space s left in moves (tree.Moves) and forgets the
// paths pages hold now (a page there wins over a redirect), in tx: the transaction that moves the
// space's active revision. The rows follow from the content write the viewer was allowed to make,
// as the search index does, so they are written with that decision taken.
func RecordMoves(ctx context.Context, tx *ent.Tx, s *ent.Space, moves []tree.Move) error {
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
		if m.From != "" && !taken[m.From] && len(m.From) <= MovedPathMax {
			rows = append(rows, tx.MovedPage.Create().SetOrganizationID(s.OrganizationID).SetSpaceID(s.ID).
				SetPath(m.From).SetPageID(m.PageID))
		}
	}
	for chunk := range slices.Chunk(rows, batch) {
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
		if len(m.To) <= MovedPathMax {
			paths = append(paths, m.To)
		}
	}
	for chunk := range slices.Chunk(paths, batch) {
		if _, err := tx.MovedPage.Delete().Where(movedpage.SpaceID(spaceID), movedpage.PathIn(chunk...)).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// MovedPageAt returns the id of the page that last left path in the main content of a space, ""
// when no page did. It reads as the viewer: a published site's reader admitted to the space.
func MovedPageAt(ctx context.Context, client *ent.Client, spaceID, path string) (string, error) {
	if path == "" || len(path) > MovedPathMax {
		return "", nil
	}
	m, err := client.MovedPage.Query().Where(movedpage.SpaceID(spaceID), movedpage.Path(path)).Only(ctx)
	if ent.IsNotFound(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return m.PageID, nil
}

// Follow returns the live redirect of a site that its reader follows at path (from the site's
// root, decoded, as net/http gives it), and the part of the path its wildcard matched; nil when
// none does. Call it for a reader the site admitted: readers are no members, so the site's
// redirects are read past the tenant filter, as the site's rows were.
func Follow(ctx context.Context, client *ent.Client, siteID, path string) (*ent.SiteRedirect, string, error) {
	path = "/" + strings.Trim(path, "/")
	return match(privacy.DecisionContext(ctx, privacy.Allow), client, siteID, false, Canonical(path))
}

// Missing is where a site sends its reader from a path that names no page (Service.Missing).
type Missing struct {
	// URL is the destination of the site's redirect that matches the path, as urls gave it ("" for
	// none); External tells whether it leaves the site, Permanent how the reader is sent there.
	URL                 string
	External, Permanent bool
	// MovedPage, when no redirect applies, is the page that last left the path in the site
	// space's space ("" for none).
	MovedPage string
}

// Missing returns where a site sends its admitted reader from path (below the site's root,
// decoded) when it names no page: the site's live redirect that matches it, else the page that
// last left pagePath in the space the path led to (spaceID; "" when it led to no site space).
// The zero Missing when neither applies. The published pages and the API's content by URL both
// ask it, so they cannot disagree.
func (svc *Service) Missing(ctx context.Context, siteID, path, spaceID, pagePath string, urls URLs) (Missing, error) {
	red, suffix, err := Follow(ctx, svc.Client, siteID, path)
	if err != nil {
		return Missing{}, err
	}
	if red != nil {
		target, err := URL(ctx, red, suffix, urls)
		if target != "" || err != nil {
			return Missing{URL: target, Permanent: red.Permanent,
				External: red.DestinationKind == siteredirect.DestinationKindExternal}, err
		}
	}
	if spaceID == "" {
		return Missing{}, nil
	}
	moved, err := MovedPageAt(ctx, svc.Client, spaceID, pagePath)
	return Missing{MovedPage: moved}, err
}
