package rest_test

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/binderyhq/bindery/ent/event"
	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/oidctest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// oidcFixture is an organization with an admin and a team, an in-process OpenID Provider on
// 127.0.0.2 (allowed with --fetch-allow), and an OpenID Connect provider of the organization
// that trusts it.
type oidcFixture struct {
	*ssoFixture
	op       *oidctest.OP
	provider map[string]any
	id       string
	login    string
}

// grace is who signs in at the test provider, unless a test says otherwise.
var grace = oidctest.Person{Subject: "grace", Email: "Grace@Example.com", Name: "Grace Hopper", EmailVerified: true,
	Groups: []string{"WRITERS", "no such team"}}

func allowOP(o *server.Options) {
	allow, err := fetch.ParseAllow(oidctest.Addr)
	if err != nil {
		panic(err)
	}
	o.FetchAllow = allow
}

func newOIDCFixture(t *testing.T) *oidcFixture {
	t.Helper()
	e := testenv.New(t, allowOP)
	f := &oidcFixture{ssoFixture: &ssoFixture{e: e}, op: oidctest.New(t, grace)}
	f.admin, f.org = e.Bootstrap("ada@example.com", "Acme")
	f.team = authCreated(t, e.Do(f.admin, "PUT", "/v1/orgs/"+f.org+"/teams", map[string]any{"title": "Writers"}))
	r := e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/oidc-providers", map[string]any{"label": "Test OP", "issuer": f.op.Issuer,
		"clientId": f.op.ClientID, "clientSecret": f.op.ClientSecret, "scopes": []string{"email", "profile", "groups"},
		"emailDomains": []string{"Example.com"}, "groupsClaim": "groups", "defaultRole": "edit"})
	if r.Status != http.StatusCreated {
		t.Fatalf("create provider: %d %s", r.Status, r.Body)
	}
	f.provider = r.Map(t)
	f.id = f.provider["id"].(string)
	urls := f.provider["urls"].(map[string]any)
	f.login = urls["login"].(string)
	f.op.AllowRedirect(urls["callback"].(string))
	return f
}

// begin starts a sign-in at the provider's login URL and returns the callback URL the provider
// sent the browser back to (with its code and state), not yet visited.
func (b *browser) begin(login, returnTo string) string {
	b.t.Helper()
	status, body, h := b.do("GET", login+"?returnTo="+url.QueryEscape(returnTo), "", "", nil)
	if status != http.StatusFound || !strings.HasPrefix(h.Get("Location"), b.server+"/sso/oidc/") {
		b.t.Fatalf("begin: %d to %q %s", status, h.Get("Location"), body)
	}
	return h.Get("Location")
}

// oidcSignIn runs a whole sign-in and fails the test unless it ends at target with a session.
func (b *browser) oidcSignIn(login, target string) {
	b.t.Helper()
	status, body, h := b.do("GET", b.begin(login, target), "", "", nil)
	if status != http.StatusSeeOther || h.Get("Location") != target {
		b.t.Fatalf("callback: %d to %q (want 303 to %q) %s", status, h.Get("Location"), target, body)
	}
	if c := strings.Join(h.Values("Set-Cookie"), "\n"); !strings.Contains(c, "bindery_session=bds_") ||
		!strings.Contains(c, "HttpOnly") || !strings.Contains(c, "SameSite=Lax") {
		b.t.Fatalf("session cookie %q: want HttpOnly and SameSite=Lax", c)
	}
}

func (f *oidcFixture) me(t *testing.T, b *browser) map[string]any {
	t.Helper()
	status, body := b.me()
	r := testenv.Response{Status: status, Body: body}
	if status != http.StatusOK {
		t.Fatalf("GET /v1/user with the session: %d %s", status, body)
	}
	return r.Map(t)
}

