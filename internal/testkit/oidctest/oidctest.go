// Package oidctest is an in-process OpenID Provider for tests: zitadel/oidc's op package (a
// certified OpenID Provider implementation) over its example in-memory storage, serving on
// 127.0.0.2 (internal/testkit/fetchtest) with one confidential client. Its login page signs in the
// person the test names at once. Tests rotate its signing key, and change the ID token of its
// next token answer (claims, or no signature at all) to exercise a relying party's refusals.
package oidctest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/example/server/storage"
	"github.com/zitadel/oidc/v3/pkg/oidc"
	"github.com/zitadel/oidc/v3/pkg/op"

	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
)

// Person is who signs in at the provider.
type Person struct {
	Subject, Email, Name string
	EmailVerified        bool
	Groups               []string // the "groups" claim
}

// OP is a running OpenID Provider.
type OP struct {
	tb           testing.TB
	Server       *httptest.Server
	Issuer       string
	ClientID     string
	ClientSecret string

	mu       sync.Mutex
	person   Person
	redirect []string
	keys     []*key // the last one signs
	tamper   func(claims map[string]any) (unsigned bool)
	store    *store
	// userinfoOnly keeps the email, profile and groups claims out of the ID token, at the
	// userinfo endpoint only (OpenID Connect Core 5.4, Zitadel's default).
	userinfoOnly bool
}

// Addr is the loopback address the provider listens on: a relying party allows it in its SSRF
// guard (--fetch-allow).
const Addr = "127.0.0.2"

// New starts a provider whose person is p.
func New(tb testing.TB, p Person) *OP {
	tb.Helper()
	o := &OP{tb: tb, person: p, ClientID: "bindery", ClientSecret: "s3cret-" + rand.Text()}
	var handler http.Handler
	o.Server = fetchtest.Serve(tb, Addr, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	o.Issuer = o.Server.URL
	o.Rotate()
	client := storage.WebClient(o.ClientID, o.ClientSecret)
	o.store = &store{Storage: storage.NewStorageWithClients(users{o}, map[string]*storage.Client{o.ClientID: client}), op: o}
	provider, err := op.NewOpenIDProvider(o.Issuer, &op.Config{CryptoKey: sha256.Sum256([]byte(o.ClientSecret)),
		CodeMethodS256: true, AuthMethodPost: true}, o.store, op.WithAllowInsecure())
	if err != nil {
		tb.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/login/username", o.login)
	mux.Handle("/oauth/token", o.tampering(provider))
	mux.Handle("/", provider)
	handler = mux
	return o
}

// AllowRedirect registers a redirect URI of the client (a relying party's callback).
func (o *OP) AllowRedirect(uri string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.redirect = append(o.redirect, uri)
}

// SetPerson changes who signs in next.
func (o *OP) SetPerson(p Person) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.person = p
}

// KeepClaimsInUserinfo keeps the person's claims out of the ID tokens (only true) or puts them
// back: a relying party reads them at the userinfo endpoint.
func (o *OP) KeepClaimsInUserinfo(only bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.userinfoOnly = only
}

// Person returns who signs in.
func (o *OP) Person() Person {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.person
}

// Tamper changes the claims of the ID token of the next token answer, signed again with the
// provider's key, or sent without a signature (alg none) when f returns true.
func (o *OP) Tamper(f func(claims map[string]any) (unsigned bool)) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.tamper = f
}

// Rotate replaces the signing key with a new one: the key set then lists only the new key.
func (o *OP) Rotate() {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		o.tb.Fatal(err)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.keys = []*key{{id: rand.Text()[:12], key: k}}
}

func (o *OP) signingKey() *key {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.keys[len(o.keys)-1]
}

// login signs the provider's person in for the authorization request, and sends the browser back
// to the provider's callback, which answers the relying party.
func (o *OP) login(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("authRequestID")
	p := o.Person()
	if err := o.store.CheckUsernamePassword(p.Subject, "password", id); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, o.Issuer+"/authorize/callback?id="+id, http.StatusFound)
}

// tampering applies the pending Tamper to the ID token of a token answer.
func (o *OP) tampering(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		f := o.tamper
		o.tamper = nil
		o.mu.Unlock()
		if f == nil {
			next.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		var answer map[string]any
		if rec.Code != http.StatusOK || json.Unmarshal(rec.Body.Bytes(), &answer) != nil {
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		idToken, _ := answer["id_token"].(string)
		answer["id_token"] = o.rewrite(idToken, f)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(answer)
	})
}

