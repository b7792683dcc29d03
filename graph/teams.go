package graph

import (
	"context"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/member"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/teammember"
	"github.com/binderyhq/bindery/ent/user"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/txn"
)

// team returns a team of an organization the viewer sees.
// Returns NOT_FOUND if either does not exist or the viewer may not see it.
func (r *Resolver) team(ctx context.Context, orgID, teamID string) (*ent.Team, error) {
	if _, err := r.organization(ctx, orgID); err != nil {
		return nil, err
	}
	t, err := r.Client.Team.Query().Where(team.ID(teamID), team.OrganizationID(orgID)).Only(ctx)
	return t, rule.NotFound(err, "team")
}

// manageableTeam returns a team the viewer may manage (an admin, or one of its owners).
// Returns NOT_FOUND or FORBIDDEN.
func (r *Resolver) manageableTeam(ctx context.Context, orgID, teamID string) (*ent.Team, error) {
	t, err := r.team(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	perms, err := r.teamPermissions(ctx, t)
	if err != nil {
		return nil, err
	}
	if !perms.Admin {
		return nil, apperr.Forbiddenf("only admins and the team's owners may change its members")
	}
	return t, nil
}

func (r *Resolver) teamPermissions(ctx context.Context, t *ent.Team) (*model.TeamPermissions, error) {
	owns, err := loader.For(ctx, r.Client).ViewerOwnsTeam(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	p := rule.ForTeam(viewer.FromContext(ctx), t.OrganizationID, owns)
	return &model.TeamPermissions{Admin: p.Admin, View: p.View}, nil
}

func (r *Resolver) createTeam(ctx context.Context, orgID string, in model.CreateTeamInput) (*ent.Team, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "create teams"); err != nil {
		return nil, err
	}
	title := strings.TrimSpace(in.Title)
	if err := checkText("title", title, 1, 64); err != nil {
		return nil, err
	}
	users, err := r.resolveMembers(ctx, orgID, "members", in.Members)
	if err != nil {
		return nil, err
	}
	var t *ent.Team
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if t, err = tx.Team.Create().SetOrganizationID(orgID).SetTitle(title).Save(ctx); err != nil {
			return err
		}
		return addTeamMembers(ctx, tx, t, users)
	})
	return t, err
}

func addTeamMembers(ctx context.Context, tx *ent.Tx, t *ent.Team, userIDs []string) error {
	creates := make([]*ent.TeamMemberCreate, len(userIDs))
	for i, uid := range userIDs {
		creates[i] = tx.TeamMember.Create().SetOrganizationID(t.OrganizationID).SetTeamID(t.ID).SetUserID(uid)
	}
	return tx.TeamMember.CreateBulk(creates...).
		OnConflictColumns(teammember.FieldTeamID, teammember.FieldUserID).DoNothing().Exec(ctx)
}

// resolveMembers maps user ids or emails to the user ids of the organization's members.
// Returns INVALID naming the first entry that is no member.
func (r *Resolver) resolveMembers(ctx context.Context, orgID, field string, refs []string) ([]string, error) {
	if len(refs) > 1000 {
		return nil, apperr.Invalidf("%s: at most 1000 entries (got %d)", field, len(refs))
	}
	if len(refs) == 0 {
		return nil, nil
	}
	lowered := make([]string, len(refs))
	for i, ref := range refs {
		lowered[i] = strings.ToLower(ref)
	}
	rows, err := r.Client.Member.Query().Where(member.OrganizationID(orgID),
		member.HasUserWith(user.Or(user.IDIn(refs...), user.EmailIn(lowered...)))).WithUser().All(ctx)
	if err != nil {
		return nil, err
	}
	byRef := map[string]string{}
	for _, m := range rows {
		byRef[m.UserID] = m.UserID
		byRef[strings.ToLower(m.Edges.User.Email)] = m.UserID
	}
	ids := make([]string, len(refs))
	for i, ref := range refs {
		id, ok := byRef[ref]
		if !ok {
			id, ok = byRef[strings.ToLower(ref)]
		}
		if !ok {
			return nil, apperr.Invalidf("%s[%d]: no member of this organization has the id or email %q", field, i, truncate(ref, 80))
		}
		ids[i] = id
	}
	return ids, nil
}

func (r *Resolver) updateTeam(ctx context.Context, orgID, teamID string, in model.UpdateTeamInput) (*ent.Team, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "rename teams"); err != nil {
		return nil, err
	}
	t, err := r.team(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	title := strings.TrimSpace(in.Title)
	if err := checkText("title", title, 1, 64); err != nil {
		return nil, err
	}
	return r.Client.Team.UpdateOne(t).SetTitle(title).Save(ctx)
}

