package rest_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/crewjam/saml"

	"github.com/binderyhq/bindery/ent/viewer"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/ssotest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// ssoFixture is an organization with an admin, a team, an in-process identity provider and an
// active SAML provider of the organization that trusts it.
type ssoFixture struct {
	e          *testenv.Env
	admin      testenv.Actor
	org, team  string
	idp        *ssotest.IdP
	provider   map[string]any
	providerID string
}

func newSSOFixture(t *testing.T, opts ...func(*server.Options)) *ssoFixture {
	t.Helper()
	e := testenv.New(t, opts...)
	f := &ssoFixture{e: e, idp: ssotest.New(t)}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.team = authCreated(t, e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/teams", map[string]any{"title": "Newcomers"}))
	r := e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/saml", map[string]any{"label": "Test IdP", "entityID": f.idp.EntityID(),
		"ssoURL": f.idp.SSOURL(), "certificate": f.idp.Signing.CertPEM, "defaultTeam": f.team, "defaultRole": "edit"})
	if r.Status != http.StatusCreated {
		t.Fatalf("create provider: %d %s", r.Status, r.Body)
	}
	f.provider = r.Map(t)
	f.providerID = f.provider["id"].(string)
	return f
}

// browser is a person's browser: a cookie jar, following redirects except to the app after sign-in.
type browser struct {
	t      *testing.T
	client *http.Client
	server string
}

func (f *ssoFixture) browser(t *testing.T) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	server := f.e.Server.URL
	client := &http.Client{Jar: jar, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if strings.HasPrefix(req.URL.String(), server) {
			return http.ErrUseLastResponse // back at Bindery: the test looks at where it was sent
		}
		return nil
	}}
	return &browser{t: t, client: client, server: server}
}

