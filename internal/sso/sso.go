// Package sso is the SAML service provider of Bindery, built on github.com/crewjam/saml: it
// checks a provider's certificate, describes this server to identity providers (the service URLs
// and metadata), starts a sign-in (an AuthnRequest sent with the HTTP-Redirect binding) and
// verifies the identity provider's answer (HTTP-POST binding): signature by the stored
// certificate, issuer, audience, destination, time window, the request it answers, and replay.
// It holds no state: requests and used assertions are remembered by the caller (the database),
// through the functions it is given.
package sso

import (
	"bytes"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"encoding/xml"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/crewjam/saml"
	dsig "github.com/russellhaering/goxmldsig"
)

// Provider is what a sign-in needs of an identity provider: its entity id (the Issuer of its
// answers), the URL that takes sign-in requests, and its signing certificate (PEM).
type Provider struct {
	ID          string
	EntityID    string
	SSOURL      string
	Certificate string
}

// Service holds the absolute URLs of this server for one provider: the entity id of this service
// provider (which is also where its metadata is served), the assertion consumer service that
// takes the answers, and the start URL that begins a sign-in.
type Service struct {
	EntityID, ACSURL, StartURL string
}

// ServiceOf returns the URLs of this server (at baseURL) for the provider with the id.
func ServiceOf(baseURL, providerID string) Service {
	base := strings.TrimRight(baseURL, "/") + "/sso/saml/" + url.PathEscape(providerID)
	return Service{EntityID: base + "/metadata", ACSURL: base + "/acs", StartURL: base + "/start"}
}

// RequestLifetime is how long a sign-in request waits for its answer.
const RequestLifetime = 10 * time.Minute

// maxResponse bounds an encoded answer (1 MiB bodies are refused before this by the server).
const maxResponse = 512 << 10

// ParseCertificate reads a PEM X.509 certificate and checks it is valid at now. The error says
// what is wrong: no PEM block, a private key instead of a certificate, a block that does not
// parse, or a certificate outside its validity period.
func ParseCertificate(text string, now time.Time) (*x509.Certificate, error) {
	block, rest := pem.Decode([]byte(strings.TrimSpace(text)))
	switch {
	case block == nil:
		return nil, errors.New("is not a PEM certificate (-----BEGIN CERTIFICATE----- …)")
	case strings.Contains(block.Type, "PRIVATE KEY"):
		return nil, errors.New("is a private key: give the identity provider's public certificate instead")
	case block.Type != "CERTIFICATE":
		return nil, fmt.Errorf("is a PEM %q block, not a CERTIFICATE", block.Type)
	case len(bytes.TrimSpace(rest)) > 0:
		return nil, errors.New("must hold exactly one PEM certificate")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("is not a valid X.509 certificate: %v", err)
	}
	if now.After(cert.NotAfter) {
		return nil, fmt.Errorf("expired on %s", cert.NotAfter.UTC().Format(time.RFC3339))
	}
	if now.Before(cert.NotBefore) {
		return nil, fmt.Errorf("is not valid before %s", cert.NotBefore.UTC().Format(time.RFC3339))
	}
	return cert, nil
}

// serviceProvider returns crewjam's service provider for p at svc, with the clock at now and the
// replay cache given (nil when only requests and metadata are made).
func serviceProvider(p Provider, svc Service, now time.Time, replay saml.AssertionReplayCache) (*saml.ServiceProvider, error) {
	acs, err := url.Parse(svc.ACSURL)
	if err != nil {
		return nil, err
	}
	meta, err := url.Parse(svc.EntityID)
	if err != nil {
		return nil, err
	}
	sp := &saml.ServiceProvider{
		EntityID:                         svc.EntityID,
		AcsURL:                           *acs,
		MetadataURL:                      *meta,
		AuthnNameIDFormat:                saml.EmailAddressNameIDFormat,
		AssertionConsumerServiceBindings: []string{saml.HTTPPostBinding},
		Clock:                            dsig.NewFakeClockAt(now),
		ReplayCache:                      replay,
		RejectSHA1Signatures:             true,
		MetadataValidDuration:            7 * 24 * time.Hour,
	}
	if p.SSOURL == "" || p.EntityID == "" || p.Certificate == "" {
		return sp, nil // pending: metadata only
	}
	cert, err := ParseCertificate(p.Certificate, now)
	if err != nil {
		return nil, fmt.Errorf("the provider's certificate %v", err)
	}
	sp.IDPMetadata = &saml.EntityDescriptor{
		EntityID: p.EntityID,
		IDPSSODescriptors: []saml.IDPSSODescriptor{{
			SSODescriptor: saml.SSODescriptor{RoleDescriptor: saml.RoleDescriptor{
				ProtocolSupportEnumeration: "urn:oasis:names:tc:SAML:2.0:protocol",
				KeyDescriptors: []saml.KeyDescriptor{{Use: "signing", KeyInfo: saml.KeyInfo{X509Data: saml.X509Data{
					X509Certificates: []saml.X509Certificate{{Data: base64.StdEncoding.EncodeToString(cert.Raw)}},
				}}}},
			}},
			SingleSignOnServices: []saml.Endpoint{{Binding: saml.HTTPRedirectBinding, Location: p.SSOURL}},
		}},
	}
	return sp, nil
}

// Metadata returns the SAML metadata XML of this service provider for p.
func Metadata(p Provider, svc Service, now time.Time) ([]byte, error) {
	sp, err := serviceProvider(Provider{ID: p.ID}, svc, now, nil)
	if err != nil {
		return nil, err
	}
	out, err := xml.MarshalIndent(sp.Metadata(), "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), out...), nil
}

// Start makes a sign-in request to p and returns the URL to send the browser to (p's sign-in URL
// with the request and relayState) and the request's id, which the answer must name.
func Start(p Provider, svc Service, relayState string, now time.Time) (redirect *url.URL, requestID string, err error) {
	sp, err := serviceProvider(p, svc, now, nil)
	if err != nil {
		return nil, "", err
	}
	if sp.IDPMetadata == nil {
		return nil, "", errors.New("the provider is pending: its ssoURL, entityID and certificate must all be set")
	}
	req, err := sp.MakeAuthenticationRequest(p.SSOURL, saml.HTTPRedirectBinding, saml.HTTPPostBinding)
	if err != nil {
		return nil, "", err
	}
	u, err := req.Redirect(relayState, sp)
	if err != nil {
		return nil, "", err
	}
	return u, req.ID, nil
}
