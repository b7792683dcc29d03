package graph

import (
	"context"
	"sort"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/permissiongrant"
	"github.com/binderyhq/bindery/ent/predicate"
	"github.com/binderyhq/bindery/ent/privacy"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/txn"
)

// Access grants: explicit roles on a space or a collection for users and teams of its
// organization. The admins of the object (rule.GrantWrites) write them; members with a role who
// can read the object list them.

// maxGrantSubjects bounds the users and teams of one grant request.
const maxGrantSubjects = 100

// grantTarget is the space or collection grants are made on.
type grantTarget struct {
	orgID, spaceID, collectionID string
}

func (t grantTarget) id() string { return t.spaceID + t.collectionID }

func (t grantTarget) kind() string {
	if t.spaceID != "" {
		return "space"
	}
	return "collection"
}

func (t grantTarget) where() predicate.PermissionGrant {
	if t.spaceID != "" {
		return permissiongrant.SpaceID(t.spaceID)
	}
	return permissiongrant.CollectionID(t.collectionID)
}

func spaceTarget(s *ent.Space) grantTarget {
	return grantTarget{orgID: s.OrganizationID, spaceID: s.ID}
}

func collectionTarget(c *ent.Collection) grantTarget {
	return grantTarget{orgID: c.OrganizationID, collectionID: c.ID}
}

// adminSpaceTarget and adminCollectionTarget return the object whose grants the viewer may change.
// NOT_FOUND when they cannot read it, FORBIDDEN when they are no admin of it.
func (r *Resolver) adminSpaceTarget(ctx context.Context, id string) (grantTarget, error) {
	s, err := r.adminSpace(ctx, id, "grant or revoke access to it")
	if err != nil {
		return grantTarget{}, err
	}
	return spaceTarget(s), nil
}

func (r *Resolver) adminCollectionTarget(ctx context.Context, id string) (grantTarget, error) {
	c, err := r.adminCollection(ctx, id, "grant or revoke access to it")
	if err != nil {
		return grantTarget{}, err
	}
	return collectionTarget(c), nil
}

// checkListGrants refuses viewers without a role in the object's organization (guests, outsiders
// reading a public space): who has access is for the organization's members.
func checkListGrants(ctx context.Context, t grantTarget) error {
	if !rule.HasOrgRole(viewer.FromContext(ctx), t.orgID, viewer.RoleRead) {
		return apperr.Forbiddenf("only members with a role in the organization may list who has access to a %s", t.kind())
	}
	return nil
}

// grantAccess grants in.Role to the users and teams of in on the target, replacing their
// current grants there. Every user must be a member and every team a team of the target's
// organization (INVALID naming the entry otherwise).
func (r *Resolver) grantAccess(ctx context.Context, t grantTarget, in model.GrantAccessInput) error {
	if !in.Role.Valid() {
		return apperr.Invalidf("role: must be one of admin, create, review, edit, comment, read")
	}
	users, teams := dedupe(in.Users), dedupe(in.Teams)
	if n := len(users) + len(teams); n == 0 {
		return apperr.Invalidf("users, teams: name at least one user or team")
	} else if n > maxGrantSubjects {
		return apperr.Invalidf("users, teams: at most %d in all (got %d)", maxGrantSubjects, n)
	}
	if err := r.checkGrantSubjects(ctx, t, users, teams); err != nil {
		return err
	}
	return txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		_, err := tx.PermissionGrant.Delete().Where(t.where(), permissiongrant.Or(
			permissiongrant.UserIDIn(users...), permissiongrant.TeamIDIn(teams...))).Exec(ctx)
		if err != nil {
			return err
		}
		creates := make([]*ent.PermissionGrantCreate, 0, len(users)+len(teams))
		newGrant := func() *ent.PermissionGrantCreate {
			c := tx.PermissionGrant.Create().SetOrganizationID(t.orgID).SetRole(in.Role)
			if t.spaceID != "" {
				return c.SetSpaceID(t.spaceID)
			}
			return c.SetCollectionID(t.collectionID)
		}
		for _, u := range users {
			creates = append(creates, newGrant().SetUserID(u))
		}
		for _, tm := range teams {
			creates = append(creates, newGrant().SetTeamID(tm))
		}
		return tx.PermissionGrant.CreateBulk(creates...).Exec(ctx)
	})
}

