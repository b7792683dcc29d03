package graph

import (
	"context"
	"strings"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/organization"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sqlplan"
	"github.com/binderyhq/bindery/internal/txn"
)

// organization returns an organization the viewer belongs to.
// Returns NOT_FOUND if it does not exist or the viewer may not see it, FORBIDDEN (naming where
// to sign in) to a browser session of a member when the organization enforces single sign-on
// through its own providers and the session came through none of them.
func (r *Resolver) organization(ctx context.Context, id string) (*ent.Organization, error) {
	v, err := viewerOf(ctx)
	if err != nil {
		return nil, err
	}
	if v.SSORequired(id) {
		return nil, r.ssoRequired(ctx, id)
	}
	o, err := r.Client.Organization.Get(sqlplan.ByKey(ctx), id)
	return o, rule.NotFound(err, "organization")
}

// requireOrgRole returns the organization when the viewer's role there is at least min.
// Returns NOT_FOUND if the viewer may not see it, FORBIDDEN if the role is too low.
func (r *Resolver) requireOrgRole(ctx context.Context, orgID string, min viewer.Role, action string) (*ent.Organization, error) {
	o, err := r.organization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if err := rule.RequireOrgRole(ctx, orgID, min, action); err != nil {
		return nil, err
	}
	return o, nil
}

func (r *Resolver) organizations(ctx context.Context, first *int, after *string) (*model.OrganizationConnection, error) {
	if _, err := viewerOf(ctx); err != nil {
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

func (r *Resolver) createOrganization(ctx context.Context, in model.CreateOrganizationInput) (*ent.Organization, error) {
	v, err := viewerOf(ctx)
	if err != nil {
		return nil, err
	}
	title := strings.TrimSpace(in.Title)
	if err := checkText("title", title, 2, 255); err != nil {
		return nil, err
	}
	domains, err := normalizeDomains("emailDomains", in.EmailDomains)
	if err != nil {
		return nil, err
	}
	var org *ent.Organization
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		org, err = tx.Organization.Create().SetTitle(title).SetEmailDomains(domains).Save(ctx)
		if err != nil {
			return err
		}
		return tx.Member.Create().SetOrganizationID(org.ID).SetUserID(v.UserID).SetRole(viewer.RoleAdmin).Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	admin := viewer.RoleAdmin
	v.SetMembership(org.ID, &admin)
	return org, nil
}

func (r *Resolver) updateOrganization(ctx context.Context, id string, in model.UpdateOrganizationInput) (*ent.Organization, error) {
	if _, err := r.requireOrgRole(ctx, id, viewer.RoleAdmin, "change the organization"); err != nil {
		return nil, err
	}
	if err := r.checkDefaultContent(ctx, id, in.DefaultContentSite); err != nil {
		return nil, err
	}
	upd := r.Client.Organization.UpdateOneID(id)
	if err := applyOrganizationUpdate(upd, in); err != nil {
		return nil, err
	}
	o, err := upd.Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, apperr.Conflictf("hostname: %q is already taken", derefOr(in.Hostname.Value(), ""))
	}
	return o, rule.NotFound(err, "organization")
}

func applyOrganizationUpdate(upd *ent.OrganizationUpdateOne, in model.UpdateOrganizationInput) error {
	if in.Title != nil {
		title := strings.TrimSpace(*in.Title)
		if err := checkText("title", title, 2, 255); err != nil {
			return err
		}
		upd.SetTitle(title)
	}
	if in.EmailDomains != nil {
		domains, err := normalizeDomains("emailDomains", in.EmailDomains)
		if err != nil {
			return err
		}
		upd.SetEmailDomains(domains)
	}
	if err := setOrClear(in.Hostname, func(h string) error { return checkText("hostname", h, 3, 32) },
		upd.SetHostname, upd.ClearHostname); err != nil {
		return err
	}
	if err := setOrClear(in.Logo, func(u string) error { return checkURL("logo", u, 2048) },
		upd.SetLogo, upd.ClearLogo); err != nil {
		return err
	}
	if err := setOrClear(in.DefaultContentSite, func(s string) error { return checkText("defaultContent.site", s, 1, 64) },
		upd.SetDefaultContentSite, upd.ClearDefaultContentSite); err != nil {
		return err
	}
	if err := setOrClear(in.DefaultRole, nil, upd.SetDefaultRole, upd.ClearDefaultRole); err != nil {
		return err
	}
	if in.Sso != nil {
		upd.SetSSO(*in.Sso)
	}
	if in.Ai != nil {
		upd.SetAi(*in.Ai)
	}
	if in.InviteLinks != nil {
		upd.SetInviteLinks(*in.InviteLinks)
	}
	return nil
}

// checkDefaultContent refuses a default content site that is not a site of the organization.
func (r *Resolver) checkDefaultContent(ctx context.Context, orgID string, siteID graphql.Omittable[*string]) error {
	if siteID.Value() == nil {
		return nil
	}
	exists, err := r.Client.Site.Query().Where(site.ID(*siteID.Value()), site.OrganizationID(orgID)).Exist(ctx)
	if err != nil || exists {
		return err
	}
	return apperr.Invalidf("defaultContent.site: no site of this organization has the id %q", truncate(*siteID.Value(), 80))
}

// organizationsForEmailDomain lists the organizations that list an email domain: any the viewer
// belongs to, plus, when it is the viewer's own domain, those the viewer could join.
func (r *Resolver) organizationsForEmailDomain(ctx context.Context, domain string) ([]*ent.Organization, error) {
	v, err := viewerOf(ctx)
	if err != nil {
		return nil, err
	}
	domain = strings.ToLower(strings.TrimSpace(domain))
	if err := checkText("emailDomain", domain, 1, 253); err != nil {
		return nil, err
	}
	if domain == rule.EmailDomain(v.Email) {
		ctx = rule.WithDomainDiscovery(ctx)
	}
	return r.Client.Organization.Query().
		Where(func(s *sql.Selector) { s.Where(sqljson.ValueContains(organization.FieldEmailDomains, domain)) }).
		Order(ent.Asc(organization.FieldTitle), ent.Asc(organization.FieldID)).
		Limit(page.MaxLimit).All(ctx)
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
