package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/orgs"
)

// team returns a team of an organization the viewer sees (orgs.Service.Team).
func (r *Resolver) team(ctx context.Context, orgID, teamID string) (*ent.Team, error) {
	return r.orgsService().Team(ctx, orgID, teamID)
}

// teamPermissions is Team.permissions (orgs.Service.TeamPermissions).
func (r *Resolver) teamPermissions(ctx context.Context, t *ent.Team) (*model.TeamPermissions, error) {
	p, err := r.orgsService().TeamPermissions(ctx, t)
	if err != nil {
		return nil, err
	}
	return &model.TeamPermissions{Admin: p.Admin, View: p.View}, nil
}

// createTeam is Mutation.createTeam (orgs.Service.CreateTeam).
func (r *Resolver) createTeam(ctx context.Context, orgID string, in model.CreateTeamInput) (*ent.Team, error) {
	return r.orgsService().CreateTeam(ctx, orgID, in.Title, in.Members)
}

// updateTeam is Mutation.updateTeam (orgs.Service.RenameTeam).
func (r *Resolver) updateTeam(ctx context.Context, orgID, teamID string, in model.UpdateTeamInput) (*ent.Team, error) {
	return r.orgsService().RenameTeam(ctx, orgID, teamID, in.Title)
}

// deleteTeam is Mutation.deleteTeam (orgs.Service.DeleteTeam).
func (r *Resolver) deleteTeam(ctx context.Context, orgID, teamID string) (bool, error) {
	err := r.orgsService().DeleteTeam(ctx, orgID, teamID)
	return err == nil, err
}

// updateTeamMembers is Mutation.updateTeamMembers (orgs.Service.UpdateTeamMembers).
func (r *Resolver) updateTeamMembers(ctx context.Context, orgID, teamID string, in model.UpdateTeamMembersInput) (*ent.Team, error) {
	roles := make([]orgs.TeamRole, len(in.Memberships))
	for i, m := range in.Memberships {
		roles[i] = orgs.TeamRole{User: m.User, Role: m.Role}
	}
	return r.orgsService().UpdateTeamMembers(ctx, orgID, teamID, orgs.TeamChanges{Add: in.Add, Remove: in.Remove, Roles: roles})
}

// setTeamMember is Mutation.setTeamMember (orgs.Service.SetTeamMember).
func (r *Resolver) setTeamMember(ctx context.Context, orgID, teamID, userID string, role *viewer.TeamRole) (*ent.TeamMember, error) {
	return r.orgsService().SetTeamMember(ctx, orgID, teamID, userID, role)
}

// removeTeamMember is Mutation.removeTeamMember (orgs.Service.RemoveTeamMember).
func (r *Resolver) removeTeamMember(ctx context.Context, orgID, teamID, userID string) (bool, error) {
	err := r.orgsService().RemoveTeamMember(ctx, orgID, teamID, userID)
	return err == nil, err
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
