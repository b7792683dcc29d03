package sso

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"net/mail"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crewjam/saml"
)

// Error is an answer that was refused; its message says why, in words for the person signing in.
type Error struct {
	Reason string
	err    error
}

func (e *Error) Error() string { return e.Reason }

// Unwrap returns crewjam's error, for the log.
func (e *Error) Unwrap() error { return e.err }

func refused(reason string, err error) error { return &Error{Reason: reason, err: err} }

// Decode reads a posted SAMLResponse (base64 of the Response XML) and returns the XML and the id
// of the request it says it answers (its InResponseTo, not verified yet). Returns an *Error when
// it is not base64 of an XML Response.
func Decode(samlResponse string) (doc []byte, inResponseTo string, err error) {
	if samlResponse == "" {
		return nil, "", refused("SAMLResponse: is required (the identity provider's answer, posted as a form field)", nil)
	}
	if len(samlResponse) > maxResponse {
		return nil, "", refused("SAMLResponse: is too large", nil)
	}
	doc, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(samlResponse), ""))
	if err != nil {
		return nil, "", refused("SAMLResponse: is not base64", err)
	}
	dec := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, "", refused("SAMLResponse: is not a SAML Response document", err)
		}
		if start, ok := tok.(xml.StartElement); ok {
			if start.Name.Local != "Response" {
				return nil, "", refused("SAMLResponse: is not a SAML Response document", nil)
			}
			for _, a := range start.Attr {
				if a.Name.Space == "" && a.Name.Local == "InResponseTo" {
					inResponseTo = a.Value
				}
			}
			return doc, inResponseTo, nil
		}
	}
}

// ReplayFunc records an assertion's id as used until expiresAt, and returns
// saml.ErrAssertionReplayed when it was recorded already.
type ReplayFunc func(assertionID string, expiresAt time.Time) error

// Consume implements saml.AssertionReplayCache.
func (f ReplayFunc) Consume(assertionID string, expiresAt time.Time) error {
	return f(assertionID, expiresAt)
}

// Identity is the person an answer vouches for.
type Identity struct {
	Email string // lower-cased
	Name  string // display name; the email's local part when the answer names none
}

// Verify checks the answer doc from p, posted to svc's ACS at now: signed with p's certificate,
// issued by p's entity id, for this audience and destination, within its time window, answering
// requestID (empty when no request of this server waits for the id it names), and not seen
// before (replay). It returns the identity it vouches for. Returns an *Error saying why it was
// refused.
func Verify(p Provider, svc Service, doc []byte, requestID string, replay ReplayFunc, now time.Time) (Identity, error) {
	sp, err := serviceProvider(p, svc, now, replay)
	if err != nil {
		return Identity{}, refused(err.Error(), err)
	}
	if sp.IDPMetadata == nil {
		return Identity{}, refused("the provider is pending: its ssoURL, entityID and certificate must all be set", nil)
	}
	var ids []string
	if requestID != "" {
		ids = []string{requestID}
	}
	assertion, err := sp.ParseXMLResponse(doc, ids, sp.AcsURL)
	if err != nil {
		return Identity{}, refused(reason(err, svc), err)
	}
	return identityOf(assertion)
}

// reasons map crewjam's kinds of failure to what the person signing in is told, first match first.
var reasons = []struct {
	kind error
	text string
}{
	{saml.ErrAssertionReplayed, "the assertion was used already (a replayed answer)"},
	{saml.ErrRequestIDMismatch, "it answers no sign-in this server started with this provider, or the sign-in took longer than 10 minutes: start again"},
	{saml.ErrCertificateNotValidNow, "the certificate that signed it is expired or not yet valid"},
	{saml.ErrInvalidSignature, "its signature does not verify with the provider's certificate (a wrong certificate, or a changed answer)"},
	{saml.ErrUntrustedCertificate, "its signature does not verify with the provider's certificate (a wrong certificate, or a changed answer)"},
	{saml.ErrIssuerMismatch, "its issuer is not the provider's entityID"},
	{saml.ErrDestinationMismatch, "it is addressed to another destination than this provider's acsURL"},
	{saml.ErrExpired, "it is expired (outside its time window)"},
	{saml.ErrNotYetValid, "it is not valid yet (outside its time window)"},
	{saml.ErrMalformedMessage, "it is not a well-formed SAML response"},
	{saml.ErrMissingElement, "it lacks a required element"},
	{saml.ErrUnsupported, "it uses a form of SAML this server does not accept"},
	{saml.ErrDecryptionFailed, "it is encrypted, which this server does not accept"},
}

// reason says why crewjam refused an answer.
func reason(err error, svc Service) string {
	if errors.Is(err, saml.ErrAudienceMismatch) {
		return "its audience is not this service provider (" + svc.EntityID + ")"
	}
	var status saml.ErrBadStatus
	if errors.As(err, &status) {
		return "the identity provider did not sign the person in (status " + status.Status + ")"
	}
	for _, r := range reasons {
		if errors.Is(err, r.kind) {
			return r.text
		}
	}
	return "it could not be verified"
}

// Attribute names that carry an email address, then a display name, in order of preference.
var (
	emailAttributes = []string{"email", "mail", "emailAddress", "urn:oid:0.9.2342.19200300.100.1.3",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"}
	nameAttributes = []string{"displayName", "name", "cn", "urn:oid:2.16.840.1.113730.3.1.241", "urn:oid:2.5.4.3",
		"http://schemas.microsoft.com/identity/claims/displayname", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name"}
	givenAttributes = []string{"givenName", "firstName", "urn:oid:2.5.4.42",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname"}
	surnameAttributes = []string{"sn", "surname", "lastName", "urn:oid:2.5.4.4",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname"}
)

// identityOf reads the person of a verified assertion: the email from the NameID when it is one,
// else from an email attribute; the display name from the attributes.
func identityOf(a *saml.Assertion) (Identity, error) {
	attrs := map[string]string{}
	for _, st := range a.AttributeStatements {
		for _, at := range st.Attributes {
			if len(at.Values) > 0 && attrs[at.Name] == "" {
				attrs[at.Name] = strings.TrimSpace(at.Values[0].Value)
			}
		}
	}
	var candidates []string
	if a.Subject != nil && a.Subject.NameID != nil {
		candidates = append(candidates, a.Subject.NameID.Value)
	}
	for _, n := range emailAttributes {
		candidates = append(candidates, attrs[n])
	}
	email := ""
	for _, c := range candidates {
		if e, ok := emailAddress(c); ok {
			email = e
			break
		}
	}
	if email == "" {
		return Identity{}, refused("it names no email address (as the NameID or an email attribute)", nil)
	}
	name := first(attrs, nameAttributes)
	if name == "" {
		name = strings.TrimSpace(first(attrs, givenAttributes) + " " + first(attrs, surnameAttributes))
	}
	if name == "" || !utf8.ValidString(name) || strings.ContainsRune(name, 0) {
		name = email[:strings.IndexByte(email, '@')]
	}
	if utf8.RuneCountInString(name) > 255 {
		name = string([]rune(name)[:255])
	}
	return Identity{Email: email, Name: name}, nil
}

// emailAddress returns s lower-cased when it is a bare email address of at most 320 characters.
func emailAddress(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 320 || strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
		return "", false
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || addr.Name != "" {
		return "", false
	}
	return strings.ToLower(s), true
}

func first(attrs map[string]string, names []string) string {
	for _, n := range names {
		if v := attrs[n]; v != "" {
			return v
		}
	}
	return ""
}
