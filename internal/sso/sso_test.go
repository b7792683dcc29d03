package sso_test

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/internal/sso"
	"github.com/binderyhq/bindery/internal/testkit/ssotest"
)

func TestParseCertificate(t *testing.T) {
	now := time.Now()
	valid := ssotest.NewKeyPair(t, now.Add(-time.Hour), now.Add(time.Hour))
	future := ssotest.NewKeyPair(t, now.Add(time.Hour), now.Add(2*time.Hour))
	for _, c := range []struct {
		name, pem, says string
	}{
		{"OK", valid.CertPEM, ""},
		{"OKSurroundingSpace", "\n  " + valid.CertPEM + "\n", ""},
		{"ErrEmpty", "", "not a PEM certificate"},
		{"ErrGarbage", "garbage", "not a PEM certificate"},
		{"ErrPrivateKey", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "private key"},
		{"ErrOtherBlock", "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n", "not a CERTIFICATE"},
		{"ErrTwo", valid.CertPEM + valid.CertPEM, "exactly one"},
		{"ErrCorrupt", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", "not a valid X.509"},
		{"ErrNotYetValid", future.CertPEM, "not valid before"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := sso.ParseCertificate(c.pem, now)
			if (err == nil) != (c.says == "") || (err != nil && !strings.Contains(err.Error(), c.says)) {
				t.Fatalf("got %v, want an error saying %q", err, c.says)
			}
		})
	}
}

func TestServiceOf(t *testing.T) {
	s := sso.ServiceOf("https://docs.example.com/", "p1")
	if s.ACSURL != "https://docs.example.com/sso/saml/p1/acs" || s.StartURL != "https://docs.example.com/sso/saml/p1/start" ||
		s.EntityID != "https://docs.example.com/sso/saml/p1/metadata" {
		t.Fatalf("%+v", s)
	}
}

func TestStartPending(t *testing.T) {
	_, _, err := sso.Start(sso.Provider{ID: "p"}, sso.ServiceOf("https://x", "p"), "", time.Now())
	if err == nil || !strings.Contains(err.Error(), "pending") {
		t.Fatalf("start with a pending provider: %v", err)
	}
}

// FuzzVerify feeds forged and garbage answers to the service provider: every one is refused with
// an *sso.Error (a reason for the person), none panics, none signs anyone in.
func FuzzVerify(f *testing.F) {
	kp := ssotest.NewKeyPair(f, time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour))
	p := sso.Provider{ID: "p", EntityID: "https://idp.example.com", SSOURL: "https://idp.example.com/sso", Certificate: kp.CertPEM}
	svc := sso.ServiceOf("https://docs.example.com", "p")
	for _, seed := range []string{
		"", "<Response/>", `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="x" InResponseTo="r1" Version="2.0"/>`,
		`<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="r" Version="2.0" IssueInstant="2026-01-01T00:00:00Z" InResponseTo="r1" Destination="https://docs.example.com/sso/saml/p/acs"><saml:Issuer>https://idp.example.com</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion ID="a" Version="2.0" IssueInstant="2026-01-01T00:00:00Z"><saml:Issuer>https://idp.example.com</saml:Issuer><saml:Subject><saml:NameID>eve@example.com</saml:NameID></saml:Subject></saml:Assertion></samlp:Response>`,
		`<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><Response>&b;</Response>`,
		strings.Repeat("<Response>", 5000),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, requestID, err := sso.Decode(base64.StdEncoding.EncodeToString(data))
		var refused *sso.Error
		if err != nil {
			if !errors.As(err, &refused) {
				t.Fatalf("Decode: %T %v", err, err)
			}
			return
		}
		replay := sso.ReplayFunc(func(string, time.Time) error { return nil })
		id, err := sso.Verify(p, svc, doc, requestID, replay, time.Now())
		if err == nil {
			t.Fatalf("an unsigned answer signed %+v in", id)
		}
		if !errors.As(err, &refused) || refused.Reason == "" {
			t.Fatalf("Verify: %T %v", err, err)
		}
	})
}
