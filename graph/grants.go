package graph

import (
	"context"
	"sort"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/access"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
)

// Grants translate between GraphQL and internal/access, which holds their rules; graph keeps the
// lists and fields it reads through its loaders, and pages the members with access.

// accessService is the grants as this resolver's viewer reads and writes them.
func (r *Resolver) accessService() *access.Service {
	return &access.Service{Client: r.Client, AdminSpace: r.adminSpace, AdminCollection: r.adminCollection}
}

// subjectOf is a GrantSubjectInput as internal/access takes it.
func subjectOf(s model.GrantSubjectInput) access.Subject {
	return access.Subject{User: s.User, Team: s.Team}
}

// grants lists the explicit grants on the target (to users, to teams, or both), oldest first.
func (r *Resolver) grants(ctx context.Context, t access.Target, first *int, after *string, kind *model.GrantSubjectKind) (*model.PermissionGrantConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	if err := access.CheckList(ctx, t); err != nil {
		return nil, err
	}
	q := r.Client.PermissionGrant.Query().Where(t.Where())
	if kind != nil && *kind == model.GrantSubjectKindUser {
		q.Where(permissiongrant.UserIDNotNil())
	} else if kind != nil && *kind == model.GrantSubjectKindTeam {
		q.Where(permissiongrant.TeamIDNotNil())
	}
	cursorOf := func(g *ent.PermissionGrant) page.Cursor { return page.Cursor{Key: g.CreatedAt, ID: g.ID} }
	p, err := flat(ctx, q, page.Order{Column: permissiongrant.FieldCreatedAt}, args, true, cursorOf)
	if err != nil {
		return nil, err
	}
	return &model.PermissionGrantConnection{
		Edges: edges(ctx, p.Items, cursorOf, func(c string, n *ent.PermissionGrant) *model.PermissionGrantEdge {
			return &model.PermissionGrantEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func (r *Resolver) grantUser(ctx context.Context, g *ent.PermissionGrant) (*ent.User, error) {
	if g.UserID == nil {
		return nil, nil
	}
	return userOf(ctx, r, g, func(g *ent.PermissionGrant) string { return derefOr(g.UserID, "") })
}

func (r *Resolver) grantTeam(ctx context.Context, g *ent.PermissionGrant) (*ent.Team, error) {
	if g.TeamID == nil {
		return nil, nil
	}
	t, err := loader.Get(ctx, r.Client, loader.Teams, g, func(g *ent.PermissionGrant) string { return derefOr(g.TeamID, "") })
	if err == nil && t == nil {
		return nil, apperr.NotFoundf("team not found")
	}
	return t, err
}

// membersWithAccess lists the members of the target's organization with access to it and their
// effective role (access.Service.EffectiveRoles), by user id; with role, only those whose
// effective role is exactly that one.
func (r *Resolver) membersWithAccess(ctx context.Context, t access.Target, first *int, after *string, role *viewer.Role) (*model.ContentAccessConnection, error) {
	args, err := page.NewArgs(first, after)
	if err != nil {
		return nil, err
	}
	if err := access.CheckList(ctx, t); err != nil {
		return nil, err
	}
	all, err := r.accessService().EffectiveRoles(ctx, t)
	if err != nil {
		return nil, err
	}
	var rows []*model.ContentAccess
	for _, a := range all {
		if role == nil || a.Role == *role {
			rows = append(rows, &model.ContentAccess{User: a.User, Role: a.Role})
		}
	}
	count := len(rows)
	if args.After != nil {
		i := sort.Search(len(rows), func(i int) bool { return rows[i].User.ID > args.After.ID })
		rows = rows[i:]
	}
	if len(rows) > args.Limit+1 {
		rows = rows[:args.Limit+1]
	}
	cursorOf := func(a *model.ContentAccess) page.Cursor { return page.Cursor{ID: a.User.ID} }
	p := page.Trim(rows, args.Limit, count, cursorOf)
	return &model.ContentAccessConnection{
		Edges: edges(ctx, p.Items, cursorOf, func(c string, n *model.ContentAccess) *model.ContentAccessEdge {
			return &model.ContentAccessEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// Entry points of the schema resolvers (one call each).

func (r *Resolver) spaceGrants(ctx context.Context, s *ent.Space, first *int, after *string, kind *model.GrantSubjectKind) (*model.PermissionGrantConnection, error) {
	return r.grants(ctx, access.SpaceTarget(s), first, after, kind)
}

func (r *Resolver) collectionGrants(ctx context.Context, c *ent.Collection, first *int, after *string, kind *model.GrantSubjectKind) (*model.PermissionGrantConnection, error) {
	return r.grants(ctx, access.CollectionTarget(c), first, after, kind)
}

func (r *Resolver) spaceAccess(ctx context.Context, s *ent.Space, first *int, after *string, role *viewer.Role) (*model.ContentAccessConnection, error) {
	return r.membersWithAccess(ctx, access.SpaceTarget(s), first, after, role)
}

func (r *Resolver) collectionAccess(ctx context.Context, c *ent.Collection, first *int, after *string, role *viewer.Role) (*model.ContentAccessConnection, error) {
	return r.membersWithAccess(ctx, access.CollectionTarget(c), first, after, role)
}

func (r *Resolver) grantSpaceAccess(ctx context.Context, spaceID string, in model.GrantAccessInput) (*ent.Space, error) {
	svc := r.accessService()
	t, err := svc.AdminSpaceTarget(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	if err := svc.Grant(ctx, t, in.Role, in.Users, in.Teams); err != nil {
		return nil, err
	}
	return r.space(ctx, spaceID)
}

func (r *Resolver) grantCollectionAccess(ctx context.Context, collectionID string, in model.GrantAccessInput) (*ent.Collection, error) {
	svc := r.accessService()
	t, err := svc.AdminCollectionTarget(ctx, collectionID)
	if err != nil {
		return nil, err
	}
	if err := svc.Grant(ctx, t, in.Role, in.Users, in.Teams); err != nil {
		return nil, err
	}
	return r.collection(ctx, collectionID)
}

func (r *Resolver) updateSpaceAccess(ctx context.Context, spaceID string, s model.GrantSubjectInput, role viewer.Role) (*ent.PermissionGrant, error) {
	svc := r.accessService()
	t, err := svc.AdminSpaceTarget(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	return svc.UpdateGrant(ctx, t, subjectOf(s), role)
}

func (r *Resolver) updateCollectionAccess(ctx context.Context, collectionID string, s model.GrantSubjectInput, role viewer.Role) (*ent.PermissionGrant, error) {
	svc := r.accessService()
	t, err := svc.AdminCollectionTarget(ctx, collectionID)
	if err != nil {
		return nil, err
	}
	return svc.UpdateGrant(ctx, t, subjectOf(s), role)
}

func (r *Resolver) revokeSpaceAccess(ctx context.Context, spaceID string, s model.GrantSubjectInput) (bool, error) {
	svc := r.accessService()
	t, err := svc.AdminSpaceTarget(ctx, spaceID)
	if err != nil {
		return false, err
	}
	err = svc.Revoke(ctx, t, subjectOf(s))
	return err == nil, err
}

func (r *Resolver) revokeCollectionAccess(ctx context.Context, collectionID string, s model.GrantSubjectInput) (bool, error) {
	svc := r.accessService()
	t, err := svc.AdminCollectionTarget(ctx, collectionID)
	if err != nil {
		return false, err
	}
	err = svc.Revoke(ctx, t, subjectOf(s))
	return err == nil, err
}
