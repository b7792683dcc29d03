package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/orgs"
)

// invite returns an invite link of an organization, for its admins (orgs.Service.Invite).
func (r *Resolver) invite(ctx context.Context, orgID, inviteID string) (*ent.InviteLink, error) {
	return r.orgsService().Invite(ctx, orgID, inviteID)
}

// createInvite is Mutation.createInviteLink (orgs.Service.CreateInvite).
func (r *Resolver) createInvite(ctx context.Context, orgID string, role *viewer.Role) (*ent.InviteLink, error) {
	return r.orgsService().CreateInvite(ctx, orgID, role)
}

// updateInvite is Mutation.updateInviteLink (orgs.Service.UpdateInvite).
func (r *Resolver) updateInvite(ctx context.Context, orgID, inviteID string, role *viewer.Role) (*ent.InviteLink, error) {
	return r.orgsService().UpdateInvite(ctx, orgID, inviteID, role)
}

// deleteInvite is Mutation.deleteInviteLink (orgs.Service.DeleteInvite).
func (r *Resolver) deleteInvite(ctx context.Context, orgID, inviteID string) (bool, error) {
	err := r.orgsService().DeleteInvite(ctx, orgID, inviteID)
	return err == nil, err
}

// inviteRedundant is InviteLink.redundant (orgs.InviteRedundant).
func inviteRedundant(ctx context.Context, i *ent.InviteLink) bool {
	return orgs.InviteRedundant(viewer.FromContext(ctx), i)
}

// joinOrganization is Mutation.joinOrganization (orgs.Service.Join).
func (r *Resolver) joinOrganization(ctx context.Context, orgID, inviteID string) (*ent.Member, error) {
	return r.orgsService().Join(ctx, orgID, inviteID)
}
