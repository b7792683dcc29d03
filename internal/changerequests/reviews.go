package changerequests

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/changerequestreview"
	"github.com/binderyhq/bindery/ent/changerequestreviewer"
	"github.com/binderyhq/bindery/ent/comment"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/revision"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/content/revisions"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/txn"
)

// maxRequested bounds the users and teams one request for reviews names.
const maxRequested = 50

// ReviewsOf is the query of the reviews of a change request the viewer read, narrowed to the
// outdated or the current ones when outdated is given.
func (svc *Service) ReviewsOf(ctx context.Context, cr *ent.ChangeRequest, outdated *bool) *ent.ChangeRequestReviewQuery {
	q := svc.Client.ChangeRequestReview.Query().Where(changerequestreview.ChangeRequestID(cr.ID))
	if outdated != nil {
		q.Where(outdatedIs(cr, *outdated))
	}
	return q
}

// outdatedIs matches the reviews of cr that are outdated (want) or current (!want).
func outdatedIs(cr *ent.ChangeRequest, want bool) predicate.ChangeRequestReview {
	out := changerequestreview.Or(changerequestreview.Superseded(true), changerequestreview.RevisionIDNEQ(cr.RevisionID))
	if want {
		return out
	}
	return changerequestreview.Not(out)
}

// ReviewOutdated reports whether a review of cr is outdated: the change request's content moved
// on since the review (edits, an update from the space), or a newer review by the same reviewer
// or a new request of their review superseded it.
func ReviewOutdated(cr *ent.ChangeRequest, r *ent.ChangeRequestReview) bool {
	return r.Superseded || r.RevisionID != cr.RevisionID
}

// Review returns a review of a change request the viewer reads, with the change request as its
// edge. Returns NOT_FOUND when any of them is not there for the viewer.
func (svc *Service) Review(ctx context.Context, spaceID, ref, id string) (*ent.ChangeRequestReview, error) {
	cr, err := svc.InSpace(ctx, spaceID, ref)
	if err != nil {
		return nil, err
	}
	return svc.ReviewOf(ctx, cr, id)
}

// ReviewOf returns a review of a change request the viewer read, with the change request as its
// edge. Returns NOT_FOUND when there is none by that id.
func (svc *Service) ReviewOf(ctx context.Context, cr *ent.ChangeRequest, id string) (*ent.ChangeRequestReview, error) {
	r, err := svc.Client.ChangeRequestReview.Query().
		Where(changerequestreview.ChangeRequestID(cr.ID), changerequestreview.ID(id)).Only(ctx)
	if err != nil {
		return nil, rule.NotFound(err, "review")
	}
	r.Edges.ChangeRequest = cr
	return r, nil
}

// ChangeRequestOf is the change request of a review: the one it was read with, else read now.
func (svc *Service) ChangeRequestOf(ctx context.Context, r *ent.ChangeRequestReview) (*ent.ChangeRequest, error) {
	if cr := r.Edges.ChangeRequest; cr != nil {
		return cr, nil
	}
	return svc.Read(ctx, r.ChangeRequestID)
}

// ReviewInput is a review to submit: its status and an optional comment (Markdown) posted in the
// change request with it.
type ReviewInput struct {
	Status  changerequestreview.Status
	Comment *string
}

