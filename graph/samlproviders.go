package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/samlprovider"
	"github.com/binderyhq/bindery/ent/session"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/loader"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/page"
	"github.com/binderyhq/bindery/internal/sso"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of SAML providers (spec/03).
const (
	samlLabelMax       = 30
	samlEntityIDMax    = 1024
	samlCertificateMax = 10000
	samlURLMax         = 2048
)

// samlProvider returns a SAML provider of an organization the viewer administers.
// Returns NOT_FOUND if either does not exist or the viewer may not see it, FORBIDDEN for members
// who are not admins.
func (r *Resolver) samlProvider(ctx context.Context, orgID, id string) (*ent.SAMLProvider, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "manage SAML providers"); err != nil {
		return nil, err
	}
	p, err := r.Client.SAMLProvider.Query().Where(samlprovider.ID(id), samlprovider.OrganizationID(orgID)).Only(ctx)
	return p, rule.NotFound(err, "SAML provider")
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

func (r *Resolver) createSAMLProvider(ctx context.Context, orgID string, in model.CreateSAMLProviderInput) (*ent.SAMLProvider, error) {
	if _, err := r.requireOrgRole(ctx, orgID, viewer.RoleAdmin, "create SAML providers"); err != nil {
		return nil, err
	}
	label, err := trimmedText("label", in.Label, 1, samlLabelMax)
	if err != nil {
		return nil, err
	}
	c := r.Client.SAMLProvider.Create().SetOrganizationID(orgID).SetLabel(label).SetNillableDefaultRole(in.DefaultRole)
	keep := func() *ent.SAMLProviderCreate { return c } // nothing to remove on a new provider
	err = applySAMLSettings(samlSettings{graphql.OmittableOf(in.EntityID), graphql.OmittableOf(in.Certificate),
		graphql.OmittableOf(in.SsoURL), graphql.OmittableOf(in.DefaultTeam)}, r.samlChecks(ctx, orgID),
		[4]func(string) *ent.SAMLProviderCreate{c.SetEntityID, c.SetCertificate, c.SetSSOURL, c.SetDefaultTeamID},
		[4]func() *ent.SAMLProviderCreate{keep, keep, keep, keep})
	if err != nil {
		return nil, err
	}
	return c.Save(ctx)
}

func (r *Resolver) updateSAMLProvider(ctx context.Context, orgID, id string, in model.UpdateSAMLProviderInput) (*ent.SAMLProvider, error) {
	p, err := r.samlProvider(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	u := r.Client.SAMLProvider.UpdateOne(p)
	if err := setTrimmed("label", in.Label, 1, samlLabelMax, u.SetLabel); err != nil {
		return nil, err
	}
	err = applySAMLSettings(samlSettings{in.EntityID, in.Certificate, in.SsoURL, in.DefaultTeam}, r.samlChecks(ctx, orgID),
		[4]func(string) *ent.SAMLProviderUpdateOne{u.SetEntityID, u.SetCertificate, u.SetSSOURL, u.SetDefaultTeamID},
		[4]func() *ent.SAMLProviderUpdateOne{u.ClearEntityID, u.ClearCertificate, u.ClearSSOURL, u.ClearDefaultTeamID})
	if err != nil {
		return nil, err
	}
	if err := setOrClear(in.DefaultRole, nil, u.SetDefaultRole, u.ClearDefaultRole); err != nil {
		return nil, err
	}
	p, err = u.Save(ctx)
	return p, rule.NotFound(err, "SAML provider")
}

// samlSettings are the optional settings of a provider in a create or an update, in the order
// entityID, certificate, ssoURL, defaultTeam: absent is unchanged, null (or blank) removes.
type samlSettings [4]graphql.Omittable[*string]

// applySAMLSettings checks each setting given and sets or clears it. Returns INVALID naming the
// first setting that fails its check.
func applySAMLSettings[U any](s samlSettings, checks [4]func(string) error, set [4]func(string) U, clear [4]func() U) error {
	for i, v := range s {
		if err := setOrClear(trimmedOrNull(v), checks[i], set[i], clear[i]); err != nil {
			return err
		}
	}
	return nil
}

// samlChecks are the checks of the settings, in samlSettings order: bounds of spec/03, a PEM
// certificate valid now, an absolute http(s) URL, a team of the organization.
func (r *Resolver) samlChecks(ctx context.Context, orgID string) [4]func(string) error {
	return [4]func(string) error{
		func(s string) error { return checkText("entityID", s, 1, samlEntityIDMax) },
		func(s string) error {
			if err := checkText("certificate", s, 1, samlCertificateMax); err != nil {
				return err
			}
			if _, err := sso.ParseCertificate(s, r.now(ctx)); err != nil {
				return apperr.Invalidf("certificate: %v", err)
			}
			return nil
		},
		func(s string) error { return checkURL("ssoURL", s, samlURLMax) },
		func(s string) error {
			exists, err := r.Client.Team.Query().Where(team.ID(s), team.OrganizationID(orgID)).Exist(ctx)
			if err == nil && !exists {
				err = apperr.Invalidf("defaultTeam: no team of this organization has the id %q", truncate(s, 80))
			}
			return err
		},
	}
}

// deleteSAMLProvider deletes a provider and ends the sessions it began, in one transaction.
func (r *Resolver) deleteSAMLProvider(ctx context.Context, orgID, id string) (bool, error) {
	p, err := r.samlProvider(ctx, orgID, id)
	if err != nil {
		return false, err
	}
	err = txn.Run(ctx, r.Client, func(tx *ent.Tx) error {
		if _, err := tx.Session.Delete().Where(session.ProviderID(p.ID)).Exec(accounts.System(ctx)); err != nil {
			return err
		}
		return tx.SAMLProvider.DeleteOne(p).Exec(ctx)
	})
	return err == nil, rule.NotFound(err, "SAML provider")
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
