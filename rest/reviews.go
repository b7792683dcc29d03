package rest

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequestreview"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/changerequests"
)

// ChangeRequestReview is the wire shape of a review (reference ChangeRequestReview).
type ChangeRequestReview struct {
	Object      string     `json:"object"`
	ID          string     `json:"id"`
	Revision    string     `json:"revision"`
	Reviewer    *User      `json:"reviewer,omitempty"`
	RequestedBy *User      `json:"requestedBy,omitempty"`
	Status      string     `json:"status"`
	Outdated    bool       `json:"outdated"`
	Comment     *Comment   `json:"comment,omitempty"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
	URLs        reviewURLs `json:"urls"`
}

type reviewURLs struct {
	Location string `json:"location"`
}

// review converts a review, its comment's body in format (document or markdown).
func (a *api) review(format string) func(context.Context, *ent.ChangeRequestReview) (ChangeRequestReview, error) {
	return func(ctx context.Context, rv *ent.ChangeRequestReview) (ChangeRequestReview, error) {
		fields := a.r.ChangeRequestReview()
		w := ChangeRequestReview{Object: "change-request-review", ID: rv.ID, Revision: rv.RevisionID,
			Status: string(rv.Status), CreatedAt: rv.CreatedAt, UpdatedAt: rv.UpdatedAt,
			URLs: reviewURLs{Location: a.url("/v1/spaces/" + rv.SpaceID + "/change-requests/" + rv.ChangeRequestID + "/reviews/" + rv.ID)}}
		err := parallel(
			func() (err error) { w.Reviewer, err = a.optUser(fields.Reviewer(ctx, rv)); return err },
			func() (err error) { w.RequestedBy, err = a.optUser(fields.RequestedBy(ctx, rv)); return err },
			func() (err error) { w.Outdated, err = fields.Outdated(ctx, rv); return err },
			func() (err error) { w.Comment, err = a.optComment(ctx, format, rv); return err },
		)
		return w, err
	}
}

// optComment is the comment of a review, nil without one.
func (a *api) optComment(ctx context.Context, format string, rv *ent.ChangeRequestReview) (*Comment, error) {
	c, err := a.r.ChangeRequestReview().Comment(ctx, rv)
	if c == nil || err != nil {
		return nil, err
	}
	w, err := a.commentIn(ctx, c, format)
	return &w, err
}

// reviewFormat reads the documentFormat of a review's comment.
func reviewFormat(r *http.Request) (string, error) {
	return query{r}.oneOf("format", "document", "markdown")
}

// listReviews answers GET …/change-requests/{changeRequestId}/reviews: `outdated` narrows to
// the outdated (true) or current (false) reviews.
func (a *api) listReviews(w http.ResponseWriter, r *http.Request) {
	format, err := reviewFormat(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	serveList(w, r, a.review(format), func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.ChangeRequestReview], error) {
		outdated, err := query{r}.boolean("outdated")
		if err != nil {
			return nil, err
		}
		cr, err := a.r.Query().ChangeRequest(ctx, chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"))
		if err != nil {
			return nil, err
		}
		return a.r.ChangeRequest().Reviews(ctx, cr, outdated, limit, page)
	})
}

// getReview answers GET …/reviews/{reviewId}.
func (a *api) getReview(w http.ResponseWriter, r *http.Request) {
	format, err := reviewFormat(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	rv, err := a.r.ReadChangeRequestReview(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"), chi.URLParam(r, "reviewId"))
	respondWith(w, r, http.StatusOK, rv, err, a.review(format))
}

// reviewStatus is a review status in a request body.
type reviewStatus changerequestreview.Status

func (s *reviewStatus) UnmarshalJSON(b []byte) error {
	return decodeEnum(b, (*changerequestreview.Status)(s), changerequestreview.StatusValidator, "approved or changes-requested")
}

type submitReviewBody struct {
	Status  notNull[reviewStatus] `json:"status"`
	Comment notNull[commentBody]  `json:"comment"`
}

// submitReview answers POST …/reviews with the new review (201, its address in Location).
func (a *api) submitReview(w http.ResponseWriter, r *http.Request) {
	var body submitReviewBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Status.Value == nil {
		writeError(w, r, missing("status"))
		return
	}
	in := model.SubmitChangeRequestReviewInput{Status: changerequestreview.Status(*body.Status.Value)}
	if c := body.Comment.Value; c != nil {
		in.Comment, in.CommentDocument = c.Markdown, c.document()
	}
	rv, err := a.r.Mutation().SubmitChangeRequestReview(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"), in)
	if err == nil {
		w.Header().Set("Location", a.url("/v1/spaces/"+rv.SpaceID+"/change-requests/"+rv.ChangeRequestID+"/reviews/"+rv.ID))
	}
	respondWith(w, r, http.StatusCreated, rv, err, a.review("document"))
}

// ChangeRequestRequestedReviewer is the wire shape of a pending review request (reference
// ChangeRequestRequestedReviewer): a user's or a team's.
type ChangeRequestRequestedReviewer struct {
	Object      string    `json:"object"`
	Kind        string    `json:"kind"`
	User        *User     `json:"user,omitempty"`
	Team        *Team     `json:"team,omitempty"`
	RequestedBy *User     `json:"requestedBy,omitempty"`
	Revision    string    `json:"revision"`
	CreatedAt   time.Time `json:"createdAt"`
}

func (a *api) requestedReviewer(ctx context.Context, rq *ent.ChangeRequestReviewer) (ChangeRequestRequestedReviewer, error) {
	fields := a.r.ChangeRequestRequestedReviewer()
	w := ChangeRequestRequestedReviewer{Object: "change-request-requested-reviewer", Revision: rq.RevisionID, CreatedAt: rq.CreatedAt}
	w.Kind, _ = fields.Kind(ctx, rq)
	err := parallel(
		func() (err error) { w.User, err = a.optUser(fields.User(ctx, rq)); return err },
		func() (err error) { w.RequestedBy, err = a.optUser(fields.RequestedBy(ctx, rq)); return err },
		func() error {
			t, err := fields.Team(ctx, rq)
			if t == nil || err != nil {
				return err
			}
			wt, err := a.team(ctx, t)
			w.Team = &wt
			return err
		},
	)
	return w, err
}

// listRequestedReviewers answers GET …/requested-reviewers: a page of the pending requests,
// oldest first, as every list is paged.
func (a *api) listRequestedReviewers(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.requestedReviewer, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.ChangeRequestReviewer], error) {
		cr, err := a.r.Query().ChangeRequest(ctx, chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"))
		if err != nil {
			return nil, err
		}
		return a.r.ChangeRequest().RequestedReviewers(ctx, cr, limit, page)
	})
}

type requestReviewersBody struct {
	Users []string `json:"users"`
	// Teams is Bindery's extension of the reference's body: teams of the organization.
	Teams       []string        `json:"teams"`
	Subject     notNull[string] `json:"subject"`
	Description notNull[any]    `json:"description"`
}

type requestedReviewers struct {
	Users []ChangeRequestRequestedReviewer `json:"users"`
}

// requestReviewers answers POST …/requested-reviewers `{users, teams?, subject?}` (users may be
// empty when teams are given) with the
// requests made (a team's among them, with kind team). A description is refused: Bindery's
// change requests have none.
func (a *api) requestReviewers(w http.ResponseWriter, r *http.Request) {
	var body requestReviewersBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Users == nil {
		writeError(w, r, missing("users"))
		return
	}
	if body.Description.Value != nil {
		writeError(w, r, apperr.Invalidf("description: change request descriptions are not supported"))
		return
	}
	made, err := a.r.Mutation().RequestChangeRequestReviewers(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"),
		model.RequestChangeRequestReviewersInput{Users: body.Users, Teams: body.Teams, Subject: body.Subject.Value})
	respondWith(w, r, http.StatusOK, made, err, func(ctx context.Context, made []*ent.ChangeRequestReviewer) (requestedReviewers, error) {
		items, err := listOf(a.requestedReviewer)(ctx, made)
		return requestedReviewers{Users: items.Items}, err
	})
}

// removeRequestedReviewer answers DELETE …/requested-reviewers/{userId} (a user's or a team's
// id): 205 once removed, 204 when there was no such request.
func (a *api) removeRequestedReviewer(w http.ResponseWriter, r *http.Request) {
	removed, err := a.r.Mutation().RemoveChangeRequestReviewer(r.Context(), chi.URLParam(r, "spaceId"),
		chi.URLParam(r, "changeRequestId"), chi.URLParam(r, "userId"))
	status := http.StatusResetContent
	if !removed {
		status = http.StatusNoContent
	}
	respondEmpty(w, r, status, err)
}

// ChangeRequestContributor is the wire shape of a contributor (reference
// ChangeRequestUserContributor).
type ChangeRequestContributor struct {
	User       *User     `json:"user,omitempty"`
	ActionType string    `json:"actionType"`
	Count      int       `json:"count"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

func (a *api) contributor(ctx context.Context, c *changerequests.Contributor) (ChangeRequestContributor, error) {
	u, err := a.optUser(a.r.ChangeRequestContributor().User(ctx, c))
	return ChangeRequestContributor{User: u, ActionType: c.Action, Count: c.Count, UpdatedAt: c.UpdatedAt}, err
}

// listContributors answers GET …/contributors, latest first, in one page.
func (a *api) listContributors(w http.ResponseWriter, r *http.Request) {
	cr, err := a.r.Query().ChangeRequest(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	cs, err := a.r.ChangeRequest().Contributors(r.Context(), cr)
	respondWith(w, r, http.StatusOK, cs, err, listOf(a.contributor))
}

// listOf converts a whole list, unpaged, into List<W> with its count.
func listOf[N, W any](conv func(context.Context, N) (W, error)) func(context.Context, []N) (List[W], error) {
	return func(ctx context.Context, nodes []N) (List[W], error) {
		items, err := convertAll(ctx, nodes, conv)
		n := len(items)
		return List[W]{Count: &n, Items: items}, err
	}
}