// do sends a request with the browser's cookies and an Origin header (none when origin is empty).
func (b *browser) do(method, path, origin, contentType string, body io.Reader) (int, []byte, http.Header) {
	b.t.Helper()
	target := path
	if strings.HasPrefix(path, "/") {
		target = b.server + path
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	out, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	return res.StatusCode, out, res.Header
}

// start begins a sign-in at the provider's start URL and returns the IdP's answer form.
func (b *browser) start(startURL, relayState string) ssotest.Form {
	b.t.Helper()
	u := startURL
	if relayState != "" {
		u += "?RelayState=" + url.QueryEscape(relayState)
	}
	status, page, _ := b.do("GET", u, "", "", nil)
	if status != http.StatusOK {
		b.t.Fatalf("start: the identity provider answered %d %s", status, page)
	}
	return ssotest.ParseForm(b.t, page)
}

// post posts an answer form to action, as the IdP's page does.
func (b *browser) post(action string, values url.Values) (int, []byte, http.Header) {
	b.t.Helper()
	return b.do("POST", action, "", "application/x-www-form-urlencoded", strings.NewReader(values.Encode()))
}

// signIn runs a whole sign-in and fails the test unless it ends at target with a session.
func (b *browser) signIn(startURL, relayState, target string) {
	b.t.Helper()
	form := b.start(startURL, relayState)
	status, body, h := b.post(form.Action, form.Values)
	if status != http.StatusSeeOther || h.Get("Location") != target {
		b.t.Fatalf("sign-in: %d to %q (want 303 to %q) %s", status, h.Get("Location"), target, body)
	}
	if c := h.Get("Set-Cookie"); !strings.Contains(c, "HttpOnly") || !strings.Contains(c, "SameSite=Lax") {
		b.t.Fatalf("session cookie %q: want HttpOnly and SameSite=Lax", c)
	}
}

// me returns GET /v1/user with the browser's session.
func (b *browser) me() (int, []byte) {
	status, body, _ := b.do("GET", "/v1/user", "", "", nil)
	return status, body
}

func TestSSOLogin(t *testing.T) {
	f := newSSOFixture(t)
	service := f.provider["service"].(map[string]any)
	start, acs := service["startURL"].(string), service["acsURL"].(string)
	f.idp.SignIn("Bea@Example.com", "Bea Hart")

	t.Run("OKFirstLoginCreatesMember", func(t *testing.T) {
		b := f.browser(t)
		b.signIn(start, "/v1/user", f.e.Server.URL+"/v1/user")
		status, body := b.me()
		if status != http.StatusOK || !strings.Contains(string(body), `"email":"bea@example.com"`) || !strings.Contains(string(body), `"displayName":"Bea Hart"`) {
			t.Fatalf("GET /v1/user with the session: %d %s", status, body)
		}
		var u struct{ ID string }
		testenv.Response{Status: status, Body: body}.JSON(t, &u)
		m := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/members/"+u.ID, nil).Map(t)
		if m["role"] != "edit" || m["sso"] != true || m["lastSeenAt"] == nil {
			t.Fatalf("member after the first sign-in: %v", m)
		}
		roster := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/teams/"+f.team+"/members", nil)
		if !strings.Contains(string(roster.Body), u.ID) {
			t.Fatalf("the default team lacks the new member: %s", roster.Body)
		}
	})
	t.Run("OKSecondLoginFindsThem", func(t *testing.T) {
		before := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/members", nil).Map(t)["count"]
		b := f.browser(t)
		b.signIn(start, "", f.e.Server.URL+"/")
		if status, body := b.me(); status != http.StatusOK || !strings.Contains(string(body), "bea@example.com") {
			t.Fatalf("second sign-in: %d %s", status, body)
		}
		if after := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/members", nil).Map(t)["count"]; after != before {
			t.Fatalf("members: %v before, %v after a second sign-in", before, after)
		}
	})
	t.Run("OKExistingUserJoins", func(t *testing.T) {
		f.e.User("cy@example.com", "", nil) // a user of the server, of no organization
		f.idp.SignIn("cy@example.com", "")
		defer f.idp.SignIn("Bea@Example.com", "Bea Hart")
		b := f.browser(t)
		b.signIn(start, "", f.e.Server.URL+"/")
		if status, body, _ := b.do("GET", "/v1/orgs/"+f.org, "", "", nil); status != http.StatusOK {
			t.Fatalf("the organization with the new member's session: %d %s", status, body)
		}
	})

	failures := []struct {
		name   string
		setup  func(t *testing.T) (action string, values url.Values)
		status int
		says   string
	}{
		{"ErrWrongCertificate", func(t *testing.T) (string, url.Values) {
			signing := f.idp.Signing
			f.idp.SignWith(ssotest.NewKeyPair(t, time.Now().Add(-time.Hour), time.Now().Add(time.Hour)))
			defer f.idp.SignWith(signing)
			form := f.browser(t).start(start, "")
			return form.Action, form.Values
		}, http.StatusUnauthorized, "signature"},
		{"ErrTamperedAssertion", func(t *testing.T) (string, url.Values) {
			form := f.browser(t).start(start, "")
			doc, _ := base64.StdEncoding.DecodeString(form.Values.Get("SAMLResponse"))
			forged := strings.ReplaceAll(string(doc), "Bea@Example.com", "Ada@Example.com")
			if forged == string(doc) {
				t.Fatal("the answer does not name the person")
			}
			form.Values.Set("SAMLResponse", base64.StdEncoding.EncodeToString([]byte(forged)))
			return form.Action, form.Values
		}, http.StatusUnauthorized, "signature"},
		{"ErrWrongAudience", func(t *testing.T) (string, url.Values) {
			f.idp.Tamper(func(a *saml.Assertion) {
				a.Conditions.AudienceRestrictions[0].Audience.Value = "https://elsewhere.example.com/metadata"
			})
			defer f.idp.Tamper(nil)
			form := f.browser(t).start(start, "")
			return form.Action, form.Values
		}, http.StatusUnauthorized, "audience"},
		{"ErrExpiredAssertion", func(t *testing.T) (string, url.Values) {
			f.idp.Tamper(func(a *saml.Assertion) {
				past := time.Now().Add(-time.Hour)
				a.IssueInstant, a.Conditions.NotBefore, a.Conditions.NotOnOrAfter = past.Add(-time.Minute), past.Add(-time.Minute), past
				a.Subject.SubjectConfirmations[0].SubjectConfirmationData.NotOnOrAfter = past
			})
			defer f.idp.Tamper(nil)
			form := f.browser(t).start(start, "")
			return form.Action, form.Values
		}, http.StatusUnauthorized, "expired"},
		{"ErrReplay", func(t *testing.T) (string, url.Values) {
			b := f.browser(t)
			form := b.start(start, "")
			if status, body, _ := b.post(form.Action, form.Values); status != http.StatusSeeOther {
				t.Fatalf("first use: %d %s", status, body)
			}
			return form.Action, form.Values
		}, http.StatusUnauthorized, "replayed"},
		{"ErrUnknownProvider", func(t *testing.T) (string, url.Values) {
			form := f.browser(t).start(start, "")
			return strings.Replace(form.Action, f.providerID, "nosuchprovider", 1), form.Values
		}, http.StatusNotFound, "no active SAML provider"},
		{"ErrUnsolicited", func(t *testing.T) (string, url.Values) {
			form := f.browser(t).start(start, "")
			// Sign-in requests wait 10 minutes: answer one that no longer waits.
			f.e.Store.Client.SAMLRequest.Delete().ExecX(system())
			return form.Action, form.Values
		}, http.StatusUnauthorized, "answers no sign-in"},
		{"ErrGarbage", func(t *testing.T) (string, url.Values) {
			return acs, url.Values{"SAMLResponse": {base64.StdEncoding.EncodeToString([]byte("<Response/>"))}}
		}, http.StatusUnauthorized, "refused"},
		{"ErrNotBase64", func(t *testing.T) (string, url.Values) {
			return acs, url.Values{"SAMLResponse": {"%%%"}}
		}, http.StatusBadRequest, "base64"},
		{"ErrForeignRelayState", func(t *testing.T) (string, url.Values) {
			form := f.browser(t).start(start, "")
			form.Values.Set("RelayState", "https://evil.example.com/")
			return form.Action, form.Values
		}, http.StatusBadRequest, "RelayState"},
	}
	for _, c := range failures {
		t.Run(c.name, func(t *testing.T) {
			action, values := c.setup(t)
			b := f.browser(t)
			status, body, h := b.post(action, values)
			msg := testenv.CheckError(t, testenv.Response{Status: status, Body: body}, c.status)
			if !strings.Contains(msg, c.says) {
				t.Errorf("message %q does not say %q", msg, c.says)
			}
			if h.Get("Set-Cookie") != "" {
				t.Errorf("a failed sign-in set a cookie: %s", h.Get("Set-Cookie"))
			}
			if status, _ := b.me(); status != http.StatusUnauthorized {
				t.Errorf("after a failed sign-in GET /v1/user answered %d, want 401", status)
			}
		})
	}
	t.Run("ErrStartRelayStateElsewhere", func(t *testing.T) {
		status, body, _ := f.browser(t).do("GET", start+"?RelayState="+url.QueryEscape("//evil.example.com/x"), "", "", nil)
		testenv.CheckError(t, testenv.Response{Status: status, Body: body}, http.StatusBadRequest)
	})
}

