package graph

import (
	"context"
	"sync"
	"time"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/oidcprovider"
	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/graph/model"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/check"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/openid"
	"github.com/binderyhq/bindery/internal/page"
)

// OpenID Connect providers translate between GraphQL (and REST, which calls these resolvers) and
// internal/accounts, which holds their rules and signs people in through them.

// Bounds of the requests to OpenID Providers: a provider that is down or slow fails a sign-in
// within openIDTimeout, never holding a worker.
const (
	openIDTimeout = 10 * time.Second
	openIDMaxBody = 1 << 20
)

// openIDState is the process's discovered OpenID Providers (their endpoints and keys).
type openIDState struct {
	once      sync.Once
	providers openid.Providers
}

// openIDProviders returns the discovered providers, reached through the SSRF-guarded client.
func (r *Resolver) openIDProviders() *openid.Providers {
	r.openID.once.Do(func() {
		f := r.Fetcher
		if f == nil {
			f = fetch.New(fetch.Allow{})
		}
		r.openID.providers.Client = f.HTTP(openIDTimeout, openIDMaxBody)
	})
	return &r.openID.providers
}

// OIDC is single sign-on through the organizations' OpenID Connect providers, on this server's
// clock.
func (r *Resolver) OIDC() accounts.OIDC {
	return accounts.OIDC{SSO: r.SSO(), Keys: &r.keys, Providers: r.openIDProviders()}
}

// oidcProvidersService is the OpenID Connect providers as this resolver's viewer administers them.
func (r *Resolver) oidcProvidersService() accounts.OIDCProviders {
	return accounts.OIDCProviders{Client: r.Client, Keys: &r.keys, RequireOrgRole: r.requireOrgRole,
		PlainHTTP: func(host string) bool { return r.Fetcher != nil && r.Fetcher.Allowed(host) }}
}

func (r *Resolver) oidcProviders(ctx context.Context, o *ent.Organization, first *int, after *string) (*model.OIDCProviderConnection, error) {
	args, err := listArgs(ctx, first, after)
	if err != nil {
		return nil, err
	}
	q, err := r.oidcProvidersService().Query(ctx, o.ID)
	if err != nil {
		return nil, err
	}
	p, err := flat(ctx, q, page.Order{Column: oidcprovider.FieldLabel}, args, false, oidcProviderCursor)
	if err != nil {
		return nil, err
	}
	return &model.OIDCProviderConnection{
		Edges: edges(ctx, p.Items, oidcProviderCursor, func(c string, n *ent.OIDCProvider) *model.OIDCProviderEdge {
			return &model.OIDCProviderEdge{Cursor: c, Node: n}
		}),
		PageInfo: pageInfo(p), TotalCount: p.Count,
	}, nil
}

func oidcProviderCursor(p *ent.OIDCProvider) page.Cursor { return page.Cursor{Key: p.Label, ID: p.ID} }

func (r *Resolver) createOIDCProvider(ctx context.Context, orgID string, in model.CreateOIDCProviderInput) (*ent.OIDCProvider, error) {
	return r.oidcProvidersService().Create(ctx, orgID, accounts.OIDCSettings{Label: &in.Label, Issuer: &in.Issuer,
		ClientID: &in.ClientID, ClientSecret: &in.ClientSecret, Scopes: listOrNil(in.Scopes), EmailDomains: listOrNil(in.EmailDomains),
		GroupsClaim: check.Nullable[string]{Set: true, Value: in.GroupsClaim}, DefaultRole: check.Nullable[viewer.Role]{Set: true, Value: in.DefaultRole}})
}

func (r *Resolver) updateOIDCProvider(ctx context.Context, orgID, id string, in model.UpdateOIDCProviderInput) (*ent.OIDCProvider, error) {
	return r.oidcProvidersService().Update(ctx, orgID, id, accounts.OIDCSettings{Label: in.Label, Issuer: in.Issuer,
		ClientID: in.ClientID, ClientSecret: in.ClientSecret, Scopes: listOrNil(in.Scopes), EmailDomains: listOrNil(in.EmailDomains),
		GroupsClaim: nullable(in.GroupsClaim), DefaultRole: nullable(in.DefaultRole)})
}

func (r *Resolver) oidcProviderURLs(p *ent.OIDCProvider) *model.OIDCProviderURLs {
	login, callback := accounts.OIDCURLs(r.BaseURL, p.ID)
	return &model.OIDCProviderURLs{Login: login, Callback: callback}
}
