package accounts

import (
	"context"
	"net/url"
	"strings"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/oidcprovider"
	"github.com/binderyhq/bindery/ent/rule"
	"github.com/binderyhq/bindery/ent/session"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/events"
	"github.com/binderyhq/bindery/internal/id"
	"github.com/binderyhq/bindery/internal/serverkey"
	"github.com/binderyhq/bindery/internal/txn"
)

// Bounds of OpenID Connect providers.
const (
	oidcLabelMax    = 30
	oidcIssuerMax   = 2048
	oidcClientIDMax = 255
	oidcSecretMax   = 1024
	oidcScopesMax   = 20
	oidcScopeMax    = 100
	oidcClaimMax    = 100
)

// OIDCProviders is the administration of organizations' OpenID Connect providers, which OIDC
// signs people in through: the admins of an organization create, change and delete them. The
// client secret is sealed under a server key and never shown again. It acts as the viewer of a
// context.
type OIDCProviders struct {
	Client *ent.Client
	Keys   *serverkey.Keys
	// RequireOrgRole returns an organization the viewer sees with at least a role there (orgs).
	// Returns NOT_FOUND otherwise, FORBIDDEN below the role.
	RequireOrgRole func(ctx context.Context, orgID string, min viewer.Role, action string) (*ent.Organization, error)
	// PlainHTTP reports whether an http:// issuer may be on host (the operator's --fetch-allow).
	PlainHTTP func(host string) bool
}

// OIDCSettings are a provider's settings in a create (label, issuer, client id and secret
// required) or an update (nil: unchanged; a null GroupsClaim or DefaultRole removes it).
type OIDCSettings struct {
	Label, Issuer, ClientID, ClientSecret *string
	Scopes, EmailDomains                  *[]string
	GroupsClaim                           check.Nullable[string]
	DefaultRole                           check.Nullable[viewer.Role]
}

// Query returns the providers of an organization, for its admins. Returns NOT_FOUND if the
// viewer does not see the organization, FORBIDDEN below admin.
func (s OIDCProviders) Query(ctx context.Context, orgID string) (*ent.OIDCProviderQuery, error) {
	if _, err := s.RequireOrgRole(ctx, orgID, viewer.RoleAdmin, "manage OpenID Connect providers"); err != nil {
		return nil, err
	}
	return s.Client.OIDCProvider.Query().Where(oidcprovider.OrganizationID(orgID)), nil
}

// Provider returns a provider of an organization the viewer administers. Returns NOT_FOUND if
// either does not exist or the viewer may not see it, FORBIDDEN for members who are not admins.
func (s OIDCProviders) Provider(ctx context.Context, orgID, providerID string) (*ent.OIDCProvider, error) {
	q, err := s.Query(ctx, orgID)
	if err != nil {
		return nil, err
	}
	p, err := q.Where(oidcprovider.ID(providerID)).Only(ctx)
	return p, rule.NotFound(err, "OpenID Connect provider")
}

// Create adds a provider to the organization. Returns NOT_FOUND, FORBIDDEN, or INVALID naming
// the first field that fails its check.
func (s OIDCProviders) Create(ctx context.Context, orgID string, in OIDCSettings) (*ent.OIDCProvider, error) {
	if _, err := s.Query(ctx, orgID); err != nil {
		return nil, err
	}
	for field, v := range map[string]*string{"label": in.Label, "issuer": in.Issuer, "clientId": in.ClientID, "clientSecret": in.ClientSecret} {
		if v == nil {
			return nil, apperr.Invalidf("%s: is required", field)
		}
	}
	providerID := id.New()
	sealed, err := s.sealSecret(ctx, providerID, in.ClientSecret)
	if err != nil {
		return nil, err
	}
	var p *ent.OIDCProvider
	err = txn.Run(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.OIDCProvider.Create().SetID(providerID).SetOrganizationID(orgID)
		if err := s.apply(in, sealed, c.Mutation()); err != nil {
			return err
		}
		if p, err = c.Save(ctx); err != nil {
			return err
		}
		return recordProvider(ctx, tx, orgID, "oidc-provider", p.ID, "created")
	})
	return p, err
}

// Update changes the settings given of a provider. Returns NOT_FOUND, FORBIDDEN, or INVALID
// naming the first field that fails its check.
func (s OIDCProviders) Update(ctx context.Context, orgID, providerID string, in OIDCSettings) (*ent.OIDCProvider, error) {
	p, err := s.Provider(ctx, orgID, providerID)
	if err != nil {
		return nil, err
	}
	sealed, err := s.sealSecret(ctx, p.ID, in.ClientSecret)
	if err != nil {
		return nil, err
	}
	err = txn.Run(ctx, s.Client, func(tx *ent.Tx) error {
		u := tx.OIDCProvider.UpdateOne(p)
		if err := s.apply(in, sealed, u.Mutation()); err != nil {
			return err
		}
		if p, err = u.Save(ctx); err != nil {
			return rule.NotFound(err, "OpenID Connect provider")
		}
		return recordProvider(ctx, tx, orgID, "oidc-provider", p.ID, "updated")
	})
	return p, err
}