// checkGrantSubjects checks that the users are members and the teams teams of the target's
// organization. The viewer may be a guest with the admin role on the object, so the lookups are
// made by the system: they only answer whether each id belongs there.
func (r *Resolver) checkGrantSubjects(ctx context.Context, t grantTarget, users, teams []string) error {
	sys := privacy.DecisionContext(ctx, privacy.Allow)
	if len(users) > 0 {
		found, err := r.Client.Member.Query().Where(member.OrganizationID(t.orgID), member.UserIDIn(users...)).
			Select(member.FieldUserID).Strings(sys)
		if err != nil {
			return err
		}
		if i, missing := firstMissing(users, found); missing {
			return apperr.Invalidf("users[%d]: %q is not a member of the %s's organization", i, truncate(users[i], 64), t.kind())
		}
	}
	if len(teams) > 0 {
		found, err := r.Client.Team.Query().Where(team.OrganizationID(t.orgID), team.IDIn(teams...)).
			Select(team.FieldID).Strings(sys)
		if err != nil {
			return err
		}
		if i, missing := firstMissing(teams, found); missing {
			return apperr.Invalidf("teams[%d]: %q is not a team of the %s's organization", i, truncate(teams[i], 64), t.kind())
		}
	}
	return nil
}

func dedupe(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func firstMissing(want, found []string) (int, bool) {
	have := make(map[string]bool, len(found))
	for _, f := range found {
		have[f] = true
	}
	for i, w := range want {
		if !have[w] {
			return i, true
		}
	}
	return 0, false
}

// subjectOf reads a GrantSubjectInput: exactly one of user and team.
func subjectOf(s model.GrantSubjectInput) (predicate.PermissionGrant, string, error) {
	switch {
	case s.User != nil && s.Team == nil:
		return permissiongrant.UserID(*s.User), "user", nil
	case s.Team != nil && s.User == nil:
		return permissiongrant.TeamID(*s.Team), "team", nil
	}
	return nil, "", apperr.Invalidf("subject: name exactly one of user and team")
}

// grantOf returns the grant of a subject on the target (the viewer administers it: the grant
// read policy serves its admins, guests included).
func (r *Resolver) grantOf(ctx context.Context, t grantTarget, s model.GrantSubjectInput) (*ent.PermissionGrant, error) {
	who, kind, err := subjectOf(s)
	if err != nil {
		return nil, err
	}
	g, err := r.Client.PermissionGrant.Query().Where(t.where(), who).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFoundf("this %s has no grant on the %s", kind, t.kind())
	}
	return g, err
}

// updateAccess changes the role of an existing grant.
func (r *Resolver) updateAccess(ctx context.Context, t grantTarget, s model.GrantSubjectInput, role viewer.Role) (*ent.PermissionGrant, error) {
	if !role.Valid() {
		return nil, apperr.Invalidf("role: must be one of admin, create, review, edit, comment, read")
	}
	g, err := r.grantOf(ctx, t, s)
	if err != nil {
		return nil, err
	}
	return r.Client.PermissionGrant.UpdateOne(g).SetRole(role).Save(ctx)
}

// revokeAccess removes the grant of a subject on the target.
func (r *Resolver) revokeAccess(ctx context.Context, t grantTarget, s model.GrantSubjectInput) (bool, error) {
	g, err := r.grantOf(ctx, t, s)
	if err != nil {
		return false, err
	}
	err = r.Client.PermissionGrant.DeleteOne(g).Exec(ctx)
	return err == nil, err
}

