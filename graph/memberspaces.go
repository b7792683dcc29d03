package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/space"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
)

// memberSpaces lists the live spaces a member can read, with their effective role on each
// (the member's own facts: organization role, default levels, grants to them and their teams,
// visibility), by title then id, descending unless order is ASC.
// Organization admins and the member themself may list them (FORBIDDEN for other members).
func (r *Resolver) memberSpaces(ctx context.Context, m *ent.Member, first *int, after *string, order *model.SortOrder) (*model.MemberSpaceConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	v := viewer.FromContext(ctx)
	if v.UserID != m.UserID && !rule.HasOrgRole(v, m.OrganizationID, viewer.RoleAdmin) {
		return nil, apperr.Forbiddenf("only organization admins and the member themself may list a member's spaces")
	}
	subject, err := rule.MemberSubject(ctx, r.Client, m.OrganizationID, m.UserID)
	if err != nil {
		return nil, err
	}
	if subject == nil {
		return nil, apperr.NotFoundf("member not found")
	}
	q := r.Client.Space.Query().Where(space.OrganizationID(m.OrganizationID), space.DeletedAtIsNil(),
		rule.SpacesWithRole(subject, viewer.RoleRead))
	o := page.Order{Column: space.FieldTitle, Desc: order == nil || *order != model.SortOrderAsc}
	spaces, err := flat(ctx, q, o, args, false, func(s *ent.Space) page.Cursor { return page.Cursor{Key: s.Title, ID: s.ID} })
	if err != nil {
		return nil, err
	}
	roles, err := rule.SpaceRoles(viewer.NewContext(ctx, subject), spaces.Items)
	if err != nil {
		return nil, err
	}
	cursorOf := func(s *model.MemberSpace) page.Cursor { return page.Cursor{Key: s.Space.Title, ID: s.Space.ID} }
	p := page.Page[*model.MemberSpace]{Count: spaces.Count, Next: spaces.Next, Items: make([]*model.MemberSpace, len(spaces.Items))}
	for i, s := range spaces.Items {
		p.Items[i] = &model.MemberSpace{Role: roles[s.ID], Space: s}
	}
	return &model.MemberSpaceConnection{
		Edges: edges(ctx, p.Items, cursorOf, func(cur string, n *model.MemberSpace) *model.MemberSpaceEdge {
			return &model.MemberSpaceEdge{Cursor: cur, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}