// Delete deletes a provider and ends the sessions it began, in one transaction. Returns
// NOT_FOUND or FORBIDDEN.
func (s OIDCProviders) Delete(ctx context.Context, orgID, providerID string) error {
	p, err := s.Provider(ctx, orgID, providerID)
	if err != nil {
		return err
	}
	err = txn.Run(ctx, s.Client, func(tx *ent.Tx) error {
		if _, err := tx.Session.Delete().Where(session.ProviderID(p.ID)).Exec(System(ctx)); err != nil {
			return err
		}
		if err := tx.OIDCProvider.DeleteOne(p).Exec(ctx); err != nil {
			return err
		}
		return recordProvider(ctx, tx, orgID, "oidc-provider", p.ID, "deleted")
	})
	return rule.NotFound(err, "OpenID Connect provider")
}

// recordProvider records that a single sign-on provider's configuration changed (created,
// updated, deleted), in the transaction that changes it.
func recordProvider(ctx context.Context, tx *ent.Tx, orgID, kind, providerID, change string) error {
	return events.Record(ctx, tx.Client(), events.Event{Type: events.SSOConfigurationChanged, Organization: orgID,
		ObjectKind: kind, ObjectID: providerID, Details: map[string]any{"change": change}})
}

// apply checks each setting given and sets it on m (a create or an update), with the client
// secret sealed (nil: unchanged). Returns INVALID naming the first that fails its check.
func (s OIDCProviders) apply(in OIDCSettings, sealed []byte, m *ent.OIDCProviderMutation) error {
	if err := check.SetTrimmed("label", in.Label, 1, oidcLabelMax, setter(m.SetLabel)); err != nil {
		return err
	}
	if in.Issuer != nil {
		issuer, err := s.checkIssuer(*in.Issuer)
		if err != nil {
			return err
		}
		m.SetIssuer(issuer)
	}
	if err := check.SetTrimmed("clientId", in.ClientID, 1, oidcClientIDMax, setter(m.SetClientID)); err != nil {
		return err
	}
	if sealed != nil {
		m.SetSealedSecret(sealed)
	}
	if in.Scopes != nil {
		scopes, err := checkScopes(*in.Scopes)
		if err != nil {
			return err
		}
		m.SetScopes(scopes)
	}
	if in.EmailDomains != nil {
		domains, err := check.Domains("emailDomains", *in.EmailDomains)
		if err != nil {
			return err
		}
		m.SetEmailDomains(domains)
	}
	err := check.SetOrClear(check.TrimmedOrNull(in.GroupsClaim), check.TextFunc("groupsClaim", 1, oidcClaimMax),
		setter(m.SetGroupsClaim), clearer(m.ClearGroupsClaim))
	if err != nil {
		return err
	}
	return check.SetOrClear(in.DefaultRole, nil, setter(m.SetDefaultRole), clearer(m.ClearDefaultRole))
}

// setter and clearer adapt a mutation's setters to those of internal/check, which return
// something.
func setter[T any](set func(T)) func(T) struct{} {
	return func(v T) struct{} { set(v); return struct{}{} }
}

func clearer(clear func()) func() struct{} {
	return func() struct{} { clear(); return struct{}{} }
}

// sealSecret checks a given client secret and seals it under the provider's label, before the
// transaction that stores it (sealing may create the server key); nil when none is given.
// Returns INVALID.
func (s OIDCProviders) sealSecret(ctx context.Context, providerID string, secret *string) ([]byte, error) {
	if secret == nil {
		return nil, nil
	}
	if err := check.Text("clientSecret", *secret, 1, oidcSecretMax); err != nil {
		return nil, err
	}
	return s.Keys.Seal(ctx, s.Client, oidcSealLabel(providerID), []byte(*secret))
}

// oidcSealLabel binds a sealed client secret to its provider.
func oidcSealLabel(providerID string) string { return "oidc-provider:" + providerID }

// checkIssuer checks an issuer URL: https (http only on a host the operator allows), no query
// or fragment (OpenID Connect Discovery 1.0), without a trailing slash. Returns INVALID.
func (s OIDCProviders) checkIssuer(issuer string) (string, error) {
	issuer = strings.TrimSpace(issuer)
	if err := check.URL("issuer", issuer, oidcIssuerMax); err != nil {
		return "", err
	}
	u, _ := url.Parse(issuer) // check.URL parsed it
	switch {
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return "", apperr.Invalidf("issuer: must have no query, fragment or user information")
	case u.Scheme == "http" && !s.PlainHTTP(u.Hostname()):
		return "", apperr.Invalidf("issuer: must be an https URL (http only for hosts the operator allows with --fetch-allow)")
	}
	return issuer, nil
}

// checkScopes checks the scopes asked for besides openid: at most 20 distinct tokens without
// spaces. Returns INVALID.
func checkScopes(scopes []string) ([]string, error) {
	if len(scopes) > oidcScopesMax {
		return nil, apperr.Invalidf("scopes: at most %d scopes (got %d)", oidcScopesMax, len(scopes))
	}
	out := make([]string, 0, len(scopes))
	for i, sc := range scopes {
		sc = strings.TrimSpace(sc)
		if err := check.Text("scopes", sc, 1, oidcScopeMax); err != nil || strings.ContainsAny(sc, " \t\"\\") {
			return nil, apperr.Invalidf("scopes[%d]: must be a scope name without spaces or quotes, 1 to %d characters", i, oidcScopeMax)
		}
		if sc != "openid" {
			out = append(out, sc)
		}
	}
	return check.Distinct(out), nil
}
