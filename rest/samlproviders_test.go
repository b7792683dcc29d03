package rest_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/testkit/ssotest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

func TestSAMLProviders(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	editor := e.User("ed@example.com", org, testenv.Role(viewer.RoleEdit))
	outsider, otherOrg := e.Bootstrap("zed@zeta.io", "Zeta")
	team := authCreated(t, e.Do(admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Core"}))
	foreignTeam := authCreated(t, e.Do(outsider, "PUT", "/v1/orgs/"+otherOrg+"/teams", map[string]any{"title": "Theirs"}))
	cert := ssotest.NewKeyPair(t, time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
	base := "/v1/orgs/" + org + "/saml"

	var id string
	t.Run("OKCreate", func(t *testing.T) {
		r := e.Do(admin, "POST", base, map[string]any{"label": " Okta ", "entityID": "https://idp.example.com/entity",
			"ssoURL": "https://idp.example.com/sso", "certificate": cert.CertPEM, "defaultTeam": team, "defaultRole": "comment"})
		m := r.Map(t)
		if r.Status != http.StatusCreated || m["label"] != "Okta" || m["status"] != "active" || m["defaultRole"] != "comment" {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		id = m["id"].(string)
		service := m["service"].(map[string]any)
		if service["acsURL"] != e.Server.URL+"/sso/saml/"+id+"/acs" || service["entityID"] != e.Server.URL+"/sso/saml/"+id+"/metadata" {
			t.Fatalf("service: %v", service)
		}
		if m["defaultTeam"].(map[string]any)["id"] != team {
			t.Fatalf("defaultTeam: %v", m["defaultTeam"])
		}
	})
	t.Run("OKMetadata", func(t *testing.T) {
		r := e.Raw(testenv.Actor{}, "GET", "/sso/saml/"+id+"/metadata", "", nil)
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `entityID="`+e.Server.URL+"/sso/saml/"+id+`/metadata"`) ||
			!strings.Contains(string(r.Body), "/sso/saml/"+id+"/acs") {
			t.Fatalf("metadata: %d %s", r.Status, r.Body)
		}
		testenv.CheckError(t, e.Raw(testenv.Actor{}, "GET", "/sso/saml/nosuch/metadata", "", nil), http.StatusNotFound)
	})
	t.Run("OKListAndLogins", func(t *testing.T) {
		pending := e.Raw(admin, "POST", base, "application/json", strings.NewReader(`{"label":"Pending"}`))
		if pending.Status != http.StatusCreated || !strings.Contains(string(pending.Body), `"status":"pending"`) {
			t.Fatalf("a pending provider: %d %s", pending.Status, pending.Body)
		}
		if l := e.Raw(admin, "GET", base, "", nil).Map(t); l["count"] != float64(2) {
			t.Fatalf("list: %v", l)
		}
		var logins struct {
			Items []struct{ ID, Label, StartURL string }
		}
		e.Do(testenv.Actor{}, "GET", "/v1/orgs/"+org+"/sso", nil).JSON(t, &logins)
		if len(logins.Items) != 1 || logins.Items[0].ID != id || logins.Items[0].StartURL != e.Server.URL+"/sso/saml/"+id+"/start" {
			t.Fatalf("sign-in entries (active providers only): %+v", logins)
		}
		if r := e.Do(testenv.Actor{}, "GET", "/v1/orgs/nosuchorg/sso", nil); string(r.Body) != "{\"items\":[]}\n" {
			t.Fatalf("an unknown organization's entries: %s", r.Body)
		}
	})
	t.Run("OKPatch", func(t *testing.T) {
		r := e.Raw(admin, "PATCH", base+"/"+id, "application/json", strings.NewReader(`{"label":"Okta 2","certificate":null,"defaultRole":null,"defaultTeam":null}`))
		m := r.Map(t)
		if r.Status != http.StatusOK || m["label"] != "Okta 2" || m["status"] != "pending" || m["defaultRole"] != nil || m["defaultTeam"] != nil || m["certificate"] != nil {
			t.Fatalf("patch: %d %s", r.Status, r.Body)
		}
		e.Do(admin, "PATCH", base+"/"+id, map[string]any{"certificate": cert.CertPEM, "defaultRole": "read"})
	})

	expired := ssotest.NewKeyPair(t, time.Now().Add(-48*time.Hour), time.Now().Add(-24*time.Hour))
	key, _ := rsa.GenerateKey(rand.Reader, 1024)
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	for _, c := range []struct {
		name string
		body map[string]any
		says string
	}{
		{"ErrNoLabel", map[string]any{"entityID": "x"}, "label: is required"},
		{"ErrLongLabel", map[string]any{"label": strings.Repeat("a", 31)}, "label: must be at most 30"},
		{"ErrBlankLabel", map[string]any{"label": "  "}, "label: must not be empty"},
		{"ErrLongEntityID", map[string]any{"label": "x", "entityID": strings.Repeat("a", 1025)}, "entityID: must be at most 1024"},
		{"ErrGarbageCertificate", map[string]any{"label": "x", "certificate": "not a certificate"}, "certificate: is not a PEM certificate"},
		{"ErrPrivateKey", map[string]any{"label": "x", "certificate": keyPEM}, "certificate: is a private key"},
		{"ErrExpiredCertificate", map[string]any{"label": "x", "certificate": expired.CertPEM}, "certificate: expired on"},
		{"ErrCorruptCertificate", map[string]any{"label": "x", "certificate": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"}, "not a valid X.509"},
		{"ErrLongCertificate", map[string]any{"label": "x", "certificate": strings.Repeat("a", 10001)}, "certificate: must be at most 10000"},
		{"ErrRelativeSSOURL", map[string]any{"label": "x", "ssoURL": "/sso"}, "ssoURL: must be an absolute http or https URL"},
		{"ErrJavascriptSSOURL", map[string]any{"label": "x", "ssoURL": "javascript:alert(1)"}, "ssoURL: must be an absolute"},
		{"ErrForeignTeam", map[string]any{"label": "x", "defaultTeam": foreignTeam}, "defaultTeam: no team of this organization"},
		{"ErrRole", map[string]any{"label": "x", "defaultRole": "owner"}, "defaultRole"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if msg := testenv.CheckError(t, e.Do(admin, "POST", base, c.body), http.StatusBadRequest); !strings.Contains(msg, c.says) {
				t.Fatalf("message %q does not say %q", msg, c.says)
			}
		})
	}
	t.Run("ErrPatchExpiredCertificate", func(t *testing.T) {
		testenv.CheckError(t, e.Do(admin, "PATCH", base+"/"+id, map[string]any{"label": "Changed", "certificate": expired.CertPEM}), http.StatusBadRequest)
		if m := e.Do(admin, "GET", base+"/"+id, nil).Map(t); m["label"] != "Okta 2" {
			t.Fatalf("a failed patch changed the label: %v", m["label"])
		}
	})
	t.Run("ErrMemberNotAdmin", func(t *testing.T) {
		testenv.CheckError(t, e.Do(editor, "GET", base, nil), http.StatusForbidden)
		testenv.CheckError(t, e.Do(editor, "GET", base+"/"+id, nil), http.StatusForbidden)
		testenv.CheckError(t, e.Do(editor, "POST", base, map[string]any{"label": "x"}), http.StatusForbidden)
	})
	t.Run("ErrOutsider", func(t *testing.T) {
		testenv.CheckError(t, e.Do(outsider, "GET", base+"/"+id, nil), http.StatusNotFound)
		testenv.CheckError(t, e.Do(outsider, "GET", "/v1/orgs/"+otherOrg+"/saml/"+id, nil), http.StatusNotFound)
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		g := e.GraphQL(admin, `query($o: ID!, $p: ID!) { organization(id: $o) {
			samlProviders { totalCount edges { node { label status } } }
			samlProvider(id: $p) { label status defaultRole service { startURL } }
			ssoLogins { id label startURL } } }`, map[string]any{"o": org, "p": id})
		if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"totalCount":2`) || !strings.Contains(string(g.Data), `"defaultRole":"READ"`) ||
			!strings.Contains(string(g.Data), `"ssoLogins":[{"id":"`+id) {
			t.Fatalf("GraphQL: %s %v", g.Data, g.Errors)
		}
		g = e.GraphQL(editor, `query($o: ID!) { organization(id: $o) { samlProviders { totalCount } } }`, map[string]any{"o": org})
		if g.Code() != "FORBIDDEN" {
			t.Fatalf("an editor lists providers: %s %v", g.Data, g.Errors)
		}
		g = e.GraphQL(admin, `mutation($o: ID!) { createSAMLProvider(organizationId: $o, input: {label: "GQL", ssoURL: "ftp://x"}) { id } }`, map[string]any{"o": org})
		if g.Code() != "BAD_REQUEST" && g.Code() != "INVALID" {
			t.Fatalf("a bad ssoURL on GraphQL: %v", g.Errors)
		}
	})
	t.Run("OKDelete", func(t *testing.T) {
		if r := e.Do(admin, "DELETE", base+"/"+id, nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		testenv.CheckError(t, e.Do(admin, "GET", base+"/"+id, nil), http.StatusNotFound)
		testenv.CheckError(t, e.Do(admin, "DELETE", base+"/"+id, nil), http.StatusNotFound)
	})
}

// TestSAMLProviderListStatements: a page of providers with their default teams costs the same
// statements for 2 providers as for 8.
func TestSAMLProviderListStatements(t *testing.T) {
	e := testenv.New(t)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	base := "/v1/orgs/" + org + "/saml"
	add := func(n int) {
		for range n {
			team := authCreated(t, e.Do(admin, "PUT", "/v1/orgs/"+org+"/teams", map[string]any{"title": "Team"}))
			authCreated(t, e.Raw(admin, "POST", base, "application/json", strings.NewReader(`{"label":"P","defaultTeam":"`+team+`"}`)))
		}
	}
	add(2)
	e.Raw(admin, "GET", base, "", nil) // the admin's memberships are cached after a first request
	few := e.Statements(func() { e.Raw(admin, "GET", base, "", nil) })
	add(6)
	many := e.Statements(func() { e.Raw(admin, "GET", base, "", nil) })
	if few != many {
		t.Fatalf("%d statements for 2 providers, %d for 8", few, many)
	}
}
