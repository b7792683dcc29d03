package loader

import (
	"context"

	"entgo.io/ent/dialect/sql"
	"github.com/graph-gophers/dataloader/v7"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/graph/page"
)

// ChangeRequestFilter narrows and sorts a space's change requests.
type ChangeRequestFilter struct {
	Status      changerequest.Status // "" for every status
	Creator     string               // a user id: only the change requests they created
	Contributor string               // a user id: those they created or made a revision in
	ByCreation  bool                 // newest created first, instead of last updated first
}

// ChangeRequestPage returns one page of a space's change requests the viewer can read.
func (l *Loaders) ChangeRequestPage(ctx context.Context, spaceID string, f ChangeRequestFilter, a page.Args) (Page[*ent.ChangeRequest], error) {
	return l.changeRequestPages.Load(ctx, pageKey[ChangeRequestFilter]{spaceID, f, a.Limit, encode(a.After)})()
}

func (l *Loaders) loadChangeRequestPages(ctx context.Context, keys []pageKey[ChangeRequestFilter]) []*dataloader.Result[Page[*ent.ChangeRequest]] {
	return loadPages(ctx, pageSource[ChangeRequestFilter, *ent.ChangeRequest]{
		partition: []string{changerequest.FieldSpaceID},
		order:     func(f ChangeRequestFilter) page.Order { return page.Order{Column: f.column(), Desc: true} },
		parentOf:  func(cr *ent.ChangeRequest) string { return cr.SpaceID },
		idOf:      func(cr *ent.ChangeRequest) string { return cr.ID },
		cursorKey: func(cr *ent.ChangeRequest, f ChangeRequestFilter) any {
			if f.ByCreation {
				return cr.CreatedAt
			}
			return cr.UpdatedAt
		},
		timeKeyed: true,
		fetch: func(ctx context.Context, spaces []string, f ChangeRequestFilter, modify ...func(*sql.Selector)) ([]*ent.ChangeRequest, map[string]int, error) {
			where := append(f.predicates(), changerequest.SpaceIDIn(spaces...))
			q := l.client.ChangeRequest.Query().Where(where...)
			q.Modify(modify...)
			rows, err := q.All(ctx)
			if err != nil {
				return nil, nil, err
			}
			counts, err := countBy(ctx, changerequest.FieldSpaceID, l.client.ChangeRequest.Query().Where(where...).Modify)
			return rows, counts, err
		},
	}, keys)
}

func (f ChangeRequestFilter) column() string {
	if f.ByCreation {
		return changerequest.FieldCreatedAt
	}
	return changerequest.FieldUpdatedAt
}

func (f ChangeRequestFilter) predicates() []predicate.ChangeRequest {
	var p []predicate.ChangeRequest
	if f.Status != "" {
		p = append(p, changerequest.StatusEQ(f.Status))
	}
	if f.Creator != "" {
		p = append(p, changerequest.CreatedBy(f.Creator))
	}
	if f.Contributor != "" {
		p = append(p, changerequest.Or(changerequest.CreatedBy(f.Contributor),
			changerequest.HasRevisionsWith(revision.CreatedBy(f.Contributor))))
	}
	return p
}

// Revision returns the revision with the id, or nil when there is none the viewer may read.
func (l *Loaders) Revision(ctx context.Context, id string) (*ent.Revision, error) {
	return l.revisions.Load(ctx, id)()
}

func (l *Loaders) loadRevisions(ctx context.Context, ids []string) []*dataloader.Result[*ent.Revision] {
	rows, err := l.client.Revision.Query().Where(revision.IDIn(ids...)).All(ctx)
	if err != nil {
		return failAll[string, *ent.Revision](ids, err)
	}
	return results(ids, byKey(rows, func(r *ent.Revision) string { return r.ID }), nil)
}

// Profile returns the public profile of a user: the user without their email, read whatever the
// viewer's organizations. Callers ask only for the authors of what the viewer may read (a change
// request of a public space), who are named with their work whether or not the viewer could
// otherwise see them.
func (l *Loaders) Profile(ctx context.Context, id string) (*ent.User, error) {
	return l.profiles.Load(ctx, id)()
}

func (l *Loaders) loadProfiles(ctx context.Context, ids []string) []*dataloader.Result[*ent.User] {
	rows, err := l.client.User.Query().Where(user.IDIn(ids...)).
		Select(user.FieldID, user.FieldDisplayName, user.FieldPhotoURL).All(privacy.DecisionContext(ctx, privacy.Allow))
	if err != nil {
		return failAll[string, *ent.User](ids, err)
	}
	return results(ids, byKey(rows, func(u *ent.User) string { return u.ID }), nil)
}
