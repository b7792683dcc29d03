package graph

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/changerequestreview"
	"github.com/binderyhq/bindery/ent/changerequestreviewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/changerequests"
	"github.com/binderyhq/bindery/internal/comments"
	"github.com/binderyhq/bindery/internal/mergerules"
	"github.com/binderyhq/bindery/internal/page"
)

// Reviews, requested reviewers and contributors of change requests, and merge rules, translate
// between GraphQL (and REST, which calls these resolvers) and internal/changerequests, which
// holds their rules (internal/mergerules decides a merge).

// postReviewComment posts the comment of a review in its change request, writing the review in
// the same transaction (comments.Service.PostThen).
func (r *Resolver) postReviewComment(ctx context.Context, spaceID, crID, reviewID, body string, then func(tx *ent.Tx, commentID string) error) error {
	_, err := r.commentService().PostThen(ctx, spaceID, &crID, comments.PostInput{Body: body, Review: &reviewID}, then)
	return err
}

// reviewOrder is the order of a change request's reviews: oldest first.
var reviewOrder = page.Order{Column: changerequestreview.FieldCreatedAt}

func reviewCursor(rv *ent.ChangeRequestReview) page.Cursor {
	return page.Cursor{Key: rv.CreatedAt, ID: rv.ID}
}

// changeRequestReviews is ChangeRequest.reviews (changerequests.Service.ReviewsOf), a page of them.
func (r *Resolver) changeRequestReviews(ctx context.Context, cr *ent.ChangeRequest, outdated *bool, first *int, after *string) (*model.ChangeRequestReviewConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := flat(ctx, r.changeRequestService().ReviewsOf(ctx, cr, outdated), reviewOrder, args, true, reviewCursor)
	if err != nil {
		return nil, err
	}
	for _, rv := range p.Items {
		rv.Edges.ChangeRequest = cr
	}
	return &model.ChangeRequestReviewConnection{
		Edges: edges(ctx, p.Items, reviewCursor, func(c string, n *ent.ChangeRequestReview) *model.ChangeRequestReviewEdge {
			return &model.ChangeRequestReviewEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// changeRequestReview is ChangeRequest.review: nil when it has none by that id.
func (r *Resolver) changeRequestReview(ctx context.Context, cr *ent.ChangeRequest, id string) (*ent.ChangeRequestReview, error) {
	rv, err := r.changeRequestService().ReviewOf(ctx, cr, id)
	if apperr.IsNotFound(err) {
		return nil, nil
	}
	return rv, err
}

// ReadChangeRequestReview returns a review of a change request (id or number) of a space
// (changerequests.Service.Review). Returns NOT_FOUND when any of them is not there for the viewer.
func (r *Resolver) ReadChangeRequestReview(ctx context.Context, spaceID, crRef, id string) (*ent.ChangeRequestReview, error) {
	return r.changeRequestService().Review(ctx, spaceID, crRef, id)
}

// reviewOutdated is ChangeRequestReview.outdated (changerequests.ReviewOutdated).
func (r *Resolver) reviewOutdated(ctx context.Context, rv *ent.ChangeRequestReview) (bool, error) {
	cr, err := r.changeRequestService().ChangeRequestOf(ctx, rv)
	if err != nil {
		return false, err
	}
	return changerequests.ReviewOutdated(cr, rv), nil
}

// The users a review names, looked up together for the whole level.
var (
	reviewUsers = []func(*ent.ChangeRequestReview) string{reviewReviewer, reviewRequester}
	// requestUsers are the users a review request names.
	requestUsers = []func(*ent.ChangeRequestReviewer) string{requestUser, requestRequester}
)

func reviewReviewer(rv *ent.ChangeRequestReview) string  { return rv.ReviewerID }
func reviewRequester(rv *ent.ChangeRequestReview) string { return derefOr(rv.RequestedBy, "") }
func requestUser(rq *ent.ChangeRequestReviewer) string   { return derefOr(rq.UserID, "") }
func requestRequester(rq *ent.ChangeRequestReviewer) string {
	return rq.RequestedBy
}

// reviewComment is ChangeRequestReview.comment: nil without one, or once it was deleted.
func (r *Resolver) reviewComment(ctx context.Context, rv *ent.ChangeRequestReview) (*ent.Comment, error) {
	return loader.Get(ctx, r.Client, loader.Comments, rv, func(rv *ent.ChangeRequestReview) string { return derefOr(rv.CommentID, "") })
}

// submitReview is Mutation.submitChangeRequestReview (changerequests.Service.SubmitReview).
func (r *Resolver) submitReview(ctx context.Context, spaceID, crRef string, in model.SubmitChangeRequestReviewInput) (*ent.ChangeRequestReview, error) {
	comment, err := commentMarkdown(in.Comment, in.CommentDocument)
	if err != nil {
		return nil, err
	}
	return r.changeRequestService().SubmitReview(ctx, spaceID, crRef, changerequests.ReviewInput{Status: in.Status, Comment: comment})
}

// requestReviewers is Mutation.requestChangeRequestReviewers
// (changerequests.Service.RequestReviewers).
func (r *Resolver) requestReviewers(ctx context.Context, spaceID, crRef string, in model.RequestChangeRequestReviewersInput) ([]*ent.ChangeRequestReviewer, error) {
	made, err := r.changeRequestService().RequestReviewers(ctx, spaceID, crRef,
		changerequests.ReviewRequest{Users: in.Users, Teams: in.Teams, Subject: in.Subject})
	loader.Level(ctx, made)
	return made, err
}

// removeReviewer is Mutation.removeChangeRequestReviewer (changerequests.Service.RemoveReviewer).
func (r *Resolver) removeReviewer(ctx context.Context, spaceID, crRef, id string) (bool, error) {
	return r.changeRequestService().RemoveReviewer(ctx, spaceID, crRef, id)
}

// requestOrder is the order of a change request's pending review requests: oldest first.
var requestOrder = page.Order{Column: changerequestreviewer.FieldCreatedAt}

func requestCursor(rq *ent.ChangeRequestReviewer) page.Cursor {
	return page.Cursor{Key: rq.CreatedAt, ID: rq.ID}
}

// requestedReviewers is ChangeRequest.requestedReviewers, a page of them
// (changerequests.Service.RequestedReviewersOf).
func (r *Resolver) requestedReviewers(ctx context.Context, cr *ent.ChangeRequest, first *int, after *string) (*model.ChangeRequestRequestedReviewerConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := flat(ctx, r.changeRequestService().RequestedReviewersOf(cr), requestOrder, args, true, requestCursor)
	if err != nil {
		return nil, err
	}
	return &model.ChangeRequestRequestedReviewerConnection{
		Edges: edges(ctx, p.Items, requestCursor, func(c string, n *ent.ChangeRequestReviewer) *model.ChangeRequestRequestedReviewerEdge {
			return &model.ChangeRequestRequestedReviewerEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// requestKind is ChangeRequestRequestedReviewer.kind: user or team.
func requestKind(rq *ent.ChangeRequestReviewer) string {
	if rq.TeamID != nil {
		return "team"
	}
	return "user"
}

// requestTeam is ChangeRequestRequestedReviewer.team: nil for a user's request.
func (r *Resolver) requestTeam(ctx context.Context, rq *ent.ChangeRequestReviewer) (*ent.Team, error) {
	return loader.Get(ctx, r.Client, loader.Teams, rq, func(rq *ent.ChangeRequestReviewer) string { return derefOr(rq.TeamID, "") })
}

// changeRequestContributors is ChangeRequest.contributors (changerequests.Service.ContributorsOf).
func (r *Resolver) changeRequestContributors(ctx context.Context, cr *ent.ChangeRequest) ([]*changerequests.Contributor, error) {
	cs, err := r.changeRequestService().ContributorsOf(ctx, cr)
	out := make([]*changerequests.Contributor, len(cs))
	for i := range cs {
		out[i] = &cs[i]
	}
	loader.Level(ctx, out)
	return out, err
}

func contributorUser(c *changerequests.Contributor) string { return c.UserID }

// ownMergeRules is Space.mergeRules and Collection.mergeRules: the stored configuration, inherit
// without one.
func ownMergeRules(raw json.RawMessage) (*mergerules.Config, error) {
	own, err := mergerules.Stored(raw)
	return &own, err
}

// organizationMergeRules is Organization.mergeRules (changerequests.OrganizationRules).
func (r *Resolver) organizationMergeRules(o *ent.Organization) (*mergerules.Config, error) {
	c, err := changerequests.OrganizationRules(o)
	return &c, err
}

// effectiveMergeRules is Space.effectiveMergeRules (changerequests.MergeRules).
func (r *Resolver) effectiveMergeRules(ctx context.Context, s *ent.Space) (*mergerules.Config, error) {
	c, err := changerequests.MergeRules(ctx, r.Client, s)
	return &c, err
}

// mergeRulesType is MergeRules.type.
func mergeRulesType(c *mergerules.Config) model.MergeRulesType {
	return model.MergeRulesType(strings.ToUpper(c.Type))
}

// mergeRulesInput is a GraphQL merge rules input as internal/mergerules takes it; nil for none.
func mergeRulesInput(in *model.MergeRulesInput) *mergerules.Config {
	if in == nil {
		return nil
	}
	c := &mergerules.Config{Type: strings.ToLower(string(in.Type))}
	for _, rl := range in.Rules {
		c.Rules = append(c.Rules, mergerules.Rule{Rule: rl.Rule, Users: rl.Users})
	}
	return c
}
