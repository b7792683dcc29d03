package graph

import (
	"context"
	"sync"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/internal/changerequests"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
)

// Content translates between the resolvers and internal/content/revisions, which reads and writes
// the revisions of spaces' content.

// contentState is what the Resolver keeps for content(): built on first use.
type contentState struct {
	contentOnce  sync.Once
	contentStore *revisions.Contents
}

// content is the resolver's access to stored content: revision trees and page bodies, cached.
func (r *Resolver) content() *revisions.Contents {
	r.contentOnce.Do(func() { r.contentStore = revisions.NewContents(r.Client) })
	return r.contentStore
}

// revisions is the content writes as this resolver's viewer makes them.
func (r *Resolver) revisions() *revisions.Service {
	return &revisions.Service{Client: r.Client, Contents: r.content(), Blobs: r.Blobs, Search: r.Search, Now: r.now,
		SpaceTarget: r.spaceTarget, ChangeRequestTarget: r.changeRequestService().Target,
		MergeGate: changerequests.CheckMerge, Fetcher: r.Fetcher, ImportLimits: r.ImportLimits,
		ContentMoved: r.gitSyncService().ContentMoved}
}

// revisionTree returns the page tree of a revision the viewer has read.
func (r *Resolver) revisionTree(ctx context.Context, rev *ent.Revision) (*tree.Tree, error) {
	return r.content().Tree(ctx, rev)
}

// PageBody returns one page's stored Markdown body (without its title and front matter).
func (r *Resolver) PageBody(ctx context.Context, p *tree.Page) (string, error) {
	return r.content().Body(ctx, p)
}
