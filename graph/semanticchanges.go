package graph

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/content/tree"
	"github.com/binderyhq/bindery/internal/gitsync"
	"github.com/binderyhq/bindery/internal/page"
)

// SemanticChangesMax bounds the changes one answer lists.
const SemanticChangesMax = 1000

// SemanticChanges is what a revision of a space changed: its changes, at most a limit of them,
// with how many more there are, and the change request whose merge made it.
type SemanticChanges struct {
	Content    *Content // the revision
	From       *Content // what it is compared with; nil for nothing (an initial revision)
	MergedFrom *ent.ChangeRequest
	Changes    []revisions.Change
	More       int
}

// RevisionChanges lists the semantic changes of revision revisionID of a space from its first
// parent, or from revision from of the same space, at most limit of them (1..SemanticChangesMax).
// Returns NOT_FOUND when the viewer cannot read the space or either revision is not of it.
func (r *Resolver) RevisionChanges(ctx context.Context, spaceID, revisionID string, from *string, limit int) (*SemanticChanges, error) {
	if limit < 1 || limit > SemanticChangesMax {
		return nil, apperr.Invalidf("limit: must be 1 to %d, got %d", SemanticChangesMax, limit)
	}
	out, err := r.comparedRevisions(ctx, spaceID, revisionID, from)
	if err != nil {
		return nil, err
	}
	before := ""
	if out.From != nil {
		before = out.From.Revision.RootTree
	}
	changes, err := r.content().SemanticChanges(ctx, before, out.Content.Revision.RootTree)
	if err != nil {
		return nil, err
	}
	if len(changes) > limit {
		out.More, changes = len(changes)-limit, changes[:limit]
	}
	out.Changes = changes
	if out.Content.Revision.Type == revision.TypeMerge {
		out.MergedFrom, err = r.MergedFrom(ctx, out.Content.Revision)
		if ent.IsNotFound(err) {
			err = nil
		}
	}
	return out, err
}

// comparedRevisions reads revision revisionID of a space and the one it is compared with: from,
// else its first parent (none for a revision without parents).
func (r *Resolver) comparedRevisions(ctx context.Context, spaceID, revisionID string, from *string) (*SemanticChanges, error) {
	c, err := r.RevisionContent(ctx, spaceID, revisionID, nil)
	if err != nil {
		return nil, err
	}
	base := from
	if base == nil && len(c.Revision.Parents) > 0 {
		base = &c.Revision.Parents[0]
	}
	out := &SemanticChanges{Content: c}
	if base != nil {
		out.From, err = r.RevisionContent(ctx, spaceID, *base, nil)
	}
	return out, err
}

// RevisionPageDiff is the unified diff of a page's Markdown from revision from (else the first
// parent of revisionID) to revision revisionID of a space.
func (r *Resolver) RevisionPageDiff(ctx context.Context, spaceID, revisionID, pageID string, from *string) (string, error) {
	c, err := r.comparedRevisions(ctx, spaceID, revisionID, from)
	if err != nil {
		return "", err
	}
	older, olderID := tree.New(nil), ""
	if c.From != nil {
		older, olderID = c.From.Tree, c.From.Revision.ID
	}
	return r.content().PageDiff(ctx, pageID, older, c.Content.Tree, olderID, c.Content.Revision.ID)
}

// revisionChanges is Revision.changes (RevisionChanges), in GraphQL's types.
func (r *Resolver) revisionChanges(ctx context.Context, rev *ent.Revision, from *string, first *int) (*model.RevisionChanges, error) {
	sc, err := r.RevisionChanges(ctx, rev.SpaceID, rev.ID, from, *first)
	if err != nil {
		return nil, err
	}
	out := &model.RevisionChanges{MergedFrom: sc.MergedFrom, More: sc.More, Changes: make([]*model.RevisionChange, len(sc.Changes))}
	for i, c := range sc.Changes {
		out.Changes[i] = revisionChange(c)
	}
	return out, nil
}