// SubmitReview records the viewer's review of a change request (by id or number) as its content
// is now. It takes the review role on the space (NOT_FOUND when the viewer cannot read it,
// FORBIDDEN below review, and FORBIDDEN for the author approving their own change request);
// INVALID for an unknown status or a merged or archived change request. The viewer's earlier
// reviews of it become outdated, and the requests of their review (theirs, and their teams')
// are answered and removed; the comment, when given, is posted in the change request in the
// review's transaction.
func (svc *Service) SubmitReview(ctx context.Context, spaceID, ref string, in ReviewInput) (*ent.ChangeRequestReview, error) {
	s, cr, err := svc.Target(ctx, spaceID, ref, viewer.RoleReview, "review change requests")
	if err != nil {
		return nil, err
	}
	if err := changerequestreview.StatusValidator(in.Status); err != nil {
		return nil, apperr.Invalidf("status: must be approved or changes-requested")
	}
	if err := reviewable(cr); err != nil {
		return nil, err
	}
	uid := viewer.FromContext(ctx).UserID
	if in.Status == changerequestreview.StatusApproved && cr.CreatedBy == uid {
		return nil, apperr.Forbiddenf("status: the author of change request #%d cannot approve it", cr.Number)
	}
	id := changerequestreview.DefaultID() // known before the review's comment is posted, which names it
	if in.Comment != nil {
		err = svc.PostComment(ctx, s.ID, cr.ID, id, *in.Comment, func(tx *ent.Tx, commentID string) error {
			return insertReview(ctx, tx, id, s.ID, cr.ID, uid, in.Status, &commentID)
		})
	} else {
		err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
			return insertReview(ctx, tx, id, s.ID, cr.ID, uid, in.Status, nil)
		})
	}
	if err != nil {
		return nil, err
	}
	return svc.ReviewOf(ctx, cr, id)
}

// reviewable refuses reviews and review requests of a merged or archived change request.
func reviewable(cr *ent.ChangeRequest) error {
	if cr.Status == changerequest.StatusMerged || cr.Status == changerequest.StatusArchived {
		return apperr.Invalidf("change request #%d is %s: it can no longer be reviewed", cr.Number, cr.Status)
	}
	return nil
}

// insertReview writes, in tx and under the space's row lock, a review of the change request as
// its revision is now, superseding the reviewer's earlier ones and answering the requests of
// their review.
func insertReview(ctx context.Context, tx *ent.Tx, id, spaceID, crID, uid string, status changerequestreview.Status, commentID *string) error {
	cr, err := lockChangeRequest(ctx, tx, spaceID, crID)
	if err != nil {
		return err
	}
	if err := reviewable(cr); err != nil {
		return err
	}
	answered, err := requestsOf(ctx, tx, cr.ID, uid)
	if err != nil {
		return err
	}
	if err := supersede(ctx, tx, cr.ID, uid); err != nil {
		return err
	}
	create := tx.ChangeRequestReview.Create().SetID(id).SetOrganizationID(cr.OrganizationID).SetSpaceID(cr.SpaceID).
		SetChangeRequestID(cr.ID).SetReviewerID(uid).SetStatus(status).SetRevisionID(cr.RevisionID).
		SetNillableCommentID(commentID)
	if len(answered) > 0 {
		create.SetRequestedBy(answered[0].RequestedBy)
	}
	if err := create.Exec(ctx); err != nil {
		return err
	}
	ids := make([]string, len(answered))
	for i, a := range answered {
		ids[i] = a.ID
	}
	if _, err := tx.ChangeRequestReviewer.Delete().Where(changerequestreviewer.IDIn(ids...)).Exec(ctx); err != nil {
		return err
	}
	return recordChangeRequest(ctx, tx, events.ChangeRequestReviewSubmitted, cr,
		map[string]any{"number": cr.Number, "review": id, "status": status, "reviewer": uid})
}

// lockChangeRequest reads a change request of a space in tx, locking the space's row and then
// the change request's (the order every content write takes). Returns NOT_FOUND.
func lockChangeRequest(ctx context.Context, tx *ent.Tx, spaceID, crID string) (*ent.ChangeRequest, error) {
	if _, err := revisions.LockSpace(ctx, tx, spaceID); err != nil {
		return nil, err
	}
	cr, err := tx.ChangeRequest.Query().Where(changerequest.ID(crID)).Modify(txn.ForUpdate).Only(ctx)
	return cr, rule.NotFound(err, "change request")
}