// rewrite returns the ID token with f's changes, signed again (or not at all).
func (o *OP) rewrite(idToken string, f func(map[string]any) bool) string {
	parts := strings.Split(idToken, ".")
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		o.tb.Fatal(err)
	}
	var claims map[string]any
	if err := json.Unmarshal(payload, &claims); err != nil {
		o.tb.Fatal(err)
	}
	unsigned := f(claims)
	payload, _ = json.Marshal(claims)
	if unsigned {
		header := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
		return header + "." + base64.RawURLEncoding.EncodeToString(payload) + "."
	}
	k := o.signingKey()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: k.key, KeyID: k.id}}, nil)
	if err != nil {
		o.tb.Fatal(err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		o.tb.Fatal(err)
	}
	compact, err := jws.CompactSerialize()
	if err != nil {
		o.tb.Fatal(err)
	}
	return compact
}

// key is a signing key of the provider.
type key struct {
	id  string
	key *rsa.PrivateKey
}

func (k *key) SignatureAlgorithm() jose.SignatureAlgorithm { return jose.RS256 }
func (k *key) Algorithm() jose.SignatureAlgorithm          { return jose.RS256 }
func (k *key) Key() any                                    { return k.key }
func (k *key) ID() string                                  { return k.id }
func (k *key) Use() string                                 { return "sig" }

// publicKey is a key as the key set lists it.
type publicKey struct{ *key }

func (k publicKey) Key() any { return &k.key.key.PublicKey }

// store is the example storage with the provider's keys, its client's redirect URIs, and the
// person's name and groups in the ID token.
type store struct {
	*storage.Storage
	op *OP
}

func (s *store) SigningKey(context.Context) (op.SigningKey, error) { return s.op.signingKey(), nil }

func (s *store) SignatureAlgorithms(context.Context) ([]jose.SignatureAlgorithm, error) {
	return []jose.SignatureAlgorithm{jose.RS256}, nil
}

func (s *store) KeySet(context.Context) ([]op.Key, error) {
	s.op.mu.Lock()
	defer s.op.mu.Unlock()
	out := make([]op.Key, len(s.op.keys))
	for i, k := range s.op.keys {
		out[i] = publicKey{k}
	}
	return out, nil
}

func (s *store) GetClientByClientID(ctx context.Context, id string) (op.Client, error) {
	c, err := s.Storage.GetClientByClientID(ctx, id)
	if err != nil {
		return nil, err
	}
	s.op.mu.Lock()
	defer s.op.mu.Unlock()
	return client{c, append([]string(nil), s.op.redirect...), !s.op.userinfoOnly}, nil
}

func (s *store) SetUserinfoFromRequest(ctx context.Context, info *oidc.UserInfo, req op.IDTokenRequest, scopes []string) error {
	if err := s.Storage.SetUserinfoFromRequest(ctx, info, req, scopes); err != nil {
		return err
	}
	if info.Email != "" { // the claims of the scopes are asserted here
		s.addClaims(info)
	}
	return nil
}

func (s *store) SetUserinfoFromToken(ctx context.Context, info *oidc.UserInfo, tokenID, subject, origin string) error {
	if err := s.Storage.SetUserinfoFromToken(ctx, info, tokenID, subject, origin); err != nil {
		return err
	}
	s.addClaims(info)
	return nil
}

// addClaims sets the person's name and groups.
func (s *store) addClaims(info *oidc.UserInfo) {
	p := s.op.Person()
	info.Name = p.Name
	if p.Groups != nil {
		info.AppendClaims("groups", p.Groups)
	}
}

// client is the example client with the registered redirect URIs, asserting the claims of its
// scopes in the ID token (as Keycloak, Google and Entra ID do) unless told otherwise.
type client struct {
	op.Client
	redirect  []string
	inIDToken bool
}

func (c client) RedirectURIs() []string               { return c.redirect }
func (c client) PostLogoutRedirectURIs() []string     { return c.redirect }
func (c client) IDTokenUserinfoClaimsAssertion() bool { return c.inIDToken }
func (c client) IsScopeAllowed(scope string) bool     { return scope == "groups" }

// users is the provider's one person, as the example storage reads users.
type users struct{ op *OP }

func (u users) user() *storage.User {
	p := u.op.Person()
	return &storage.User{ID: p.Subject, Username: p.Subject, Password: "password", Email: p.Email,
		EmailVerified: p.EmailVerified, FirstName: p.Name}
}

func (u users) GetUserByID(id string) *storage.User {
	if id == u.op.Person().Subject {
		return u.user()
	}
	return nil
}

func (u users) GetUserByUsername(name string) *storage.User { return u.GetUserByID(name) }
func (u users) ExampleClientID() string                     { return "service" }