func TestOIDCProviders(t *testing.T) {
	f := newOIDCFixture(t)
	path := "/v1/orgs/" + f.org + "/oidc-providers"

	t.Run("OKCreated", func(t *testing.T) {
		keys := make([]string, 0, len(f.provider))
		for k := range f.provider {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := "clientId createdAt defaultRole emailDomains groupsClaim id issuer label object scopes urls"
		if strings.Join(keys, " ") != want || f.provider["object"] != "oidc-provider" || f.provider["issuer"] != f.op.Issuer {
			t.Fatalf("created: %v", f.provider)
		}
		urls := f.provider["urls"].(map[string]any)
		if urls["login"] != f.e.Server.URL+"/sso/oidc/"+f.id+"/login" || urls["callback"] != f.e.Server.URL+"/sso/oidc/"+f.id+"/callback" {
			t.Fatalf("urls: %v", urls)
		}
		if got := f.provider["emailDomains"].([]any); len(got) != 1 || got[0] != "example.com" {
			t.Fatalf("emailDomains: %v", got)
		}
	})
	t.Run("OKSecretSealed", func(t *testing.T) {
		for _, r := range []testenv.Response{f.e.Do(f.admin, "GET", path, nil), f.e.Do(f.admin, "GET", path+"/"+f.id, nil)} {
			if r.Status != http.StatusOK || strings.Contains(string(r.Body), f.op.ClientSecret) || strings.Contains(string(r.Body), "ecret") {
				t.Fatalf("read: %d %s", r.Status, r.Body)
			}
		}
		row, err := f.e.Store.Client.OIDCProvider.Get(accounts.System(context.Background()), f.id)
		if err != nil || strings.Contains(string(row.SealedSecret), f.op.ClientSecret) {
			t.Fatalf("stored secret: %v (in clear: %v)", err, err == nil)
		}
	})
	t.Run("OKListedAndSignInEntry", func(t *testing.T) {
		if r := f.e.Do(f.admin, "GET", path, nil).Map(t); r["count"] != float64(1) {
			t.Fatalf("list: %v", r)
		}
		r := f.e.Do(testenv.Actor{}, "GET", "/v1/orgs/"+f.org+"/sso", nil)
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), f.login) {
			t.Fatalf("sign-in entries: %d %s", r.Status, r.Body)
		}
	})
	t.Run("OKPatched", func(t *testing.T) {
		r := f.e.Do(f.admin, "PATCH", path+"/"+f.id, map[string]any{"label": "Renamed", "groupsClaim": nil, "scopes": []string{"openid", "email"}})
		m := r.Map(t)
		if r.Status != http.StatusOK || m["label"] != "Renamed" || m["groupsClaim"] != nil || len(m["scopes"].([]any)) != 1 {
			t.Fatalf("patch: %d %s", r.Status, r.Body)
		}
		f.e.Do(f.admin, "PATCH", path+"/"+f.id, map[string]any{"label": "Test OP", "groupsClaim": "groups"})
	})
	t.Run("OKGraphQL", func(t *testing.T) {
		g := f.e.GraphQL(f.admin, `query($id: ID!) { organization(id: $id) { oidcProviders { totalCount edges { node { id clientId urls { callback } } } } } }`,
			map[string]any{"id": f.org})
		if len(g.Errors) > 0 || !strings.Contains(string(g.Data), f.id) {
			t.Fatalf("oidcProviders: %s %v", g.Data, g.Errors)
		}
		g = f.e.GraphQL(f.admin, `mutation($org: ID!) { createOIDCProvider(organizationId: $org, input: {label: "Second", issuer: "https://id.example.com", clientId: "c", clientSecret: "s"}) { id defaultRole scopes } }`,
			map[string]any{"org": f.org})
		if len(g.Errors) > 0 || !strings.Contains(string(g.Data), `"scopes":[]`) {
			t.Fatalf("createOIDCProvider: %s %v", g.Data, g.Errors)
		}
	})
	t.Run("OKEventsRecorded", func(t *testing.T) {
		n, err := f.e.Store.Client.Event.Query().Where(event.Type("sso.configuration_changed"), event.ObjectKind("oidc-provider")).
			Count(accounts.System(context.Background()))
		if err != nil || n < 3 {
			t.Fatalf("sso.configuration_changed events: %d, %v", n, err)
		}
	})

	bad := []struct {
		name string
		body map[string]any
		says string
	}{
		{"ErrMissingSecret", map[string]any{"label": "x", "issuer": "https://id.example.com", "clientId": "c"}, "clientSecret"},
		{"ErrPlainHTTPIssuer", map[string]any{"label": "x", "issuer": "http://id.example.com", "clientId": "c", "clientSecret": "s"}, "https"},
		{"ErrIssuerQuery", map[string]any{"label": "x", "issuer": "https://id.example.com/?a=b", "clientId": "c", "clientSecret": "s"}, "query"},
		{"ErrBadDomain", map[string]any{"label": "x", "issuer": "https://id.example.com", "clientId": "c", "clientSecret": "s", "emailDomains": []string{"not a domain"}}, "emailDomains[0]"},
		{"ErrBadScope", map[string]any{"label": "x", "issuer": "https://id.example.com", "clientId": "c", "clientSecret": "s", "scopes": []string{"a b"}}, "scopes[0]"},
		{"ErrLongLabel", map[string]any{"label": strings.Repeat("x", 31), "issuer": "https://id.example.com", "clientId": "c", "clientSecret": "s"}, "label"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			if says := testenv.CheckError(t, f.e.Do(f.admin, "POST", path, c.body), http.StatusBadRequest); !strings.Contains(says, c.says) {
				t.Fatalf("refusal %q does not name %q", says, c.says)
			}
		})
	}
	t.Run("ErrNotAdmin", func(t *testing.T) {
		editor := f.e.User("ed@example.com", f.org, testenv.Role("edit"))
		testenv.CheckError(t, f.e.Do(editor, "GET", path+"/"+f.id, nil), http.StatusForbidden)
		testenv.CheckError(t, f.e.Do(editor, "POST", path, map[string]any{"label": "x", "issuer": "https://id.example.com",
			"clientId": "c", "clientSecret": "s"}), http.StatusForbidden)
		g := f.e.GraphQL(editor, `mutation($org: ID!, $id: ID!) { deleteOIDCProvider(organizationId: $org, id: $id) }`,
			map[string]any{"org": f.org, "id": f.id})
		if g.Code() != "FORBIDDEN" {
			t.Fatalf("deleteOIDCProvider by an editor: %s %v", g.Data, g.Errors)
		}
	})
	t.Run("ErrOtherOrganization", func(t *testing.T) {
		other, otherOrg := f.e.Bootstrap("olga@other.example", "Other")
		testenv.CheckError(t, f.e.Do(other, "GET", "/v1/orgs/"+otherOrg+"/oidc-providers/"+f.id, nil), http.StatusNotFound)
		testenv.CheckError(t, f.e.Do(other, "PATCH", "/v1/orgs/"+otherOrg+"/oidc-providers/"+f.id, map[string]any{"label": "x"}), http.StatusNotFound)
		testenv.CheckError(t, f.e.Do(other, "DELETE", "/v1/orgs/"+otherOrg+"/oidc-providers/"+f.id, nil), http.StatusNotFound)
		testenv.CheckError(t, f.e.Do(other, "GET", path+"/"+f.id, nil), http.StatusNotFound)
	})
	t.Run("OKDeleted", func(t *testing.T) {
		b := f.browser(t)
		b.oidcSignIn(f.login, f.e.Server.URL+"/")
		if r := f.e.Do(f.admin, "DELETE", path+"/"+f.id, nil); r.Status != http.StatusNoContent {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		testenv.CheckError(t, f.e.Do(f.admin, "GET", path+"/"+f.id, nil), http.StatusNotFound)
		if status, body := b.me(); status != http.StatusUnauthorized {
			t.Fatalf("a session of a deleted provider: %d %s", status, body)
		}
	})
}

