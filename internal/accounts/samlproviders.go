package accounts

import (
	"context"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/samlprovider"
	"github.com/binderyhq/bindery/ent/session"
	"github.com/binderyhq/bindery/ent/team"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
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

// SAMLProviders is the administration of organizations' SAML providers, which SSO signs people
// in through: the admins of an organization create, change and delete its providers; a provider
// is pending until its entity id, certificate and sign-in URL are all set (ProviderActive).
// Unlike SSO, it acts as the viewer of a context.
type SAMLProviders struct {
	Client *ent.Client
	// Now is the current time, as stored: a certificate must be valid then.
	Now func(context.Context) time.Time
	// Organization reads an organization the viewer belongs to. Returns NOT_FOUND otherwise,
	// FORBIDDEN to a session its single sign-on refuses.
	Organization func(ctx context.Context, id string) (*ent.Organization, error)
}

// NewSAMLProvider is a provider to create: its label and, each optional, its default role and
// settings (a blank setting is none).
type NewSAMLProvider struct {
	Label                                      string
	DefaultRole                                *viewer.Role
	EntityID, Certificate, SSOURL, DefaultTeam *string
}

// SAMLProviderChange changes a provider: a nil Label keeps it; each other field absent keeps its
// value, and null (or, for the settings, blank) removes it.
type SAMLProviderChange struct {
	Label                                      *string
	DefaultRole                                check.Nullable[viewer.Role]
	EntityID, Certificate, SSOURL, DefaultTeam check.Nullable[string]
}

// requireAdmin checks that the viewer administers the organization; action says what, for the
// refusal. Returns NOT_FOUND or FORBIDDEN.
func (s SAMLProviders) requireAdmin(ctx context.Context, orgID, action string) error {
	if _, err := s.Organization(ctx, orgID); err != nil {
		return err
	}
	return rule.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, action)
}

// Provider returns a SAML provider of an organization the viewer administers.
// Returns NOT_FOUND if either does not exist or the viewer may not see it, FORBIDDEN for members
// who are not admins.
func (s SAMLProviders) Provider(ctx context.Context, orgID, id string) (*ent.SAMLProvider, error) {
	if err := s.requireAdmin(ctx, orgID, "manage SAML providers"); err != nil {
		return nil, err
	}
	p, err := s.Client.SAMLProvider.Query().Where(samlprovider.ID(id), samlprovider.OrganizationID(orgID)).Only(ctx)
	return p, rule.NotFound(err, "SAML provider")
}

// Create creates a provider of the organization. Returns NOT_FOUND, FORBIDDEN, or INVALID
// naming the first field that fails its check.
func (s SAMLProviders) Create(ctx context.Context, orgID string, in NewSAMLProvider) (*ent.SAMLProvider, error) {
	if err := s.requireAdmin(ctx, orgID, "create SAML providers"); err != nil {
		return nil, err
	}
	label, err := check.Trimmed("label", in.Label, 1, samlLabelMax)
	if err != nil {
		return nil, err
	}
	var p *ent.SAMLProvider
	err = txn.Run(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.SAMLProvider.Create().SetOrganizationID(orgID).SetLabel(label).SetNillableDefaultRole(in.DefaultRole)
		keep := func() *ent.SAMLProviderCreate { return c } // nothing to remove on a new provider
		given := func(v *string) check.Nullable[string] { return check.Nullable[string]{Set: true, Value: v} }
		err := applySettings(settings{given(in.EntityID), given(in.Certificate), given(in.SSOURL), given(in.DefaultTeam)},
			s.checks(ctx, orgID),
			[4]func(string) *ent.SAMLProviderCreate{c.SetEntityID, c.SetCertificate, c.SetSSOURL, c.SetDefaultTeamID},
			[4]func() *ent.SAMLProviderCreate{keep, keep, keep, keep})
		if err != nil {
			return err
		}
		if p, err = c.Save(ctx); err != nil {
			return err
		}
		return recordSSO(ctx, tx, p, "created")
	})
	return p, err
}

// recordSSO records that a provider's configuration changed (created, updated, deleted), in the
// transaction that changes it.
func recordSSO(ctx context.Context, tx *ent.Tx, p *ent.SAMLProvider, change string) error {
	return events.Record(ctx, tx.Client(), events.Event{Type: events.SSOConfigurationChanged, Organization: p.OrganizationID,
		ObjectKind: "saml-provider", ObjectID: p.ID, Details: map[string]any{"change": change}})
}