// grants lists the explicit grants on the target (to users, to teams, or both), oldest first.
func (r *Resolver) grants(ctx context.Context, t grantTarget, first *int, after *string, kind *model.GrantSubjectKind) (*model.PermissionGrantConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	if err := checkListGrants(ctx, t); err != nil {
		return nil, err
	}
	q := r.Client.PermissionGrant.Query().Where(t.where())
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

// access lists the members of the target's organization with access to it and their effective
// role (rule.ContentRole over each member's grants, direct and through teams), by user id; with
// role, only those whose effective role is exactly that one.
func (r *Resolver) access(ctx context.Context, t grantTarget, first *int, after *string, role *viewer.Role) (*model.ContentAccessConnection, error) {
	args, err := page.NewArgs(first, after)
	if err != nil {
		return nil, err
	}
	if err := checkListGrants(ctx, t); err != nil {
		return nil, err
	}
	all, err := r.effectiveRoles(ctx, t)
	if err != nil {
		return nil, err
	}
	var rows []*model.ContentAccess
	for _, a := range all {
		if role == nil || a.Role == *role {
			rows = append(rows, a)
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

// effectiveRoles computes the effective role of every member of the target's organization on it,
// sorted by user id; members without access are left out. Statements: the members with their
// users, the grants on the target and the collections above it, and the memberships of the
// teams granted. The viewer has a role in the organization (checkListGrants), so the policies
// let them read all of these.
func (r *Resolver) effectiveRoles(ctx context.Context, t grantTarget) ([]*model.ContentAccess, error) {
	c, err := rule.Above(ctx, t.orgID, t.id(), t.spaceID != "")
	if err != nil || c == nil {
		return nil, err
	}
	chain := c.Ancestry(t.id())
	grants, err := r.Client.PermissionGrant.Query().Where(permissiongrant.OrganizationID(t.orgID),
		permissiongrant.Or(permissiongrant.SpaceIDIn(chain...), permissiongrant.CollectionIDIn(chain...))).All(ctx)
	if err != nil {
		return nil, err
	}
	byTeam := map[string][]*ent.PermissionGrant{}
	byUser := map[string]map[string]viewer.Role{}
	add := func(user string, g *ent.PermissionGrant) {
		target := derefOr(g.SpaceID, "") + derefOr(g.CollectionID, "")
		if byUser[user] == nil {
			byUser[user] = map[string]viewer.Role{}
		}
		if !byUser[user][target].AtLeast(g.Role) {
			byUser[user][target] = g.Role
		}
	}
	var teamIDs []string
	for _, g := range grants {
		if g.UserID != nil {
			add(*g.UserID, g)
		} else if g.TeamID != nil {
			teamIDs = append(teamIDs, *g.TeamID)
			byTeam[*g.TeamID] = append(byTeam[*g.TeamID], g)
		}
	}
	if len(teamIDs) > 0 {
		tms, err := r.Client.TeamMember.Query().Where(teammember.TeamIDIn(teamIDs...)).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, tm := range tms {
			for _, g := range byTeam[tm.TeamID] {
				add(tm.UserID, g)
			}
		}
	}
	members, err := r.Client.Member.Query().Where(member.OrganizationID(t.orgID)).WithUser().
		Order(ent.Asc(member.FieldUserID)).All(ctx)
	if err != nil {
		return nil, err
	}
	var out []*model.ContentAccess
	for _, m := range members {
		mc := &rule.Content{Member: true, Nodes: c.Nodes, Grants: byUser[m.UserID]}
		if m.Role != nil {
			mc.OrgRole = *m.Role
		}
		if role := rule.ContentRole(mc, t.id()); role != "" && m.Edges.User != nil {
			out = append(out, &model.ContentAccess{User: m.Edges.User, Role: role})
		}
	}
	return out, nil
}

// Entry points of the schema resolvers (one call each).

func (r *Resolver) spaceGrants(ctx context.Context, s *ent.Space, first *int, after *string, kind *model.GrantSubjectKind) (*model.PermissionGrantConnection, error) {
	return r.grants(ctx, spaceTarget(s), first, after, kind)
}

func (r *Resolver) collectionGrants(ctx context.Context, c *ent.Collection, first *int, after *string, kind *model.GrantSubjectKind) (*model.PermissionGrantConnection, error) {
	return r.grants(ctx, collectionTarget(c), first, after, kind)
}

func (r *Resolver) spaceAccess(ctx context.Context, s *ent.Space, first *int, after *string, role *viewer.Role) (*model.ContentAccessConnection, error) {
	return r.access(ctx, spaceTarget(s), first, after, role)
}

func (r *Resolver) collectionAccess(ctx context.Context, c *ent.Collection, first *int, after *string, role *viewer.Role) (*model.ContentAccessConnection, error) {
	return r.access(ctx, collectionTarget(c), first, after, role)
}

func (r *Resolver) grantSpaceAccess(ctx context.Context, spaceID string, in model.GrantAccessInput) (*ent.Space, error) {
	t, err := r.adminSpaceTarget(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	if err := r.grantAccess(ctx, t, in); err != nil {
		return nil, err
	}
	return r.space(ctx, spaceID)
}

func (r *Resolver) grantCollectionAccess(ctx context.Context, collectionID string, in model.GrantAccessInput) (*ent.Collection, error) {
	t, err := r.adminCollectionTarget(ctx, collectionID)
	if err != nil {
		return nil, err
	}
	if err := r.grantAccess(ctx, t, in); err != nil {
		return nil, err
	}
	return r.collection(ctx, collectionID)
}

func (r *Resolver) updateSpaceAccess(ctx context.Context, spaceID string, s model.GrantSubjectInput, role viewer.Role) (*ent.PermissionGrant, error) {
	t, err := r.adminSpaceTarget(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	return r.updateAccess(ctx, t, s, role)
}

func (r *Resolver) updateCollectionAccess(ctx context.Context, collectionID string, s model.GrantSubjectInput, role viewer.Role) (*ent.PermissionGrant, error) {
	t, err := r.adminCollectionTarget(ctx, collectionID)
	if err != nil {
		return nil, err
	}
	return r.updateAccess(ctx, t, s, role)
}

func (r *Resolver) revokeSpaceAccess(ctx context.Context, spaceID string, s model.GrantSubjectInput) (bool, error) {
	t, err := r.adminSpaceTarget(ctx, spaceID)
	if err != nil {
		return false, err
	}
	return r.revokeAccess(ctx, t, s)
}

func (r *Resolver) revokeCollectionAccess(ctx context.Context, collectionID string, s model.GrantSubjectInput) (bool, error) {
	t, err := r.adminCollectionTarget(ctx, collectionID)
	if err != nil {
		return false, err
	}
	return r.revokeAccess(ctx, t, s)
}
