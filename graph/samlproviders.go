package graph

import (
	"context"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sso"
)

// SAML providers translate between GraphQL and accounts.SAMLProviders, which holds their rules;
// graph keeps the lists and fields it reads through its loaders.

// samlProvidersService is the SAML providers as this resolver's viewer administers them.
func (r *Resolver) samlProvidersService() accounts.SAMLProviders {
	return accounts.SAMLProviders{Client: r.Client, Now: r.now, Organization: r.organization}
}

// samlProvider returns a SAML provider of an organization the viewer administers
// (accounts.SAMLProviders.Provider).
func (r *Resolver) samlProvider(ctx context.Context, orgID, id string) (*ent.SAMLProvider, error) {
	return r.samlProvidersService().Provider(ctx, orgID, id)
}

func (r *Resolver) samlProviders(ctx context.Context, o *ent.Organization, first *int, after *string) (*model.SAMLProviderConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	if !rule.HasOrgRole(viewer.FromContext(ctx), o.ID, viewer.RoleAdmin) {
		return nil, apperr.Forbiddenf("only members with the admin role may list SAML providers")
	}
	p, err := loader.For(ctx, r.Client).SAMLProviderPage(ctx, o, args)
	if err != nil {
		return nil, err
	}
	return &model.SAMLProviderConnection{
		Edges: edges(ctx, p.Items, func(p *ent.SAMLProvider) page.Cursor { return page.Cursor{Key: p.Label, ID: p.ID} },
			func(c string, n *ent.SAMLProvider) *model.SAMLProviderEdge {
				return &model.SAMLProviderEdge{Cursor: c, Node: n}
			}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

// createSAMLProvider is Mutation.createSAMLProvider (accounts.SAMLProviders.Create).
func (r *Resolver) createSAMLProvider(ctx context.Context, orgID string, in model.CreateSAMLProviderInput) (*ent.SAMLProvider, error) {
	return r.samlProvidersService().Create(ctx, orgID, accounts.NewSAMLProvider{Label: in.Label, DefaultRole: in.DefaultRole,
		EntityID: in.EntityID, Certificate: in.Certificate, SSOURL: in.SsoURL, DefaultTeam: in.DefaultTeam})
}

// updateSAMLProvider is Mutation.updateSAMLProvider (accounts.SAMLProviders.Update).
func (r *Resolver) updateSAMLProvider(ctx context.Context, orgID, id string, in model.UpdateSAMLProviderInput) (*ent.SAMLProvider, error) {
	return r.samlProvidersService().Update(ctx, orgID, id, accounts.SAMLProviderChange{Label: in.Label,
		DefaultRole: nullable(in.DefaultRole), EntityID: nullable(in.EntityID), Certificate: nullable(in.Certificate),
		SSOURL: nullable(in.SsoURL), DefaultTeam: nullable(in.DefaultTeam)})
}

// deleteSAMLProvider is Mutation.deleteSAMLProvider (accounts.SAMLProviders.Delete).
func (r *Resolver) deleteSAMLProvider(ctx context.Context, orgID, id string) (bool, error) {
	return r.samlProvidersService().Delete(ctx, orgID, id)
}

// SSO is single sign-on through the organizations' SAML providers, on this server's clock.
func (r *Resolver) SSO() accounts.SSO {
	return accounts.SSO{Client: r.Client, BaseURL: r.BaseURL, Now: r.now}
}

// samlProviderStatus is ACTIVE when people can sign in through p (accounts.ProviderActive),
// PENDING until then.
func samlProviderStatus(p *ent.SAMLProvider) model.SAMLProviderStatus {
	if !accounts.ProviderActive(p) {
		return model.SAMLProviderStatusPending
	}
	return model.SAMLProviderStatusActive
}

// samlService returns the URLs of this server for p.
func (r *Resolver) samlService(p *ent.SAMLProvider) *model.SAMLService {
	s := sso.ServiceOf(r.BaseURL, p.ID)
	return &model.SAMLService{AcsURL: s.ACSURL, StartURL: s.StartURL, EntityID: s.EntityID}
}

// samlDefaultTeam returns p's default team, the teams of a whole level loaded together; nil when
// it has none (or it was deleted).
func (r *Resolver) samlDefaultTeam(ctx context.Context, p *ent.SAMLProvider) (*ent.Team, error) {
	if p.DefaultTeamID == nil {
		return nil, nil
	}
	return loader.Get(ctx, r.Client, loader.Teams, p, func(p *ent.SAMLProvider) string { return derefOr(p.DefaultTeamID, "") })
}

// ssoLogins is Organization.ssoLogins (accounts.SSO.Logins).
func (r *Resolver) ssoLogins(ctx context.Context, orgID string) ([]*model.SSOLogin, error) {
	logins, err := r.SSO().Logins(ctx, orgID)
	if err != nil {
		return nil, err
	}
	out := make([]*model.SSOLogin, len(logins))
	for i, l := range logins {
		out[i] = &model.SSOLogin{ID: l.ID, Label: l.Label, StartURL: l.StartURL}
	}
	return out, nil
}

// ssoRequired is the error of a session viewer on an organization that enforces single sign-on
// through its own providers, naming where to sign in.
func (r *Resolver) ssoRequired(ctx context.Context, orgID string) error {
	logins, err := r.SSO().Logins(ctx, orgID)
	if err != nil {
		return err
	}
	if len(logins) == 0 {
		return apperr.Forbiddenf("organization %s requires single sign-on, and has no active SAML provider: use an API token", orgID)
	}
	return apperr.Forbiddenf("organization %s requires single sign-on through its own identity provider: sign in at %s (API tokens keep working)",
		orgID, logins[0].StartURL)
}

// ssoHidden turns the NOT_FOUND of an object read by its own id into the FORBIDDEN of
// ssoRequired when the object belongs to an organization that withheld the viewer's membership
// (it enforces single sign-on and the session came through none of its providers): the viewer is
// a member there, so learning that the object exists tells them nothing new. orgOf reads the
// object's organization as the system viewer; it runs only for such sessions.
func (r *Resolver) ssoHidden(ctx context.Context, err error, orgOf func(sys context.Context) (string, error)) error {
	v := viewer.FromContext(ctx)
	if e := apperr.As(err); e == nil || e.Kind != apperr.NotFound || len(v.SSORequiredOrganizations()) == 0 {
		return err
	}
	orgID, lookupErr := orgOf(accounts.System(ctx))
	if lookupErr != nil || !v.SSORequired(orgID) {
		return err
	}
	return r.ssoRequired(ctx, orgID)
}