// requestsOf are the pending requests of a change request that a review by uid answers: the
// user's own first, then those of their teams.
func requestsOf(ctx context.Context, tx *ent.Tx, crID, uid string) ([]*ent.ChangeRequestReviewer, error) {
	teams, err := tx.TeamMember.Query().Where(teammember.UserID(uid)).Select(teammember.FieldTeamID).Strings(ctx)
	if err != nil {
		return nil, err
	}
	reqs, err := tx.ChangeRequestReviewer.Query().Where(changerequestreviewer.ChangeRequestID(crID),
		changerequestreviewer.Or(changerequestreviewer.UserID(uid), changerequestreviewer.TeamIDIn(teams...))).
		Order(ent.Asc(changerequestreviewer.FieldTeamID)).All(ctx)
	slices.SortStableFunc(reqs, func(a, b *ent.ChangeRequestReviewer) int { return boolOrder(a.UserID == nil, b.UserID == nil) })
	return reqs, err
}

// boolOrder sorts false before true.
func boolOrder(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// supersede marks the current reviews of a change request by the given users outdated.
func supersede(ctx context.Context, tx *ent.Tx, crID string, users ...string) error {
	if len(users) == 0 {
		return nil
	}
	return tx.ChangeRequestReview.Update().Where(changerequestreview.ChangeRequestID(crID),
		changerequestreview.ReviewerIDIn(users...), changerequestreview.Superseded(false)).SetSuperseded(true).Exec(ctx)
}

// ReviewRequest asks users and teams of the space's organization to review a change request, and
// may change its subject in the same write.
type ReviewRequest struct {
	Users, Teams []string
	Subject      *string
}

// RequestReviewers asks users and teams to review a change request (by id or number); a user or
// team asked before is asked again (their request made anew on the current revision, a user's
// earlier reviews outdated). It takes the edit role on the space. Returns the requests it made;
// NOT_FOUND for a user who is not a member of the space's organization or a team of another;
// INVALID for no one to ask, too many, the author, or a merged or archived change request.
func (svc *Service) RequestReviewers(ctx context.Context, spaceID, ref string, in ReviewRequest) ([]*ent.ChangeRequestReviewer, error) {
	s, cr, err := svc.Target(ctx, spaceID, ref, viewer.RoleEdit, "request reviews of its change requests")
	if err != nil {
		return nil, err
	}
	in.Users, in.Teams = check.Distinct(in.Users), check.Distinct(in.Teams)
	if err := checkRequest(cr, in); err != nil {
		return nil, err
	}
	if in.Subject, err = checkNewSubject(in.Subject); err != nil {
		return nil, err
	}
	if err := svc.checkReviewers(ctx, s, in.Users, in.Teams); err != nil {
		return nil, err
	}
	var ids []string
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) (err error) {
		ids, err = insertRequests(ctx, tx, s.ID, cr.ID, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return svc.Client.ChangeRequestReviewer.Query().Where(changerequestreviewer.IDIn(ids...)).
		Order(ent.Asc(changerequestreviewer.FieldCreatedAt), ent.Asc(changerequestreviewer.FieldID)).All(ctx)
}

// checkRequest checks who a request names. Returns INVALID.
func checkRequest(cr *ent.ChangeRequest, in ReviewRequest) error {
	switch n := len(in.Users) + len(in.Teams); {
	case n == 0:
		return apperr.Invalidf("users: name at least one user or team to review")
	case n > maxRequested:
		return apperr.Invalidf("users: at most %d users and teams at once", maxRequested)
	case slices.Contains(in.Users, cr.CreatedBy):
		return apperr.Invalidf("users: %s is the author of change request #%d and cannot review it", cr.CreatedBy, cr.Number)
	}
	return reviewable(cr)
}

// checkReviewers checks that the users are members of the space's organization who hold the
// review role on it, and the teams its teams. Returns NOT_FOUND naming the first who is not a
// member or team, INVALID naming the first user without the review role.
func (svc *Service) checkReviewers(ctx context.Context, s *ent.Space, users, teams []string) error {
	orgID := s.OrganizationID
	sys := privacy.DecisionContext(ctx, privacy.Allow) // whether someone belongs, not what they show
	found, err := svc.Client.Member.Query().Where(member.OrganizationID(orgID), member.UserIDIn(users...), member.Disabled(false)).
		Select(member.FieldUserID).Strings(sys)
	if err != nil {
		return err
	}
	if missing := absent(users, found); missing != "" {
		return apperr.NotFoundf("users: user %s is not a member of the space's organization", missing)
	}
	found, err = svc.Client.Team.Query().Where(team.OrganizationID(orgID), team.IDIn(teams...)).IDs(sys)
	if err != nil {
		return err
	}
	if missing := absent(teams, found); missing != "" {
		return apperr.NotFoundf("teams: team %s not found in the space's organization", missing)
	}
	return svc.checkReviewRole(ctx, s, users)
}

// checkReviewRole refuses a user who could not review the space: their role on it, computed as
// theirs is, is below review. Returns INVALID naming the first.
func (svc *Service) checkReviewRole(ctx context.Context, s *ent.Space, users []string) error {
	for _, u := range users {
		subject, err := rule.MemberSubject(ctx, svc.Client, s.OrganizationID, u)
		if err != nil {
			return err
		}
		role, err := rule.RoleOn(viewer.NewContext(ctx, subject), s.OrganizationID, s.ID, true)
		if err != nil {
			return err
		}
		if !role.AtLeast(viewer.RoleReview) {
			return apperr.Invalidf("users: user %s cannot review change requests of this space (their role on it is %s, below %s)",
				u, cmp.Or(string(role), "none"), viewer.RoleReview)
		}
	}
	return nil
}

// absent is the first of want not in got, "" when all are.
func absent(want, got []string) string {
	for _, w := range want {
		if !slices.Contains(got, w) {
			return w
		}
	}
	return ""
}

// insertRequests writes, in tx under the change request's lock, the requests in names (each
// replacing an earlier one of the same user or team), and the subject when it changes. Returns
// the requests' ids.
func insertRequests(ctx context.Context, tx *ent.Tx, spaceID, crID string, in ReviewRequest) ([]string, error) {
	cr, err := lockChangeRequest(ctx, tx, spaceID, crID)
	if err != nil {
		return nil, err
	}
	if err := reviewable(cr); err != nil {
		return nil, err
	}
	if in.Subject != nil {
		if err := update(ctx, tx, spaceID, cr.ID, Change{Subject: in.Subject}); err != nil {
			return nil, err
		}
	}
	_, err = tx.ChangeRequestReviewer.Delete().Where(changerequestreviewer.ChangeRequestID(cr.ID),
		changerequestreviewer.Or(changerequestreviewer.UserIDIn(in.Users...), changerequestreviewer.TeamIDIn(in.Teams...))).Exec(ctx)
	if err != nil {
		return nil, err
	}
	if err := supersede(ctx, tx, cr.ID, in.Users...); err != nil {
		return nil, err
	}
	uid := viewer.FromContext(ctx).UserID
	create := func(u, t *string) *ent.ChangeRequestReviewerCreate {
		return tx.ChangeRequestReviewer.Create().SetOrganizationID(cr.OrganizationID).SetSpaceID(cr.SpaceID).
			SetChangeRequestID(cr.ID).SetNillableUserID(u).SetNillableTeamID(t).SetRequestedBy(uid).SetRevisionID(cr.RevisionID)
	}
	var builders []*ent.ChangeRequestReviewerCreate
	for _, u := range in.Users {
		builders = append(builders, create(&u, nil))
	}
	for _, t := range in.Teams {
		builders = append(builders, create(nil, &t))
	}
	made, err := tx.ChangeRequestReviewer.CreateBulk(builders...).Save(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(made))
	for i, m := range made {
		ids[i] = m.ID
	}
	return ids, recordChangeRequest(ctx, tx, events.ChangeRequestReviewersChanged, cr,
		map[string]any{"number": cr.Number, "requested": map[string]any{"users": in.Users, "teams": in.Teams}})
}

// RemoveReviewer withdraws the request of a user's or a team's review (id) of a change request.
// It takes the edit role on the space; reports whether there was such a request.
func (svc *Service) RemoveReviewer(ctx context.Context, spaceID, ref, id string) (bool, error) {
	s, cr, err := svc.Target(ctx, spaceID, ref, viewer.RoleEdit, "withdraw review requests of its change requests")
	if err != nil {
		return false, err
	}
	var n int
	err = txn.Run(ctx, svc.Client, func(tx *ent.Tx) error {
		locked, err := lockChangeRequest(ctx, tx, s.ID, cr.ID)
		if err != nil {
			return err
		}
		n, err = tx.ChangeRequestReviewer.Delete().Where(changerequestreviewer.ChangeRequestID(cr.ID),
			changerequestreviewer.Or(changerequestreviewer.UserID(id), changerequestreviewer.TeamID(id))).Exec(ctx)
		if err != nil || n == 0 {
			return err
		}
		return recordChangeRequest(ctx, tx, events.ChangeRequestReviewersChanged, locked,
			map[string]any{"number": locked.Number, "removed": id})
	})
	return n > 0, err
}

// RequestedReviewersOf is the query of the pending review requests of a change request the
// viewer read (paged oldest first by its callers; a change request's requests are few, found by
// the index on (change_request_id, user_id)).
func (svc *Service) RequestedReviewersOf(cr *ent.ChangeRequest) *ent.ChangeRequestReviewerQuery {
	return svc.Client.ChangeRequestReviewer.Query().Where(changerequestreviewer.ChangeRequestID(cr.ID))
}

// Contributor is a user's contributions of one kind to a change request: edit (revisions made in
// it) or comment (comments posted in it), how many and the latest.
type Contributor struct {
	UserID    string
	Action    string
	Count     int
	UpdatedAt time.Time
}

// maxContributions bounds the revisions and the comments read to count contributors.
const maxContributions = 10000

// ContributorsOf returns who contributed to a change request the viewer read, latest first: one
// entry per user and action (edit, comment).
func (svc *Service) ContributorsOf(ctx context.Context, cr *ent.ChangeRequest) ([]Contributor, error) {
	var edits []struct {
		CreatedBy *string   `json:"created_by"`
		CreatedAt time.Time `json:"created_at"`
	}
	err := svc.Client.Revision.Query().Where(revision.ChangeRequestID(cr.ID), revision.CreatedByNotNil()).Limit(maxContributions).
		Select(revision.FieldCreatedBy, revision.FieldCreatedAt).Scan(ctx, &edits)
	if err != nil {
		return nil, err
	}
	var comments []struct {
		PostedBy  string    `json:"posted_by"`
		CreatedAt time.Time `json:"created_at"`
	}
	err = svc.Client.Comment.Query().Where(comment.ChangeRequestID(cr.ID)).Limit(maxContributions).
		Select(comment.FieldPostedBy, comment.FieldCreatedAt).Scan(ctx, &comments)
	if err != nil {
		return nil, err
	}
	tally := contributions{}
	for _, e := range edits {
		tally.add(*e.CreatedBy, "edit", e.CreatedAt)
	}
	for _, c := range comments {
		tally.add(c.PostedBy, "comment", c.CreatedAt)
	}
	return tally.sorted(), nil
}

// contributions counts contributions by user and action.
type contributions map[[2]string]*Contributor

func (t contributions) add(user, action string, at time.Time) {
	c := t[[2]string{user, action}]
	if c == nil {
		c = &Contributor{UserID: user, Action: action}
		t[[2]string{user, action}] = c
	}
	c.Count++
	if at.After(c.UpdatedAt) {
		c.UpdatedAt = at
	}
}

// sorted is the contributors, latest first (then by user and action, for a stable order).
func (t contributions) sorted() []Contributor {
	out := make([]Contributor, 0, len(t))
	for _, c := range t {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Contributor) int {
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(a.UserID, b.UserID), cmp.Compare(a.Action, b.Action))
	})
	return out
}
