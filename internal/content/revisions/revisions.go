// Package revisions keeps a space's content as revisions: it reads their trees and page bodies
// (Contents, cached), writes a new revision in one transaction (tree nodes, bodies, their links,
// file bytes), applies content batches to change requests, merges a change request into the
// main content and updates it from the main content under row locks (internal/content/merge),
// imports websites and Markdown, and keeps what follows the main content — the search index and
// the paths moved pages left — in step in the transaction that moves it. It knows nothing of the
// surfaces: graph and rest translate.
package revisions

import (
	"context"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/blobs"
	"github.com/binderyhq/bindery/internal/crawl"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/search"
)

// Service is the content writes of one server.
type Service struct {
	Client   *ent.Client
	Contents *Contents
	// Blobs stores file bytes (nil: content with files is refused).
	Blobs blobs.Store
	// Search is the full-text index of the spaces' main content.
	Search search.Index
	// Now is the current time, as stored.
	Now func(context.Context) time.Time
	// SpaceTarget finds a live space to change the content of. Returns NOT_FOUND when the viewer
	// cannot read it, FORBIDDEN (saying what for) when the viewer's role on it is below min.
	SpaceTarget func(ctx context.Context, spaceID string, min viewer.Role, what string) (*ent.Space, error)
	// ChangeRequestTarget finds a change request (by id or number) of a space to change the
	// content of, as SpaceTarget finds the space; NOT_FOUND when the viewer cannot read it.
	ChangeRequestTarget func(ctx context.Context, spaceID, crRef string, min viewer.Role, what string) (*ent.Space, *ent.ChangeRequest, error)
	// MergeGate decides, in a merge's transaction with the space and the change request locked,
	// whether the viewer may merge it (the space's merge rules, changerequests.CheckMerge).
	MergeGate func(ctx context.Context, tx *ent.Tx, s *ent.Space, cr *ent.ChangeRequest) error
	// Fetcher makes the outbound requests of website imports (SSRF-guarded); ImportLimits bound
	// them (crawl.DefaultLimits when zero).
	Fetcher      *fetch.Client
	ImportLimits crawl.Limits
	// ContentMoved asks, in the transaction that moves a space's main content, for what follows
	// it outside this package (the export of a space linked to a git repository); nil for none.
	ContentMoved func(ctx context.Context, tx *ent.Tx, s *ent.Space) error
}
