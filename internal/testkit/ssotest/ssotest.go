// Package ssotest is an in-process SAML identity provider for tests, built on crewjam/saml's
// IdentityProvider: it answers a service provider's sign-in requests (HTTP-Redirect binding) with
// a signed response in an auto-posting form (HTTP-POST binding), for the person the test names.
// Tests change the assertion before it is signed to exercise failures.
package ssotest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/crewjam/saml"
)

// KeyPair is a signing key with its self-signed certificate.
type KeyPair struct {
	Key     *rsa.PrivateKey
	Cert    *x509.Certificate
	CertPEM string
}

// NewKeyPair makes a 2048-bit RSA key and a certificate valid from notBefore to notAfter.
func NewKeyPair(tb testing.TB, notBefore, notAfter time.Time) KeyPair {
	tb.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		tb.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "test idp"},
		NotBefore: notBefore, NotAfter: notAfter, KeyUsage: x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		tb.Fatal(err)
	}
	return KeyPair{Key: key, Cert: cert, CertPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))}
}

// IdP is a running identity provider.
type IdP struct {
	tb      testing.TB
	Server  *httptest.Server
	Signing KeyPair // the pair it signs with

	mu     sync.Mutex
	person saml.Session
	tamper func(*saml.Assertion)
}

// EntityID returns the entity id of the IdP (its metadata URL).
func (i *IdP) EntityID() string { return i.Server.URL + "/metadata" }

// SSOURL returns the URL that takes sign-in requests.
func (i *IdP) SSOURL() string { return i.Server.URL + "/sso" }

// New starts an identity provider signing with a fresh key pair.
func New(tb testing.TB) *IdP {
	tb.Helper()
	i := &IdP{tb: tb, Signing: NewKeyPair(tb, time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour))}
	i.Server = httptest.NewServer(http.HandlerFunc(i.serve))
	tb.Cleanup(i.Server.Close)
	return i
}

// SignIn sets who signs in next: the email (as NameID and attribute) and the display name.
func (i *IdP) SignIn(email, name string) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.person = saml.Session{ID: "s-" + email, CreateTime: time.Now(), ExpireTime: time.Now().Add(time.Hour), Index: "1",
		NameID: email, NameIDFormat: string(saml.EmailAddressNameIDFormat), UserEmail: email, UserCommonName: name}
}

// Tamper changes every assertion before it is signed (nil: none).
func (i *IdP) Tamper(f func(*saml.Assertion)) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.tamper = f
}

// SignWith makes the IdP sign with another key pair.
func (i *IdP) SignWith(k KeyPair) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.Signing = k
}

func (i *IdP) serve(w http.ResponseWriter, r *http.Request) {
	i.mu.Lock()
	meta, _ := url.Parse(i.EntityID())
	sso, _ := url.Parse(i.SSOURL())
	idp := &saml.IdentityProvider{Key: i.Signing.Key, Certificate: i.Signing.Cert, MetadataURL: *meta, SSOURL: *sso,
		ServiceProviderProvider: spFetcher{}, SessionProvider: sessionOf(i.person),
		AssertionMaker: maker{tamper: i.tamper}}
	i.mu.Unlock()
	switch r.URL.Path {
	case "/sso":
		idp.ServeSSO(w, r)
	case "/metadata":
		idp.ServeMetadata(w, r)
	default:
		http.NotFound(w, r)
	}
}

// spFetcher reads a service provider's metadata from its entity id (a metadata URL).
type spFetcher struct{}

func (spFetcher) GetServiceProvider(_ *http.Request, id string) (*saml.EntityDescriptor, error) {
	res, err := http.Get(id)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("metadata %s: %s", id, res.Status)
	}
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	var ed saml.EntityDescriptor
	return &ed, xml.Unmarshal(b, &ed)
}

type sessionOf saml.Session

func (s sessionOf) GetSession(http.ResponseWriter, *http.Request, *saml.IdpAuthnRequest) *saml.Session {
	session := saml.Session(s)
	return &session
}

// maker is crewjam's assertion maker followed by the test's change.
type maker struct{ tamper func(*saml.Assertion) }

func (m maker) MakeAssertion(req *saml.IdpAuthnRequest, s *saml.Session) error {
	if err := (saml.DefaultAssertionMaker{}).MakeAssertion(req, s); err != nil {
		return err
	}
	if m.tamper != nil {
		m.tamper(req.Assertion)
	}
	return nil
}

var (
	formAction = regexp.MustCompile(`action="([^"]*)"`)
	formField  = regexp.MustCompile(`name="(SAMLResponse|RelayState)" value="([^"]*)"`)
)

// Form is the auto-posting form of an IdP's answer.
type Form struct {
	Action string
	Values url.Values
}

// ParseForm reads the form of an IdP's answer page.
func ParseForm(tb testing.TB, page []byte) Form {
	tb.Helper()
	action := formAction.FindSubmatch(page)
	if action == nil {
		tb.Fatalf("no form in the identity provider's answer: %s", page)
	}
	f := Form{Action: html.UnescapeString(string(action[1])), Values: url.Values{}}
	for _, m := range formField.FindAllSubmatch(page, -1) {
		f.Values.Set(string(m[1]), html.UnescapeString(string(m[2])))
	}
	return f
}