func (r *Resolver) deleteTeam(ctx context.Context, orgID, teamID string) (bool, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "delete teams"); err != nil {
		return false, err
	}
	t, err := r.team(ctx, orgID, teamID)
	if err != nil {
		return false, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if _, err := tx.TeamMember.Delete().Where(teammember.TeamID(t.ID)).Exec(ctx); err != nil {
			return err
		}
		return tx.Team.DeleteOne(t).Exec(ctx)
	})
	return err == nil, err
}

// updateTeamMembers adds, removes and re-roles a team's members in one transaction.
func (r *Resolver) updateTeamMembers(ctx context.Context, orgID, teamID string, in model.UpdateTeamMembersInput) (*ent.Team, error) {
	t, err := r.manageableTeam(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	add, err := r.resolveMembers(ctx, orgID, "add", in.Add)
	if err != nil {
		return nil, err
	}
	remove, err := r.resolveMembers(ctx, orgID, "remove", in.Remove)
	if err != nil {
		return nil, err
	}
	add = without(add, remove)
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if err := addTeamMembers(ctx, tx, t, add); err != nil {
			return err
		}
		if _, err := tx.TeamMember.Delete().Where(teammember.TeamID(t.ID), teammember.UserIDIn(remove...)).Exec(ctx); err != nil {
			return err
		}
		return setTeamRoles(ctx, tx, t, in.Memberships)
	})
	return t, err
}

func setTeamRoles(ctx context.Context, tx *ent.Tx, t *ent.Team, roles []*model.TeamMembershipInput) error {
	for i, m := range roles {
		n, err := tx.TeamMember.Update().Where(teammember.TeamID(t.ID), teammember.UserID(m.User)).SetRole(m.Role).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.Invalidf("memberships[%d]: user %q is not a member of the team", i, truncate(m.User, 80))
		}
	}
	return nil
}

func without(list, drop []string) []string {
	dropped := map[string]bool{}
	for _, d := range drop {
		dropped[d] = true
	}
	out := list[:0:0]
	for _, s := range list {
		if !dropped[s] {
			out = append(out, s)
		}
	}
	return out
}

// setTeamMember adds a member to a team, or changes their team role.
func (r *Resolver) setTeamMember(ctx context.Context, orgID, teamID, userID string, role *viewer.TeamRole) (*ent.TeamMember, error) {
	t, err := r.manageableTeam(ctx, orgID, teamID)
	if err != nil {
		return nil, err
	}
	if _, err := r.member(ctx, orgID, userID); err != nil {
		return nil, err
	}
	upsert := r.Client.TeamMember.Create().SetOrganizationID(orgID).SetTeamID(t.ID).SetUserID(userID).
		SetRole(derefOr(role, viewer.TeamMember)).
		OnConflictColumns(teammember.FieldTeamID, teammember.FieldUserID)
	// Without a role an existing member keeps theirs: an upsert with nothing to update is invalid SQL.
	if role != nil {
		err = upsert.UpdateRole().Exec(ctx)
	} else {
		err = upsert.DoNothing().Exec(ctx)
	}
	if err != nil && !isNoRows(err) {
		return nil, err
	}
	return r.Client.TeamMember.Query().Where(teammember.TeamID(t.ID), teammember.UserID(userID)).Only(ctx)
}

func (r *Resolver) removeTeamMember(ctx context.Context, orgID, teamID, userID string) (bool, error) {
	t, err := r.manageableTeam(ctx, orgID, teamID)
	if err != nil {
		return false, err
	}
	n, err := r.Client.TeamMember.Delete().Where(teammember.TeamID(t.ID), teammember.UserID(userID)).Exec(ctx)
	if err != nil {
		return false, err
	}
	if n == 0 {
		return false, apperr.NotFoundf("user %q is not a member of the team", truncate(userID, 80))
	}
	return true, nil
}

func (r *Resolver) teamMemberOf(ctx context.Context, tm *ent.TeamMember) (*ent.Member, error) {
	m, err := loader.Get(ctx, r.Client, loader.Members, tm, func(tm *ent.TeamMember) loader.MemberKey {
		return loader.MemberKey{OrgID: tm.OrganizationID, UserID: tm.UserID}
	})
	if err == nil && m == nil {
		return nil, apperr.NotFoundf("member not found")
	}
	return m, err
}
