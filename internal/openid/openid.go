// Package openid is the relying party of OpenID Connect sign-in on coreos/go-oidc and
// golang.org/x/oauth2: discovery from an issuer (kept per process, keys fetched again when the
// provider rotates them), the authorization request of the code flow with PKCE, state and
// nonce, and the exchange of the code for a verified ID token and its claims. It is stateless
// about sign-ins: what a sign-in keeps between its start and the callback (Request) is the
// caller's to keep, and internal/accounts keeps it. Every request goes through the HTTP client
// it is given (the server's SSRF-guarded one).
package openid

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// discoveryLifetime is how long a provider's discovery document is kept before it is read
// again. Its keys are fetched again sooner, whenever a token names a key they lack.
const discoveryLifetime = time.Hour

// Config is one provider as a relying party sees it.
type Config struct {
	Issuer, ClientID, ClientSecret string
	Scopes                         []string // asked for besides openid
	RedirectURL                    string   // this server's callback for the provider
	GroupsClaim                    string   // the claim listing the person's groups; "": none
}

// Request is what a sign-in keeps from its start to the callback: the state, nonce and PKCE
// verifier it sent (the last two never leave the server but in their hashed or signed forms).
type Request struct {
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
}

// NewRequest returns a request with fresh random values.
func NewRequest() Request {
	return Request{State: random(), Nonce: random(), Verifier: oauth2.GenerateVerifier()}
}

func random() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// Identity is who an ID token says signed in.
type Identity struct {
	Subject, Email, Name string
	// EmailVerified is the email_verified claim; nil when the provider sent none.
	EmailVerified *bool
	Groups        []string
	// Claims are all the claims the identity was read from (the ID token's, or the userinfo
	// endpoint's), for mappings of claims by name.
	Claims map[string]any
}

// Error is a sign-in the relying party refuses, with the reason.
type Error struct{ Reason string }

func (e *Error) Error() string { return "OpenID Connect sign-in refused: " + e.Reason }

func refused(format string, args ...any) *Error {
	return &Error{Reason: strings.TrimPrefix(fmt.Sprintf(format, args...), "oidc: ")}
}

// Providers discovers providers through one HTTP client and keeps them: their endpoints for
// discoveryLifetime, their keys until a token names a key they lack. Safe for concurrent use.
type Providers struct {
	Client *http.Client

	mu   sync.Mutex
	kept map[string]kept // by issuer
}

type kept struct {
	p       *oidc.Provider
	fetched time.Time
}

// provider returns the discovered provider of an issuer. Returns an Error when discovery fails.
func (ps *Providers) provider(ctx context.Context, issuer string, now time.Time) (*oidc.Provider, error) {
	ps.mu.Lock()
	k, ok := ps.kept[issuer]
	ps.mu.Unlock()
	if ok && now.Sub(k.fetched) < discoveryLifetime {
		return k.p, nil
	}
	// The provider keeps this context for its key set: values only, never cancelled.
	p, err := oidc.NewProvider(oidc.ClientContext(context.WithoutCancel(ctx), ps.Client), issuer)
	var mismatch *oidc.IssuerMismatchError
	switch {
	case errors.As(err, &mismatch):
		return nil, refused("the provider's discovery document names the issuer %q, not %q", mismatch.Discovered, issuer)
	case err != nil:
		return nil, refused("discovery at %s failed: %v", issuer, err)
	}
	ps.mu.Lock()
	if ps.kept == nil {
		ps.kept = map[string]kept{}
	}
	ps.kept[issuer] = kept{p: p, fetched: now}
	ps.mu.Unlock()
	return p, nil
}

func (ps *Providers) oauth2(ctx context.Context, c Config, now time.Time) (*oidc.Provider, *oauth2.Config, error) {
	p, err := ps.provider(ctx, c.Issuer, now)
	if err != nil {
		return nil, nil, err
	}
	scopes := append([]string{oidc.ScopeOpenID}, slices.DeleteFunc(slices.Clone(c.Scopes), func(s string) bool { return s == oidc.ScopeOpenID })...)
	return p, &oauth2.Config{ClientID: c.ClientID, ClientSecret: c.ClientSecret, Endpoint: p.Endpoint(),
		RedirectURL: c.RedirectURL, Scopes: scopes}, nil
}

// AuthURL returns where to send the browser to sign in: the provider's authorization endpoint
// with the code flow, r's state and nonce, and the S256 challenge of its verifier. Returns an
// Error when discovery fails.
func (ps *Providers) AuthURL(ctx context.Context, c Config, r Request, now time.Time) (string, error) {
	_, oc, err := ps.oauth2(ctx, c, now)
	if err != nil {
		return "", err
	}
	return oc.AuthCodeURL(r.State, oidc.Nonce(r.Nonce), oauth2.S256ChallengeOption(r.Verifier)), nil
}

