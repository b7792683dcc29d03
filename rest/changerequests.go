package rest

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequest"
	"github.com/binderyhq/bindery/ent/changerequestreview"
	"github.com/binderyhq/bindery/graph"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
)

// ChangeRequest is the wire shape of a change request. createdBy is absent only if its author's
// account is gone; mergedBy, mergedAt and the revisions of an update or a merge once set.
type ChangeRequest struct {
	Object                 string     `json:"object"`
	ID                     string     `json:"id"`
	Number                 int        `json:"number"`
	Status                 string     `json:"status"`
	Subject                string     `json:"subject"`
	CreatedBy              *User      `json:"createdBy,omitempty"`
	CreatedAt              time.Time  `json:"createdAt"`
	UpdatedAt              time.Time  `json:"updatedAt"`
	MergedBy               *User      `json:"mergedBy,omitempty"`
	MergedAt               *time.Time `json:"mergedAt,omitempty"`
	Space                  string     `json:"space"`
	Revision               string     `json:"revision"`
	RevisionInitial        string     `json:"revisionInitial"`
	RevisionMergedAncestor *string    `json:"revisionMergedAncestor,omitempty"`
	RevisionMerged         *string    `json:"revisionMerged,omitempty"`
	Comments               int        `json:"comments"`
	Outdated               bool       `json:"outdated"`
	URLs                   urls       `json:"urls"`
}

func (a *api) changeRequest(ctx context.Context, cr *ent.ChangeRequest) (ChangeRequest, error) {
	fields := a.r.ChangeRequest()
	w := ChangeRequest{
		Object: "change-request", ID: cr.ID, Number: cr.Number, Status: string(cr.Status), Subject: cr.Subject,
		CreatedAt: cr.CreatedAt, UpdatedAt: cr.UpdatedAt, MergedAt: cr.MergedAt, Space: cr.SpaceID,
		Revision: cr.RevisionID, RevisionInitial: cr.RevisionInitialID,
		RevisionMergedAncestor: cr.RevisionMergedAncestorID, RevisionMerged: cr.RevisionMergedID,
		Comments: cr.CommentsCount,
		URLs: urls{Location: a.changeRequestLocation(cr),
			App: a.url("/o/" + cr.OrganizationID + "/s/" + cr.SpaceID + "/~/changes/" + strconv.Itoa(cr.Number))},
	}
	err := parallel(
		func() (err error) { w.CreatedBy, err = a.optUser(fields.CreatedBy(ctx, cr)); return err },
		func() (err error) { w.MergedBy, err = a.optUser(fields.MergedBy(ctx, cr)); return err },
		func() (err error) { w.Outdated, err = fields.Outdated(ctx, cr); return err },
	)
	return w, err
}

func (a *api) changeRequestLocation(cr *ent.ChangeRequest) string {
	return a.url("/v1/spaces/" + cr.SpaceID + "/change-requests/" + cr.ID)
}

// optUser converts a user a field resolver returned, nil staying nil.
func (a *api) optUser(u *ent.User, err error) (*User, error) {
	if u == nil || err != nil {
		return nil, err
	}
	w := a.user(u)
	return &w, nil
}

// listChangeRequests answers GET /v1/spaces/{spaceId}/change-requests: `status` (default open),
// `creator`, `contributor`, `requestedReviewer`, `reviewStatus` (Bindery's: approved or
// changes-requested, by a current review), `orderBy` (updatedAt or createdAt, newest first).
func (a *api) listChangeRequests(w http.ResponseWriter, r *http.Request) {
	serveList(w, r, a.changeRequest, func(ctx context.Context, limit *int, page *string) (model.Connection[*ent.ChangeRequest], error) {
		args, err := changeRequestListArgs(query{r})
		if err != nil {
			return nil, err
		}
		s, err := a.r.Query().Space(ctx, chi.URLParam(r, "spaceId"), nil)
		if err != nil {
			return nil, err
		}
		return a.r.Space().ChangeRequests(ctx, s, args.Status, args.Creator, args.Contributor,
			args.RequestedReviewer, args.ReviewStatus, args.OrderBy, limit, page)
	})
}