// Update changes a provider of the organization. Returns NOT_FOUND, FORBIDDEN, or INVALID naming
// the first field that fails its check.
func (s SAMLProviders) Update(ctx context.Context, orgID, id string, in SAMLProviderChange) (*ent.SAMLProvider, error) {
	p, err := s.Provider(ctx, orgID, id)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, s.Client, func(tx *ent.Tx) error {
		u := tx.SAMLProvider.UpdateOne(p)
		if err := check.SetTrimmed("label", in.Label, 1, samlLabelMax, u.SetLabel); err != nil {
			return err
		}
		err := applySettings(settings{in.EntityID, in.Certificate, in.SSOURL, in.DefaultTeam}, s.checks(ctx, orgID),
			[4]func(string) *ent.SAMLProviderUpdateOne{u.SetEntityID, u.SetCertificate, u.SetSSOURL, u.SetDefaultTeamID},
			[4]func() *ent.SAMLProviderUpdateOne{u.ClearEntityID, u.ClearCertificate, u.ClearSSOURL, u.ClearDefaultTeamID})
		if err != nil {
			return err
		}
		if err := check.SetOrClear(in.DefaultRole, nil, u.SetDefaultRole, u.ClearDefaultRole); err != nil {
			return err
		}
		if p, err = u.Save(ctx); err != nil {
			return rule.NotFound(err, "SAML provider")
		}
		return recordSSO(ctx, tx, p, "updated")
	})
	return p, err
}

// settings are the optional settings of a provider in a create or an update, in the order
// entityID, certificate, ssoURL, defaultTeam: absent is unchanged, null (or blank) removes.
type settings [4]check.Nullable[string]

// applySettings checks each setting given and sets or clears it. Returns INVALID naming the
// first setting that fails its check.
func applySettings[U any](s settings, checks [4]func(string) error, set [4]func(string) U, clear [4]func() U) error {
	for i, v := range s {
		if err := check.SetOrClear(check.TrimmedOrNull(v), checks[i], set[i], clear[i]); err != nil {
			return err
		}
	}
	return nil
}

// checks are the checks of the settings, in settings order: bounds of spec/03, a PEM
// certificate valid now, an absolute http(s) URL, a team of the organization.
func (s SAMLProviders) checks(ctx context.Context, orgID string) [4]func(string) error {
	return [4]func(string) error{
		func(v string) error { return check.Text("entityID", v, 1, samlEntityIDMax) },
		func(v string) error { return checkCertificate(v, s.Now(ctx)) },
		func(v string) error { return check.URL("ssoURL", v, samlURLMax) },
		func(v string) error {
			exists, err := s.Client.Team.Query().Where(team.ID(v), team.OrganizationID(orgID)).Exist(ctx)
			if err == nil && !exists {
				err = apperr.Invalidf("defaultTeam: no team of this organization has the id %q", check.Truncate(v, 80))
			}
			return err
		},
	}
}

// checkCertificate checks a provider's certificate: at most 10000 characters of PEM, an X.509
// certificate valid at now. Returns INVALID.
func checkCertificate(text string, now time.Time) error {
	if err := check.Text("certificate", text, 1, samlCertificateMax); err != nil {
		return err
	}
	if _, err := sso.ParseCertificate(text, now); err != nil {
		return apperr.Invalidf("certificate: %v", err)
	}
	return nil
}

// Delete deletes a provider and ends the sessions it began, in one transaction. Returns
// NOT_FOUND or FORBIDDEN.
func (s SAMLProviders) Delete(ctx context.Context, orgID, id string) (bool, error) {
	p, err := s.Provider(ctx, orgID, id)
	if err != nil {
		return false, err
	}
	err = txn.Run(ctx, s.Client, func(tx *ent.Tx) error {
		if _, err := tx.Session.Delete().Where(session.ProviderID(p.ID)).Exec(System(ctx)); err != nil {
			return err
		}
		if err := tx.SAMLProvider.DeleteOne(p).Exec(ctx); err != nil {
			return err
		}
		return recordSSO(ctx, tx, p, "deleted")
	})
	return err == nil, rule.NotFound(err, "SAML provider")
}