func TestSSOSessions(t *testing.T) {
	f := newSSOFixture(t)
	start := f.provider["service"].(map[string]any)["startURL"].(string)
	f.idp.SignIn("bea@example.com", "Bea")
	b := f.browser(t)
	b.signIn(start, "", f.e.Server.URL+"/")
	own := f.e.Server.URL

	t.Run("ErrWriteWithoutOrigin", func(t *testing.T) {
		status, out, _ := b.do("POST", "/v1/orgs/"+f.org+"/ping", "", "application/json", nil)
		if msg := testenv.CheckError(t, testenv.Response{Status: status, Body: out}, http.StatusForbidden); !strings.Contains(msg, "Origin") {
			t.Fatalf("refusal: %s", msg)
		}
	})
	t.Run("ErrWriteFromOtherOrigin", func(t *testing.T) {
		status, out, _ := b.do("POST", "/graphql", "https://evil.example.com", "application/json",
			strings.NewReader(`{"query":"mutation { createAPIToken(input: {}) { token } }"}`))
		testenv.CheckError(t, testenv.Response{Status: status, Body: out}, http.StatusForbidden)
	})
	t.Run("OKWriteFromOwnOrigin", func(t *testing.T) {
		status, out, _ := b.do("POST", "/v1/orgs/"+f.org+"/ping", own, "application/json", nil)
		if status != http.StatusOK {
			t.Fatalf("a write with the session from the server's origin: %d %s", status, out)
		}
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		status, out, _ := b.do("POST", "/graphql", own, "application/json", strings.NewReader(`{"query":"{ viewer { email } }"}`))
		if status != http.StatusOK || !strings.Contains(string(out), "bea@example.com") {
			t.Fatalf("GraphQL with the session: %d %s", status, out)
		}
	})
	t.Run("OKPersonalTokens", func(t *testing.T) {
		status, out, _ := b.do("POST", "/v1/user/tokens", own, "application/json", strings.NewReader(`{"label":"CI"}`))
		if status != http.StatusCreated {
			t.Fatalf("create a token: %d %s", status, out)
		}
		var created struct{ ID, Label, Token string }
		testenv.Response{Body: out}.JSON(t, &created)
		f.e.Spec.ValidateSchema(t, "UserAPITokenExtended", out)
		bea := testenv.Actor{Token: created.Token}
		if r := f.e.Do(bea, "GET", "/v1/user", nil); r.Status != http.StatusOK {
			t.Fatalf("the new token: %d %s", r.Status, r.Body)
		}
		list := f.e.Do(bea, "GET", "/v1/user/tokens", nil)
		if strings.Contains(string(list.Body), created.Token) || !strings.Contains(string(list.Body), created.ID) {
			t.Fatalf("token list: %s", list.Body)
		}
		if strings.Contains(string(f.e.Do(f.admin, "GET", "/v1/user/tokens", nil).Body), created.ID) {
			t.Fatal("another user lists the token")
		}
		testenv.CheckError(t, f.e.Do(f.admin, "DELETE", "/v1/user/tokens/"+created.ID, nil), http.StatusNotFound)
		if r := f.e.Do(bea, "DELETE", "/v1/user/tokens/"+created.ID, nil); r.Status != http.StatusNoContent {
			t.Fatalf("revoke: %d %s", r.Status, r.Body)
		}
		testenv.CheckError(t, f.e.Do(bea, "GET", "/v1/user", nil), http.StatusUnauthorized)
	})
	t.Run("OKSessionCostsWhatATokenCosts", func(t *testing.T) {
		b.me() // the memberships are cached after a user's first request, as for tokens
		viaSession := f.e.Statements(func() { b.me() })
		status, out, _ := b.do("POST", "/v1/user/tokens", own, "application/json", strings.NewReader(`{}`))
		if status != http.StatusCreated {
			t.Fatalf("create a token: %d %s", status, out)
		}
		var created struct{ Token string }
		testenv.Response{Body: out}.JSON(t, &created)
		bea := testenv.Actor{Token: created.Token}
		viaToken := f.e.Statements(func() { f.e.Do(bea, "GET", "/v1/user", nil) })
		if viaSession != viaToken || viaSession > 2 {
			t.Fatalf("GET /v1/user: %d statements with the session, %d with a token (want equal, at most 2)", viaSession, viaToken)
		}
	})
	t.Run("ErrSSOEnforcedElsewhere", func(t *testing.T) {
		// Bea also belongs to a second organization that enforces SSO through its own provider.
		other, otherOrg := f.e.Bootstrap("zed@zeta.io", "Zeta")
		me := f.e.Do(testenv.Actor{Token: f.admin.Token}, "GET", "/v1/orgs/"+f.org+"/members?limit=100", nil)
		var ms struct {
			Items []struct{ User struct{ ID, Email string } }
		}
		me.JSON(t, &ms)
		var beaID string
		for _, m := range ms.Items {
			if m.User.Email == "bea@example.com" {
				beaID = m.User.ID
			}
		}
		ctx := system()
		f.e.Store.Client.Member.Create().SetOrganizationID(otherOrg).SetUserID(beaID).SetRole(viewer.RoleRead).ExecX(ctx)
		idp := ssotest.New(t)
		p := f.e.Do(other, "POST", "/v1/orgs/"+otherOrg+"/saml", map[string]any{"label": "Zeta IdP", "entityID": idp.EntityID(),
			"ssoURL": idp.SSOURL(), "certificate": idp.Signing.CertPEM}).Map(t)
		if status, out := b.me(); status != http.StatusOK {
			t.Fatalf("before enforcement: %d %s", status, out)
		}
		// The session began through Acme's provider: it reads Acme only, enforcing or not (an
		// organization's admin configures its provider, and vouches for people to it alone).
		status, out, _ := b.do("GET", "/v1/orgs/"+otherOrg, "", "", nil)
		if msg := testenv.CheckError(t, testenv.Response{Status: status, Body: out}, http.StatusForbidden); !strings.Contains(msg, "another organization's single sign-on") ||
			!strings.Contains(msg, p["service"].(map[string]any)["startURL"].(string)) {
			t.Fatalf("the other organization before enforcement: %s", msg)
		}
		space := authCreated(t, f.e.Do(other, "POST", "/v1/orgs/"+otherOrg+"/spaces", map[string]any{"title": "Zeta docs"}))
		f.e.Do(other, "PATCH", "/v1/orgs/"+otherOrg, map[string]any{"sso": true})
		status, out, _ = b.do("GET", "/v1/spaces/"+space, "", "", nil)
		if msg := testenv.CheckError(t, testenv.Response{Status: status, Body: out}, http.StatusForbidden); !strings.Contains(msg, "single sign-on") {
			t.Fatalf("a space of the organization: %s", msg)
		}
		status, out, _ = b.do("GET", "/v1/spaces/nosuchspace", "", "", nil)
		testenv.CheckError(t, testenv.Response{Status: status, Body: out}, http.StatusNotFound)
		status, out, _ = b.do("GET", "/v1/orgs/"+otherOrg, "", "", nil)
		msg := testenv.CheckError(t, testenv.Response{Status: status, Body: out}, http.StatusForbidden)
		if !strings.Contains(msg, p["service"].(map[string]any)["startURL"].(string)) {
			t.Fatalf("the refusal does not name the start URL: %s", msg)
		}
		if status, _, _ := b.do("GET", "/v1/orgs/"+f.org, "", "", nil); status != http.StatusOK {
			t.Fatalf("the session's own organization: %d", status)
		}
		f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, map[string]any{"sso": true})
		if status, _, _ := b.do("GET", "/v1/orgs/"+f.org, "", "", nil); status != http.StatusOK {
			t.Fatalf("the session's own organization enforcing SSO: %d", status)
		}
		token := f.e.User("bea2@example.com", otherOrg, testenv.Role(viewer.RoleRead))
		if r := f.e.Do(token, "GET", "/v1/orgs/"+otherOrg, nil); r.Status != http.StatusOK {
			t.Fatalf("an API token on an organization enforcing SSO: %d %s", r.Status, r.Body)
		}
	})
	t.Run("OKLogout", func(t *testing.T) {
		status, out, _ := b.do("POST", "/sso/logout", "", "", nil)
		testenv.CheckError(t, testenv.Response{Status: status, Body: out}, http.StatusForbidden)
		if status, out, _ := b.do("POST", "/sso/logout", own, "", nil); status != http.StatusNoContent {
			t.Fatalf("logout: %d %s", status, out)
		}
		if status, _ := b.me(); status != http.StatusUnauthorized {
			t.Fatalf("after logout: %d", status)
		}
	})
}