// changeRequestListArgs reads the filters of a change request list (status open by default).
// Returns INVALID naming a parameter with a value outside its enum.
func changeRequestListArgs(q query) (graph.ChangeRequestListArgs, error) {
	status, err := q.oneOf("status", "draft", "open", "archived", "merged")
	if err != nil {
		return graph.ChangeRequestListArgs{}, err
	}
	orderBy, err := q.oneOf("orderBy", "updatedAt", "createdAt")
	if err != nil {
		return graph.ChangeRequestListArgs{}, err
	}
	review, err := q.oneOf("reviewStatus", "approved", "changes-requested")
	if err != nil {
		return graph.ChangeRequestListArgs{}, err
	}
	st := changerequest.StatusOpen
	if status != "" {
		st = changerequest.Status(status)
	}
	args := graph.ChangeRequestListArgs{Status: &st, Creator: q.str("creator"), Contributor: q.str("contributor"),
		RequestedReviewer: q.str("requestedReviewer")}
	if review != "" {
		rs := changerequestreview.Status(review)
		args.ReviewStatus = &rs
	}
	if orderBy == "createdAt" {
		order := model.ChangeRequestOrderCreatedAt
		args.OrderBy = &order
	}
	return args, nil
}

type createChangeRequestBody struct {
	Subject  notNull[string] `json:"subject"`
	Template json.RawMessage `json:"template"`
}

// createChangeRequest answers POST /v1/spaces/{spaceId}/change-requests with the new change
// request and its address in Location. A template is refused: Bindery has no space templates,
// and opening the change request without the asked-for content would be wrong silently.
func (a *api) createChangeRequest(w http.ResponseWriter, r *http.Request) {
	var body createChangeRequestBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	if body.Template != nil {
		writeError(w, r, apperr.Invalidf("template: space templates are not supported"))
		return
	}
	cr, err := a.r.Mutation().CreateChangeRequest(r.Context(), chi.URLParam(r, "spaceId"),
		model.CreateChangeRequestInput{Subject: body.Subject.Value})
	if err == nil {
		w.Header().Set("Location", a.changeRequestLocation(cr))
	}
	respondWith(w, r, http.StatusCreated, cr, err, a.changeRequest)
}

// getChangeRequest answers GET …/change-requests/{changeRequestId} (its id or its number).
func (a *api) getChangeRequest(w http.ResponseWriter, r *http.Request) {
	cr, err := a.r.Query().ChangeRequest(r.Context(), chi.URLParam(r, "spaceId"), chi.URLParam(r, "changeRequestId"))
	respondWith(w, r, http.StatusOK, cr, err, a.changeRequest)
}

// changeRequestStatus is a change request status in a request body; merged passes to the
// resolver, which says why it cannot be set.
type changeRequestStatus changerequest.Status

func (s *changeRequestStatus) UnmarshalJSON(b []byte) error {
	return decodeEnum(b, (*changerequest.Status)(s), changerequest.StatusValidator, "one of draft, open, archived")
}

type updateChangeRequestBody struct {
	Subject notNull[string]              `json:"subject"`
	Status  notNull[changeRequestStatus] `json:"status"`
}

// updateChangeRequest answers PATCH …/change-requests/{changeRequestId}: `{subject?, status?}`;
// with `Prefer: return=minimal` it answers 204 without the change request.
func (a *api) updateChangeRequest(w http.ResponseWriter, r *http.Request) {
	var body updateChangeRequestBody
	if err := decodeBody(r, &body); err != nil {
		writeError(w, r, err)
		return
	}
	in := model.UpdateChangeRequestInput{Subject: body.Subject.Value}
	if s := body.Status.Value; s != nil {
		status := changerequest.Status(*s)
		in.Status = &status
	}
	cr, err := a.r.Mutation().UpdateChangeRequest(r.Context(), chi.URLParam(r, "spaceId"),
		chi.URLParam(r, "changeRequestId"), in)
	if err != nil {
		writeError(w, r, err)
		return
	}
	respondOrMinimal(w, r, http.StatusOK, cr, a.changeRequest)
}

// prefersMinimal reports whether the client asked for no representation of what it changed
// (the reference's returnPreference header, `Prefer: return=minimal`).
func prefersMinimal(r *http.Request) bool {
	for _, v := range r.Header.Values("Prefer") {
		for _, p := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(p), "return=minimal") {
				return true
			}
		}
	}
	return false
}
