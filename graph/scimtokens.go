package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/scimtoken"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/scim"
)

// SCIM tokens and SCIM provisioning translate between the surfaces (GraphQL and REST for tokens,
// rest/scim.go for /scim/v2) and internal/scim.

// SCIMTokens is the SCIM tokens as this resolver's viewer administers and presents them.
func (r *Resolver) SCIMTokens() scim.Tokens {
	return scim.Tokens{Client: r.Client, RequireOrgRole: r.requireOrgRole}
}

// SCIM is the provisioning of organizations' people and teams, as the viewer of a context (a
// SCIM token's) does it.
func (r *Resolver) SCIM() scim.Service {
	return scim.Service{Client: r.Client, Orgs: r.orgsService()}
}

func (r *Resolver) scimTokens(ctx context.Context, o *ent.Organization, first *int, after *string) (*model.SCIMTokenConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	q, err := r.SCIMTokens().Query(ctx, o.ID)
	if err != nil {
		return nil, err
	}
	cursor := func(t *ent.SCIMToken) page.Cursor { return page.Cursor{Key: t.CreatedAt, ID: t.ID} }
	p, err := flat(ctx, q, page.Order{Column: scimtoken.FieldCreatedAt}, args, true, cursor)
	if err != nil {
		return nil, err
	}
	return &model.SCIMTokenConnection{
		Edges: edges(ctx, p.Items, cursor, func(c string, n *ent.SCIMToken) *model.SCIMTokenEdge {
			return &model.SCIMTokenEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// createSCIMToken issues a SCIM token of the organization; the token is in this answer only.
func (r *Resolver) createSCIMToken(ctx context.Context, orgID string) (*model.CreatedSCIMToken, error) {
	t, token, err := r.SCIMTokens().Issue(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return &model.CreatedSCIMToken{Token: token, ScimToken: t}, nil
}
