package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/apitoken"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/page"
)

func (r *Resolver) apiTokens(ctx context.Context, first *int, after *string) (*model.APITokenConnection, error) {
	v, err := rule.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	cursor := func(t *ent.APIToken) page.Cursor { return page.Cursor{Key: t.CreatedAt, ID: t.ID} }
	p, err := flat(ctx, r.Client.APIToken.Query().Where(apitoken.UserID(v.UserID)),
		page.Order{Column: apitoken.FieldCreatedAt}, args, true, cursor)
	if err != nil {
		return nil, err
	}
	return &model.APITokenConnection{
		Edges:    edges(ctx, p.Items, cursor, func(c string, n *ent.APIToken) *model.APITokenEdge { return &model.APITokenEdge{Cursor: c, Node: n} }),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// createAPIToken issues a personal API token to the viewer (accounts.IssueToken); the token is
// in this answer only.
func (r *Resolver) createAPIToken(ctx context.Context, in model.CreateAPITokenInput) (*model.CreatedAPIToken, error) {
	v, err := rule.RequireViewer(ctx)
	if err != nil {
		return nil, err
	}
	t, token, err := accounts.IssueToken(ctx, r.Client, v.UserID, derefOr(in.Label, ""))
	if err != nil {
		return nil, err
	}
	return &model.CreatedAPIToken{Token: token, APIToken: t}, nil
}

// revokeAPIToken deletes one of the viewer's tokens (accounts.RevokeUserToken).
func (r *Resolver) revokeAPIToken(ctx context.Context, id string) (bool, error) {
	v, err := rule.RequireViewer(ctx)
	if err != nil {
		return false, err
	}
	err = accounts.RevokeUserToken(ctx, r.Client, v.UserID, id)
	return err == nil, err
}