// Exchange trades the code of a callback for tokens and verifies the ID token: signature by a key
// of the provider (an unsigned token is refused), issuer, audience, expiry at now, and r's nonce.
// Returns an Error saying why a sign-in is refused.
func (ps *Providers) Exchange(ctx context.Context, c Config, r Request, code string, now time.Time) (Identity, error) {
	p, oc, err := ps.oauth2(ctx, c, now)
	if err != nil {
		return Identity{}, err
	}
	tok, err := oc.Exchange(oidc.ClientContext(ctx, ps.Client), code, oauth2.VerifierOption(r.Verifier))
	var re *oauth2.RetrieveError
	switch {
	case errors.As(err, &re):
		return Identity{}, refused("the provider refused the code: %s", tokenError(re))
	case err != nil:
		return Identity{}, refused("the code could not be exchanged: %v", err)
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return Identity{}, refused("the provider's answer holds no ID token")
	}
	// The provider's one key set, fetched again when a token names a key it lacks (a rotation).
	idt, err := p.Verifier(&oidc.Config{ClientID: c.ClientID, Now: func() time.Time { return now }}).Verify(ctx, raw)
	if err != nil {
		return Identity{}, refused("the ID token: %v", err)
	}
	if idt.Nonce != r.Nonce {
		return Identity{}, refused("the ID token's nonce is not the one this sign-in sent")
	}
	id, err := identity(idt.Claims, c.GroupsClaim)
	if err != nil || id.Email != "" || p.UserInfoEndpoint() == "" {
		id.Subject = idt.Subject
		return id, err
	}
	return ps.userInfo(ctx, p, tok, idt.Subject, c.GroupsClaim)
}

// userInfo reads the claims of the userinfo endpoint, for providers that keep them out of the ID
// token when they issue an access token (OpenID Connect Core 5.4). The answer must be about the
// ID token's subject.
func (ps *Providers) userInfo(ctx context.Context, p *oidc.Provider, tok *oauth2.Token, subject, groupsClaim string) (Identity, error) {
	ui, err := p.UserInfo(oidc.ClientContext(ctx, ps.Client), oauth2.StaticTokenSource(tok))
	if err != nil {
		return Identity{}, refused("the userinfo endpoint: %v", err)
	}
	if ui.Subject != subject {
		return Identity{}, refused("the userinfo endpoint answered for another subject than the ID token's")
	}
	id, err := identity(ui.Claims, groupsClaim)
	id.Subject = subject
	return id, err
}

// tokenError is the provider's error code and description, bounded.
func tokenError(re *oauth2.RetrieveError) string {
	s := re.ErrorCode
	if re.ErrorDescription != "" {
		s += ": " + re.ErrorDescription
	}
	if s == "" {
		s = fmt.Sprintf("status %d", re.Response.StatusCode)
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// identity reads the claims of a verified ID token, or of a userinfo answer.
func identity(claims func(any) error, groupsClaim string) (Identity, error) {
	var std struct {
		Email         string `json:"email"`
		EmailVerified any    `json:"email_verified"` // a boolean, or "true" (Cognito's userinfo)
		Name          string `json:"name"`
		GivenName     string `json:"given_name"`
		FamilyName    string `json:"family_name"`
	}
	var all map[string]any
	if err := claims(&std); err != nil {
		return Identity{}, refused("the claims: %v", err)
	}
	if err := claims(&all); err != nil {
		return Identity{}, refused("the claims: %v", err)
	}
	name := strings.TrimSpace(std.Name)
	if name == "" {
		name = strings.TrimSpace(std.GivenName + " " + std.FamilyName)
	}
	id := Identity{Email: std.Email, Name: name, Groups: groups(all[groupsClaim]), Claims: all}
	switch v := std.EmailVerified.(type) {
	case bool:
		id.EmailVerified = &v
	case string:
		id.EmailVerified = new(strings.EqualFold(v, "true"))
	}
	return id, nil
}

// groups are the values of a groups claim: a list of strings, or one string.
func groups(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, g := range v {
			if s, ok := g.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// EndSessionURL returns the provider's end-session URL for RP-initiated logout, sending the
// browser back to postLogout, or "" when the provider offers none (or cannot be discovered).
func (ps *Providers) EndSessionURL(ctx context.Context, c Config, postLogout string, now time.Time) string {
	p, err := ps.provider(ctx, c.Issuer, now)
	if err != nil {
		return ""
	}
	var meta struct {
		EndSession string `json:"end_session_endpoint"`
	}
	if p.Claims(&meta) != nil || meta.EndSession == "" {
		return ""
	}
	u, err := url.Parse(meta.EndSession)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") {
		return ""
	}
	q := u.Query()
	q.Set("client_id", c.ClientID)
	q.Set("post_logout_redirect_uri", postLogout)
	u.RawQuery = q.Encode()
	return u.String()
}