func TestOIDCSignIn(t *testing.T) {
	f := newOIDCFixture(t)
	home := f.e.Server.URL + "/"

	t.Run("OKFirstSignInCreatesMember", func(t *testing.T) {
		b := f.browser(t)
		b.oidcSignIn(f.login, f.e.Server.URL+"/v1/user")
		me := f.me(t, b)
		if me["email"] != "grace@example.com" || me["displayName"] != "Grace Hopper" {
			t.Fatalf("the signed-in user: %v", me)
		}
		m := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/members/"+me["id"].(string), nil).Map(t)
		if m["role"] != "edit" || m["sso"] != true {
			t.Fatalf("member after the first sign-in: %v", m)
		}
		roster := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/teams/"+f.team+"/members", nil)
		if !strings.Contains(string(roster.Body), me["id"].(string)) {
			t.Fatalf("the groups claim's WRITERS did not make them a member of team Writers: %s", roster.Body)
		}
		n, err := f.e.Store.Client.Event.Query().Where(event.Type("member.added"), event.ObjectID(me["id"].(string))).
			Count(accounts.System(context.Background()))
		if err != nil || n != 1 {
			t.Fatalf("member.added events: %d, %v", n, err)
		}
	})
	t.Run("OKSecondSignInUpdatesName", func(t *testing.T) {
		p := grace
		p.Name = "Grace B. Hopper"
		f.op.SetPerson(p)
		defer f.op.SetPerson(grace)
		b := f.browser(t)
		b.oidcSignIn(f.login, home)
		if me := f.me(t, b); me["displayName"] != "Grace B. Hopper" {
			t.Fatalf("after a second sign-in: %v", me)
		}
	})
	t.Run("OKKeysRotated", func(t *testing.T) {
		f.browser(t).oidcSignIn(f.login, home) // the keys are known
		f.op.Rotate()
		b := f.browser(t)
		b.oidcSignIn(f.login, home)
		f.me(t, b)
	})
	t.Run("OKClaimsAtUserinfo", func(t *testing.T) {
		f.op.KeepClaimsInUserinfo(true)
		defer f.op.KeepClaimsInUserinfo(false)
		p := grace
		p.Name = "Grace M. Hopper"
		f.op.SetPerson(p)
		defer f.op.SetPerson(grace)
		b := f.browser(t)
		b.oidcSignIn(f.login, home)
		if me := f.me(t, b); me["email"] != "grace@example.com" || me["displayName"] != "Grace M. Hopper" {
			t.Fatalf("signed in with the claims of the userinfo endpoint: %v", me)
		}
	})
	t.Run("OKOrganizationDefaultRole", func(t *testing.T) {
		if r := f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, map[string]any{"defaultRole": "read"}); r.Status != http.StatusOK {
			t.Fatalf("org default role: %d %s", r.Status, r.Body)
		}
		f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org+"/oidc-providers/"+f.id, map[string]any{"defaultRole": nil})
		f.op.SetPerson(oidctest.Person{Subject: "lin", Email: "lin@example.com", Name: "Lin", EmailVerified: true})
		defer f.op.SetPerson(grace)
		b := f.browser(t)
		b.oidcSignIn(f.login, home)
		me := f.me(t, b)
		if m := f.e.Do(f.admin, "GET", "/v1/orgs/"+f.org+"/members/"+me["id"].(string), nil).Map(t); m["role"] != "read" {
			t.Fatalf("a member joining through a provider without a default role: %v", m)
		}
	})
	t.Run("OKSSOEnforced", func(t *testing.T) {
		if r := f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, map[string]any{"sso": true}); r.Status != http.StatusOK {
			t.Fatalf("enforce SSO: %d %s", r.Status, r.Body)
		}
		defer f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org, map[string]any{"sso": false})
		b := f.browser(t)
		b.oidcSignIn(f.login, home)
		if status, body, _ := b.do("GET", "/v1/orgs/"+f.org, "", "", nil); status != http.StatusOK {
			t.Fatalf("an OIDC session of an organization enforcing SSO: %d %s", status, body)
		}
	})
	t.Run("OKSignOutAtProvider", func(t *testing.T) {
		f.op.AllowRedirect(home) // registered as a post-logout redirect URI
		b := f.browser(t)
		b.oidcSignIn(f.login, home)
		status, body, h := b.do("POST", "/sso/logout", f.e.Server.URL, "", nil)
		// the browser followed to the provider, which ended its session and sent it back home
		if status != http.StatusFound || h.Get("Location") != home {
			t.Fatalf("sign-out: %d to %q %s", status, h.Get("Location"), body)
		}
		if status, _ := b.me(); status != http.StatusUnauthorized {
			t.Fatalf("after sign-out: %d", status)
		}
		b.oidcSignIn(f.login, home)
		b.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		status, _, h = b.do("POST", "/sso/logout", f.e.Server.URL, "", nil)
		to, _ := url.Parse(h.Get("Location"))
		if status != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), f.op.Issuer+"/") ||
			to.Query().Get("client_id") != f.op.ClientID || to.Query().Get("post_logout_redirect_uri") != home {
			t.Fatalf("sign-out: %d to %q", status, h.Get("Location"))
		}
	})

	refusals := []struct {
		name   string
		run    func(t *testing.T) (int, []byte)
		status int
		says   string
	}{
		{"ErrWrongState", func(t *testing.T) (int, []byte) {
			b := f.browser(t)
			cb, _ := url.Parse(b.begin(f.login, home))
			q := cb.Query()
			q.Set("state", "forged")
			cb.RawQuery = q.Encode()
			status, body, _ := b.do("GET", cb.String(), "", "", nil)
			return status, body
		}, http.StatusUnauthorized, "state"},
		{"ErrAnotherBrowser", func(t *testing.T) (int, []byte) {
			cb := f.browser(t).begin(f.login, home)
			status, body, _ := f.browser(t).do("GET", cb, "", "", nil)
			return status, body
		}, http.StatusUnauthorized, "under way in this browser"},
		{"ErrTamperedStateCookie", func(t *testing.T) (int, []byte) {
			b := f.browser(t)
			cb := b.begin(f.login, home)
			u, _ := url.Parse(cb)
			c := b.client.Jar.Cookies(u)[0]
			flip := map[bool]string{true: "B", false: "A"}[c.Value[10] == 'A']
			c.Value = c.Value[:10] + flip + c.Value[11:] // a byte of the sealed nonce
			c.Path = "/sso/oidc/" + f.id + "/"           // replacing the cookie the server set
			b.client.Jar.SetCookies(u, []*http.Cookie{c})
			status, body, _ := b.do("GET", cb, "", "", nil)
			return status, body
		}, http.StatusUnauthorized, "under way in this browser"},
		{"ErrStateOfAnotherProvider", func(t *testing.T) (int, []byte) {
			other := authCreated(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/oidc-providers", map[string]any{"label": "Twin",
				"issuer": f.op.Issuer, "clientId": f.op.ClientID, "clientSecret": f.op.ClientSecret, "emailDomains": []string{"example.com"}}))
			b := f.browser(t)
			cb, _ := url.Parse(b.begin(f.login, home))
			twin := *cb
			twin.Path = "/sso/oidc/" + other + "/callback"
			b.client.Jar.SetCookies(&twin, b.client.Jar.Cookies(cb)) // the state sealed for the first provider
			status, body, _ := b.do("GET", twin.String(), "", "", nil)
			return status, body
		}, http.StatusUnauthorized, "under way in this browser"},
		{"ErrReplayedCode", func(t *testing.T) (int, []byte) {
			b := f.browser(t)
			cb := b.begin(f.login, home)
			u, _ := url.Parse(cb)
			kept := b.client.Jar.Cookies(u)
			if status, body, _ := b.do("GET", cb, "", "", nil); status != http.StatusSeeOther {
				t.Fatalf("first use of the code: %d %s", status, body)
			}
			b.client.Jar.SetCookies(u, kept) // even with the state cookie back, the code is spent
			status, body, _ := b.do("GET", cb, "", "", nil)
			return status, body
		}, http.StatusUnauthorized, "refused the code"},
		{"ErrNonceMismatch", f.tampered(func(c map[string]any) bool { c["nonce"] = "another"; return false }), http.StatusUnauthorized, "nonce"},
		{"ErrExpiredIDToken", f.tampered(func(c map[string]any) bool {
			c["exp"] = time.Now().Add(-time.Hour).Unix()
			return false
		}), http.StatusUnauthorized, "expired"},
		{"ErrUnsignedIDToken", f.tampered(func(map[string]any) bool { return true }), http.StatusUnauthorized, "ID token"},
		{"ErrWrongAudience", f.tampered(func(c map[string]any) bool { c["aud"] = []string{"someone-else"}; return false }), http.StatusUnauthorized, "audience"},
		{"ErrIssuerMismatch", f.tampered(func(c map[string]any) bool { c["iss"] = "http://127.0.0.2:1"; return false }), http.StatusUnauthorized, "issued by a different provider"},
		{"ErrEmailDomain", f.as(oidctest.Person{Subject: "eve", Email: "eve@evil.example.org", Name: "Eve", EmailVerified: true}),
			http.StatusUnauthorized, "evil.example.org"},
		{"ErrUnverifiedEmail", f.tampered(func(c map[string]any) bool { c["email_verified"] = false; return false }),
			http.StatusUnauthorized, "not verified"},
		{"ErrVerificationUnsaidWithoutDomains", func(t *testing.T) (int, []byte) {
			path := "/v1/orgs/" + f.org + "/oidc-providers/" + f.id
			f.e.Do(f.admin, "PATCH", path, map[string]any{"emailDomains": []string{}})
			defer f.e.Do(f.admin, "PATCH", path, map[string]any{"emailDomains": []string{"example.com"}})
			return f.tampered(func(c map[string]any) bool { delete(c, "email_verified"); return false })(t)
		}, http.StatusUnauthorized, "email_verified"},
		{"ErrProviderError", func(t *testing.T) (int, []byte) {
			b := f.browser(t)
			b.begin(f.login, home)
			status, body, _ := b.do("GET", "/sso/oidc/"+f.id+"/callback?error=access_denied&error_description=no", "", "", nil)
			return status, body
		}, http.StatusUnauthorized, "access_denied"},
		{"ErrUnknownProvider", func(t *testing.T) (int, []byte) {
			status, body, _ := f.browser(t).do("GET", "/sso/oidc/nosuchprovider/login", "", "", nil)
			return status, body
		}, http.StatusNotFound, "nosuchprovider"},
		{"ErrReturnToElsewhere", func(t *testing.T) (int, []byte) {
			status, body, _ := f.browser(t).do("GET", f.login+"?returnTo="+url.QueryEscape("https://evil.example.org/"), "", "", nil)
			return status, body
		}, http.StatusBadRequest, "returnTo: must be a path of this server"},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			status, body := c.run(t)
			says := testenv.CheckError(t, testenv.Response{Status: status, Body: body}, c.status)
			if !strings.Contains(says, c.says) {
				t.Fatalf("refusal %q does not say %q", says, c.says)
			}
		})
	}
}

