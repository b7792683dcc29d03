package loader

import (
	"context"

	"entgo.io/ent/dialect/sql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/changerequestreview"
	"github.com/binderyhq/bindery/ent/changerequestreviewer"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/internal/page"
)

// ChangeRequestFilter narrows and sorts a space's change requests.
type ChangeRequestFilter struct {
	Status      changerequest.Status // "" for every status
	Creator     string               // a user id: only the change requests they created
	Contributor string               // a user id: those they created or made a revision in
	// RequestedReviewer is a user id: those whose review is requested of them or of a team of theirs.
	RequestedReviewer string
	// ReviewStatus: those with a current (not outdated) review of this status.
	ReviewStatus changerequestreview.Status
	ByCreation   bool // newest created first, instead of last updated first
}

// ChangeRequestPage returns one page of a space's change requests the viewer can read.
func (l *Loaders) ChangeRequestPage(ctx context.Context, s *ent.Space, f ChangeRequestFilter, a page.Args) (Page[*ent.ChangeRequest], error) {
	return Get(ctx, l.client, changeRequestPages, s, func(s *ent.Space) pageKey[ChangeRequestFilter] { return pageOf(s.ID, f, a) })
}

var changeRequestPages = pages("change request pages", fromQuery(pageSource[ChangeRequestFilter, *ent.ChangeRequest]{
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
}, func(c *ent.Client, f ChangeRequestFilter) *ent.ChangeRequestQuery {
	return c.ChangeRequest.Query().Where(f.predicates()...)
}))

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
	if f.RequestedReviewer != "" {
		p = append(p, changerequest.HasReviewersWith(changerequestreviewer.Or(
			changerequestreviewer.UserID(f.RequestedReviewer), teamsOf(f.RequestedReviewer))))
	}
	if f.ReviewStatus != "" {
		p = append(p, currentReviewWith(f.ReviewStatus))
	}
	return p
}

// teamsOf matches the review requests of the teams the user is a member of.
func teamsOf(userID string) predicate.ChangeRequestReviewer {
	return func(s *sql.Selector) {
		t := sql.Table(teammember.Table)
		s.Where(sql.In(s.C(changerequestreviewer.FieldTeamID),
			sql.Select(t.C(teammember.FieldTeamID)).From(t).Where(sql.EQ(t.C(teammember.FieldUserID), userID))))
	}
}

// currentReviewWith matches the change requests with a current review of the status: one not
// superseded, made against the change request's revision as it is.
func currentReviewWith(status changerequestreview.Status) predicate.ChangeRequest {
	return func(s *sql.Selector) {
		t := sql.Table(changerequestreview.Table)
		s.Where(sql.Exists(sql.Select(t.C(changerequestreview.FieldID)).From(t).Where(sql.And(
			sql.ColumnsEQ(t.C(changerequestreview.FieldChangeRequestID), s.C(changerequest.FieldID)),
			sql.ColumnsEQ(t.C(changerequestreview.FieldRevisionID), s.C(changerequest.FieldRevisionID)),
			sql.EQ(t.C(changerequestreview.FieldStatus), status),
			sql.EQ(t.C(changerequestreview.FieldSuperseded), false),
		))))
	}
}

// Revisions looks up revisions by id: nil for one the viewer may not read.
var Revisions = byID("revisions", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.Revision, error) {
	return c.Revision.Query().Where(revision.IDIn(ids...)).All(ctx)
}, func(r *ent.Revision) string { return r.ID })

// Profiles looks up the public profiles of users: the users without their email, read whatever
// the viewer's organizations. Callers ask only for the authors of what the viewer may read (a
// change request of a public space), who are named with their work whether or not the viewer
// could otherwise see them.
var Profiles = byID("profiles", func(ctx context.Context, c *ent.Client, ids []string) ([]*ent.User, error) {
	return c.User.Query().Where(user.IDIn(ids...)).
		Select(user.FieldID, user.FieldDisplayName, user.FieldPhotoURL).All(privacy.DecisionContext(ctx, privacy.Allow))
}, func(u *ent.User) string { return u.ID })