func revisionChange(c revisions.Change) *model.RevisionChange {
	out := &model.RevisionChange{Type: strings.ToUpper(c.Type), Page: changedPage(c.Page, c.PagePath),
		ParentBefore: changedPage(c.ParentBefore, ""), ParentAfter: changedPage(c.ParentAfter, ""),
		Attributes: []*model.ChangedAttribute{}}
	if f := c.File; f != nil {
		out.File = &model.ChangedFile{ID: f.ID, Name: f.Name, ContentType: f.ContentType}
	}
	if rc := c.Reusable; rc != nil {
		out.ReusableContent = &model.ChangedReusableContent{ID: rc.ID, Title: rc.Title}
	}
	for _, name := range slices.Sorted(maps.Keys(c.Attributes)) {
		v := c.Attributes[name]
		out.Attributes = append(out.Attributes, &model.ChangedAttribute{Name: name, Before: attributeText(v.Before), After: attributeText(v.After)})
	}
	return out
}

func changedPage(p *tree.Page, path string) *model.ChangedPage {
	if p == nil {
		return nil
	}
	return &model.ChangedPage{ID: p.ID, Type: p.Type, Title: p.Title, Path: path}
}

// attributeText is an attribute's value as text; null for none.
func attributeText(v any) *string {
	if v == nil || v == "" {
		return nil
	}
	s := fmt.Sprint(v)
	return &s
}

// spaceHistory is Space.history: the revisions of the space's main content (those of no change
// request), newest first, each merge's with the change request merged.
func (r *Resolver) spaceHistory(ctx context.Context, s *ent.Space, first *int, after *string) (*model.RevisionHistoryConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	q := r.Client.Revision.Query().Where(revision.SpaceID(s.ID), revision.ChangeRequestIDIsNil())
	p, err := flat(ctx, q, page.Order{Column: revision.FieldCreatedAt, Desc: true}, args, true, revisionCursor)
	if err != nil {
		return nil, err
	}
	merged, err := r.mergedChangeRequests(ctx, s.ID, p.Items)
	if err != nil {
		return nil, err
	}
	var commits map[string]*ent.GitCommit
	if edgeFieldAsked(ctx, "message") { // read only when asked: Revision.git reads them too
		if commits, err = gitsync.CommitsOf(ctx, r.Client, revisionIDs(p.Items)); err != nil {
			return nil, err
		}
	}
	return &model.RevisionHistoryConnection{
		Edges: edges(ctx, p.Items, revisionCursor, func(c string, rev *ent.Revision) *model.RevisionHistoryEdge {
			return &model.RevisionHistoryEdge{Cursor: c, Node: rev, ChangeRequest: merged[rev.ID],
				Message: revisionMessage(merged[rev.ID], commits[rev.ID])}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// mergedChangeRequests are the change requests of space whose merges made revs, by revision id,
// read in one statement.
func (r *Resolver) mergedChangeRequests(ctx context.Context, spaceID string, revs []*ent.Revision) (map[string]*ent.ChangeRequest, error) {
	var ids []string
	for _, rev := range revs {
		if rev.Type == revision.TypeMerge {
			ids = append(ids, rev.ID)
		}
	}
	out := map[string]*ent.ChangeRequest{}
	if len(ids) == 0 {
		return out, nil
	}
	crs, err := r.Client.ChangeRequest.Query().Where(changerequest.SpaceID(spaceID), changerequest.RevisionMergedIDIn(ids...)).All(ctx)
	for _, cr := range crs {
		out[*cr.RevisionMergedID] = cr
	}
	return out, err
}

func revisionCursor(rev *ent.Revision) page.Cursor {
	return page.Cursor{Key: rev.CreatedAt, ID: rev.ID}
}

// revisionIDs are the ids of revs.
func revisionIDs(revs []*ent.Revision) []string {
	ids := make([]string, len(revs))
	for i, rev := range revs {
		ids[i] = rev.ID
	}
	return ids
}

// revisionMessage is a revision's message in its history (decision 557): the subject of the
// change request whose merge made it, else its git commit's message; nil when it has neither.
func revisionMessage(cr *ent.ChangeRequest, commit *ent.GitCommit) *string {
	switch {
	case cr != nil && strings.TrimSpace(cr.Subject) != "":
		return &cr.Subject
	case commit != nil && commit.Message != "":
		return &commit.Message
	}
	return nil
}