// tampered runs a sign-in whose ID token the provider changes with f.
func (f *oidcFixture) tampered(change func(map[string]any) bool) func(t *testing.T) (int, []byte) {
	return func(t *testing.T) (int, []byte) {
		b := f.browser(t)
		cb := b.begin(f.login, f.e.Server.URL+"/")
		f.op.Tamper(change)
		status, body, h := b.do("GET", cb, "", "", nil)
		if strings.Contains(strings.Join(h.Values("Set-Cookie"), " "), "bindery_session=bds_") {
			t.Fatal("a refused sign-in set a session cookie")
		}
		return status, body
	}
}

// as runs a sign-in of another person.
func (f *oidcFixture) as(p oidctest.Person) func(t *testing.T) (int, []byte) {
	return func(t *testing.T) (int, []byte) {
		f.op.SetPerson(p)
		defer f.op.SetPerson(grace)
		b := f.browser(t)
		status, body, _ := b.do("GET", b.begin(f.login, f.e.Server.URL+"/"), "", "", nil)
		return status, body
	}
}

func TestOIDCProviderDown(t *testing.T) {
	e := testenv.New(t, allowOP)
	admin, org := e.Bootstrap("ada@example.com", "Acme")
	down := oidctest.New(t, grace)
	issuer := down.Issuer
	down.Server.Close()
	p := e.Do(admin, "POST", "/v1/orgs/"+org+"/oidc-providers", map[string]any{"label": "Down", "issuer": issuer, "clientId": "c", "clientSecret": "s"}).Map(t)
	f := &ssoFixture{e: e}
	start := time.Now()
	status, body, _ := f.browser(t).do("GET", p["urls"].(map[string]any)["login"].(string), "", "", nil)
	says := testenv.CheckError(t, testenv.Response{Status: status, Body: body}, http.StatusUnauthorized)
	if !strings.Contains(says, "discovery") || time.Since(start) > 15*time.Second {
		t.Fatalf("a provider that is down: %q after %v", says, time.Since(start))
	}
}
