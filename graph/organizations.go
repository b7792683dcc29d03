package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/orgs"
	"github.com/binderyhq/bindery/internal/page"
)

// Organizations, their members, teams and invite links translate between GraphQL and
// internal/orgs, which holds their rules; graph keeps the lists and fields it reads through its
// loaders, batched for a whole level of a query.

// orgsService is the organizations as this resolver's viewer reads and writes them.
// requireOrgRole returns an organization the viewer sees with at least the role min
// (orgs.Service.RequireOrgRole).
func (r *Resolver) requireOrgRole(ctx context.Context, orgID string, min viewer.Role, action string) (*ent.Organization, error) {
	return r.orgsService().RequireOrgRole(ctx, orgID, min, action)
}

func (r *Resolver) orgsService() *orgs.Service {
	return &orgs.Service{Client: r.Client, Now: r.now, SSORequired: r.SSO().Required, OwnsTeam: r.viewerOwnsTeam,
		Issuer: r.BaseURL, Key: r.serverKey}
}

// viewerOwnsTeam reports whether the viewer owns the team (loader.ViewerOwnsTeam).
func (r *Resolver) viewerOwnsTeam(ctx context.Context, teamID string) (bool, error) {
	return loader.For(ctx, r.Client).ViewerOwnsTeam(ctx, teamID)
}

// organization returns an organization the viewer belongs to (orgs.Service.Organization).
func (r *Resolver) organization(ctx context.Context, id string) (*ent.Organization, error) {
	return r.orgsService().Organization(ctx, id)
}

func (r *Resolver) organizations(ctx context.Context, first *int, after *string) (*model.OrganizationConnection, error) {
	if _, err := rule.RequireViewer(ctx); err != nil {
		return nil, err
	}
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	p, err := flat(ctx, r.Client.Organization.Query(), page.Order{Column: organization.FieldCreatedAt}, args, true, organizationCursor)
	if err != nil {
		return nil, err
	}
	return organizationConnection(ctx, p), nil
}

// createOrganization is Mutation.createOrganization (orgs.Service.Create).
func (r *Resolver) createOrganization(ctx context.Context, in model.CreateOrganizationInput) (*ent.Organization, error) {
	return r.orgsService().Create(ctx, in.Title, in.EmailDomains)
}

// updateOrganization is Mutation.updateOrganization (orgs.Service.Update).
func (r *Resolver) updateOrganization(ctx context.Context, id string, in model.UpdateOrganizationInput) (*ent.Organization, error) {
	return r.orgsService().Update(ctx, id, orgs.Changes{Title: in.Title, EmailDomains: in.EmailDomains,
		Hostname: nullable(in.Hostname), Logo: nullable(in.Logo), DefaultContentSite: nullable(in.DefaultContentSite),
		DefaultRole: nullable(in.DefaultRole), SSO: in.Sso, AI: in.Ai, InviteLinks: in.InviteLinks,
		MergeRules: mergeRulesInput(in.MergeRules)})
}

// organizationsForEmailDomain is Query.organizationsForEmailDomain (orgs.Service.ForEmailDomain).
func (r *Resolver) organizationsForEmailDomain(ctx context.Context, domain string) ([]*ent.Organization, error) {
	return r.orgsService().ForEmailDomain(ctx, domain)
}

func (r *Resolver) organizationPermissions(ctx context.Context, o *ent.Organization) (*model.OrganizationPermissions, error) {
	v := viewer.FromContext(ctx)
	owns, err := loader.For(ctx, r.Client).ViewerOwnsTeamIn(ctx, o.ID)
	if err != nil {
		return nil, err
	}
	p := rule.ForOrganization(v, o.ID, owns)
	return &model.OrganizationPermissions{
		View: p.View, Access: p.Access, Admin: p.Admin, OwnTeam: p.OwnTeam, CreateContent: p.CreateContent,
		CreateOpenAPISpec: p.CreateOpenAPISpec, ViewBilling: p.ViewBilling, ListMembers: p.ListMembers,
		ListTeams: p.ListTeams, ListIntegrations: p.ListIntegrations, ListInstallations: p.ListInstallations,
		InstallIntegration: p.InstallIntegration,
	}, nil
}

func derefOr[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
