package publish_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/binderyhq/bindery/ent"
	"github.com/binderyhq/bindery/ent/site"
	"github.com/binderyhq/bindery/internal/accounts"
	fetchpkg "github.com/binderyhq/bindery/internal/fetch"
	"github.com/binderyhq/bindery/internal/server"
	"github.com/binderyhq/bindery/internal/testkit/fetchtest"
	"github.com/binderyhq/bindery/internal/testkit/oidctest"
	"github.com/binderyhq/bindery/internal/testkit/testenv"
)

// grace signs in at the test provider unless a test says otherwise.
var grace = oidctest.Person{Subject: "grace", Email: "grace@example.com", Name: "Grace Hopper", EmailVerified: true,
	Groups: []string{"writers"}}

func allowOP(o *server.Options) {
	allow, err := fetchpkg.ParseAllow(oidctest.Addr)
	if err != nil {
		panic(err)
	}
	o.FetchAllow = allow
}

// signInFixture is a visitor-auth site (acme) whose readers sign in through an OpenID Connect
// provider of its organization, an in-process OpenID Provider, with a page for grace only
// (`visitor.claims.email`, mapped from the ID token's email).
type signInFixture struct {
	*siteFixture
	op       *oidctest.OP
	provider string
	auth     string // the site's …/publishing/auth
}

func newSignInFixture(t *testing.T) *signInFixture {
	t.Helper()
	f := &signInFixture{siteFixture: newSiteFixture(t, allowOP), op: oidctest.New(t, grace)}
	f.write(t, page("Grace only", "For Grace.", "condition", `visitor.claims.email == "grace@example.com"`))
	schema := betaSchema()
	schema["properties"].(map[string]any)["email"] = map[string]any{"type": "string", "description": "The reader's email."}
	f.setSite(t, func(u *ent.SiteUpdateOne) {
		u.SetPublished(true).SetBasename("acme").SetVisibility(site.VisibilityVisitorAuth).SetAdaptiveSchema(schema)
	})
	f.provider = f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/oidc-providers", map[string]any{"label": "Test OP",
		"issuer": f.op.Issuer, "clientId": f.op.ClientID, "clientSecret": f.op.ClientSecret, "scopes": []string{"email", "profile", "groups"}}))
	f.auth = "/v1/orgs/" + f.org + "/sites/" + f.site + "/publishing/auth"
	r := f.e.Do(f.admin, "PATCH", f.auth, map[string]any{"oidc": map[string]any{"providerId": f.provider,
		"claims": map[string]any{"email": "email", "groups": "teams"}}})
	if r.Status != http.StatusOK {
		t.Fatalf("set the site's sign-in: %d %s", r.Status, r.Body)
	}
	for _, cb := range r.Map(t)["oidc"].(map[string]any)["callbackURLs"].([]any) {
		f.op.AllowRedirect(cb.(string))
	}
	return f
}

// visitor is a browser with a cookie jar: it follows the provider's redirects and stops at
// Bindery's (the test follows those), and it reaches hosts of the test server's port (a site's
// hostname) at the test server.
type visitor struct {
	t      *testing.T
	client *http.Client
	jar    *cookiejar.Jar
	server *url.URL
}

func (f *signInFixture) visitor(t *testing.T) *visitor {
	jar, _ := cookiejar.New(nil)
	server, _ := url.Parse(f.e.Server.URL)
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	transport := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if _, port, _ := net.SplitHostPort(addr); port == server.Port() {
			addr = server.Host
		}
		return dialer.DialContext(ctx, network, addr)
	}}
	t.Cleanup(transport.CloseIdleConnections)
	client := &http.Client{Jar: jar, Transport: transport, CheckRedirect: func(req *http.Request, _ []*http.Request) error {
		if req.URL.Port() == server.Port() {
			return http.ErrUseLastResponse
		}
		return nil
	}}
	return &visitor{t: t, client: client, jar: jar, server: server}
}

// get fetches a URL (a path: at the test server) and returns the status, the body and the
// headers.
func (v *visitor) get(target string) (int, string, http.Header) {
	v.t.Helper()
	return v.do("GET", target, "")
}

func (v *visitor) do(method, target, origin string) (int, string, http.Header) {
	v.t.Helper()
	if strings.HasPrefix(target, "/") {
		target = v.server.String() + target
	}
	req, err := http.NewRequest(method, target, nil)
	if err != nil {
		v.t.Fatal(err)
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	res, err := v.client.Do(req)
	if err != nil {
		v.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// toProvider asks for a page and returns the callback URL the provider sent the browser back to
// (with its code and state), not yet visited.
func (v *visitor) toProvider(target string) string {
	v.t.Helper()
	status, body, h := v.get(target)
	if status != http.StatusFound || !strings.Contains(h.Get("Location"), "/~signin/callback?") {
		v.t.Fatalf("an anonymous reader of %s: %d to %q %s", target, status, h.Get("Location"), body)
	}
	return h.Get("Location")
}

// signIn runs a whole sign-in from a page and returns the cookie the callback set.
func (v *visitor) signIn(target string) string {
	v.t.Helper()
	status, body, h := v.get(v.toProvider(target))
	want := target
	if u, err := url.Parse(target); err == nil && u.Host != "" {
		want = u.Path
	}
	if status != http.StatusSeeOther || h.Get("Location") != want {
		v.t.Fatalf("callback: %d to %q (want %q) %s", status, h.Get("Location"), want, body)
	}
	cookie := strings.Join(h.Values("Set-Cookie"), "\n")
	if !strings.Contains(cookie, "bindery_visitor_token=") || !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Lax") {
		v.t.Fatalf("the site's cookie: %q", cookie)
	}
	return cookie
}

func TestSiteSignIn(t *testing.T) {
	f := newSignInFixture(t)

	t.Run("ErrSettings", func(t *testing.T) {
		olga, otherOrg := f.e.Bootstrap("olga@other.example", "Other")
		foreign := f.created(t, f.e.Do(olga, "POST", "/v1/orgs/"+otherOrg+"/oidc-providers", map[string]any{"label": "Theirs",
			"issuer": f.op.Issuer, "clientId": "c", "clientSecret": "s"}))
		bad := []struct {
			oidc   any
			status int
			says   string
		}{
			{map[string]any{"providerId": foreign}, http.StatusNotFound, "oidc.providerId"},
			{map[string]any{"providerId": "nosuchprovider"}, http.StatusNotFound, "oidc.providerId"},
			{map[string]any{"claims": map[string]any{}}, http.StatusBadRequest, "oidc.providerId"},
			{map[string]any{"providerId": f.provider, "claims": map[string]any{"email": "exp"}}, http.StatusBadRequest, "reserved"},
			{map[string]any{"providerId": f.provider, "claims": map[string]any{"email": "no spaces"}}, http.StatusBadRequest, "oidc.claims"},
			{map[string]any{"providerId": f.provider, "claims": map[string]any{"email": 1}}, http.StatusBadRequest, "oidc.claims"},
		}
		for _, c := range bad {
			says := testenv.CheckError(t, f.e.Do(f.admin, "PATCH", f.auth, map[string]any{"oidc": c.oidc}), c.status)
			if !strings.Contains(says, c.says) {
				t.Errorf("%v: %q does not say %q", c.oidc, says, c.says)
			}
		}
		g := f.e.GraphQL(f.admin, `mutation($o: ID!, $s: ID!, $p: ID!) { updateSitePublishingAuth(organizationId: $o, siteId: $s, input: {oidc: {providerId: $p}}) { oidc { providerId } } }`,
			map[string]any{"o": f.org, "s": f.site, "p": foreign})
		if g.Code() != "NOT_FOUND" {
			t.Fatalf("GraphQL with another organization's provider: %s %v", g.Data, g.Errors)
		}
		if got := f.e.Do(f.admin, "GET", f.auth, nil).Map(t)["oidc"].(map[string]any); got["providerId"] != f.provider {
			t.Fatalf("a refused change changed the settings: %v", got)
		}
	})
	t.Run("OKSettings", func(t *testing.T) {
		got := f.e.Do(f.admin, "GET", f.auth, nil).Map(t)
		signIn := got["oidc"].(map[string]any)
		if got["backend"] != "custom" || signIn["providerId"] != f.provider || signIn["claims"].(map[string]any)["groups"] != "teams" ||
			signIn["callbackURLs"].([]any)[0] != f.e.Server.URL+"/sites/acme/~signin/callback" {
			t.Fatalf("settings: %v", got)
		}
		g := f.e.GraphQL(f.admin, `query($o: ID!, $s: ID!) { organization(id: $o) { site(id: $s) { publishingAuth { oidc { providerId claims callbackURLs } } } } }`,
			map[string]any{"o": f.org, "s": f.site})
		if len(g.Errors) > 0 || !strings.Contains(string(g.Data), f.provider) || !strings.Contains(string(g.Data), `"groups":"teams"`) {
			t.Fatalf("GraphQL: %s %v", g.Data, g.Errors)
		}
	})
	t.Run("OKSignedInToTheSite", func(t *testing.T) {
		v := f.visitor(t)
		cookie := v.signIn("/sites/acme/grace-only")
		if !strings.Contains(cookie, "Path=/sites/acme/") {
			t.Fatalf("the cookie is not scoped to the site: %q", cookie)
		}
		if status, body, _ := v.get("/sites/acme/grace-only"); status != http.StatusOK || !strings.Contains(body, "For Grace.") {
			t.Fatalf("the page for grace after signing in: %d %s", status, body)
		}
		if status, body, _ := v.get("/sites/acme/guides"); status != http.StatusOK || !strings.Contains(body, "<h1>Guides</h1>") {
			t.Fatalf("another page: %d %s", status, body)
		}
	})
	t.Run("OKClaimsDecideAdaptiveContent", func(t *testing.T) {
		f.op.SetPerson(oidctest.Person{Subject: "lin", Email: "lin@example.com", Name: "Lin", EmailVerified: true})
		defer f.op.SetPerson(grace)
		v := f.visitor(t)
		v.signIn("/sites/acme/guides")
		if status, _, _ := v.get("/sites/acme/grace-only"); status != http.StatusNotFound {
			t.Fatalf("another reader sees grace's page: %d", status)
		}
	})
	t.Run("OKTokenClaims", func(t *testing.T) {
		v := f.visitor(t)
		v.signIn("/sites/acme/")
		claims := jwt.MapClaims{}
		if _, _, err := jwt.NewParser().ParseUnverified(siteToken(t, v, "/sites/acme/"), claims); err != nil {
			t.Fatal(err)
		}
		exp, _ := claims.GetExpirationTime()
		iat, _ := claims.GetIssuedAt()
		if claims["email"] != "grace@example.com" || claims["name"] != nil || exp == nil || iat == nil || exp.Sub(iat.Time) != 8*time.Hour {
			t.Fatalf("the site's token holds %v", claims)
		}
	})
	t.Run("ErrCookieOpensNoOtherSite", func(t *testing.T) {
		other := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites", map[string]any{"title": "Other", "spaces": []string{f.space}}))
		ctx := accounts.System(context.Background())
		f.e.Store.Client.Site.UpdateOneID(other).SetPublished(true).SetBasename("other").SetVisibility(site.VisibilityVisitorAuth).ExecX(ctx)
		v := f.visitor(t)
		v.signIn("/sites/acme/")
		token := siteToken(t, v, "/sites/acme/")
		otherURL, _ := url.Parse(f.e.Server.URL + "/sites/other/")
		v.jar.SetCookies(otherURL, []*http.Cookie{{Name: "bindery_visitor_token", Value: token, Path: "/sites/other/"}})
		if status, body, _ := v.get("/sites/other/"); status != http.StatusUnauthorized {
			t.Fatalf("acme's cookie at another site: %d %s", status, body)
		}
		for _, path := range []string{"/v1/user", "/v1/orgs/" + f.org, f.auth} {
			req, _ := http.NewRequest("GET", f.e.Server.URL+path, nil)
			req.AddCookie(&http.Cookie{Name: "bindery_visitor_token", Value: token})
			req.AddCookie(&http.Cookie{Name: "bindery_session", Value: token})
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusUnauthorized {
				t.Fatalf("the site's token at the API %s: %d", path, res.StatusCode)
			}
		}
	})
	t.Run("OKExpiredCookieSignsInAgain", func(t *testing.T) {
		key := f.e.Do(f.admin, "GET", f.auth, nil).Map(t)["privateKey"].(string)
		expired, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": time.Now().Add(-time.Minute).Unix(), "email": "grace@example.com"}).
			SignedString([]byte(key))
		v := f.visitor(t)
		acme, _ := url.Parse(f.e.Server.URL + "/sites/acme/")
		v.jar.SetCookies(acme, []*http.Cookie{{Name: "bindery_visitor_token", Value: expired, Path: "/sites/acme/"}})
		v.signIn("/sites/acme/grace-only")
		if status, _, _ := v.get("/sites/acme/grace-only"); status != http.StatusOK {
			t.Fatalf("after signing in again: %d", status)
		}
	})
	t.Run("OKSignOut", func(t *testing.T) {
		v := f.visitor(t)
		v.signIn("/sites/acme/")
		if status, body, _ := v.do("POST", "/sites/acme/~signout", "https://evil.example.org"); status != http.StatusForbidden {
			t.Fatalf("a sign-out from another origin: %d %s", status, body)
		}
		v.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		status, _, h := v.do("POST", "/sites/acme/~signout", f.e.Server.URL)
		to, _ := url.Parse(h.Get("Location"))
		if status != http.StatusSeeOther || !strings.HasPrefix(h.Get("Location"), f.op.Issuer+"/") ||
			to.Query().Get("post_logout_redirect_uri") != f.e.Server.URL+"/sites/acme/" {
			t.Fatalf("sign-out: %d to %q", status, h.Get("Location"))
		}
		if status, _, h := v.get("/sites/acme/"); status != http.StatusFound || !strings.HasPrefix(h.Get("Location"), f.op.Issuer+"/") {
			t.Fatalf("after signing out: %d to %q", status, h.Get("Location")) // the cookie is gone: sent to sign in again
		}
	})
	t.Run("OKOnTheSiteHostname", func(t *testing.T) {
		f.setSite(t, func(u *ent.SiteUpdateOne) { u.SetHostname("docs.acme.test") })
		defer f.setSite(t, func(u *ent.SiteUpdateOne) { u.ClearHostname() })
		signIn := f.e.Do(f.admin, "GET", f.auth, nil).Map(t)["oidc"].(map[string]any)
		if urls := signIn["callbackURLs"].([]any); len(urls) != 2 || urls[1] != "http://docs.acme.test/~signin/callback" {
			t.Fatalf("callback URLs: %v", urls)
		}
		server, _ := url.Parse(f.e.Server.URL)
		host := "http://docs.acme.test:" + server.Port()
		f.op.AllowRedirect(host + "/~signin/callback")
		v := f.visitor(t)
		cookie := v.signIn(host + "/grace-only")
		if !strings.Contains(cookie, "Path=/;") && !strings.HasSuffix(cookie, "Path=/") {
			t.Fatalf("the cookie on the hostname: %q", cookie)
		}
		if status, body, _ := v.get(host + "/grace-only"); status != http.StatusOK || !strings.Contains(body, "For Grace.") {
			t.Fatalf("the page on the hostname: %d %s", status, body)
		}
	})
}

// siteToken is the visitor token the browser keeps for a site path.
func siteToken(t *testing.T, v *visitor, path string) string {
	t.Helper()
	u, _ := url.Parse(v.server.String() + path)
	for _, c := range v.jar.Cookies(u) {
		if c.Name == "bindery_visitor_token" {
			return c.Value
		}
	}
	t.Fatal("no visitor token for " + path)
	return ""
}

func TestSiteSignInRefusals(t *testing.T) {
	f := newSignInFixture(t)
	callback := f.e.Server.URL + "/sites/acme/~signin/callback"
	refusals := []struct {
		name string
		run  func(t *testing.T) (int, string)
		says string
	}{
		{"ErrWrongState", func(t *testing.T) (int, string) {
			v := f.visitor(t)
			cb, _ := url.Parse(v.toProvider("/sites/acme/"))
			q := cb.Query()
			q.Set("state", "forged")
			cb.RawQuery = q.Encode()
			status, body, _ := v.get(cb.String())
			return status, body
		}, "the state is not the one"},
		{"ErrAnotherBrowser", func(t *testing.T) (int, string) {
			cb := f.visitor(t).toProvider("/sites/acme/")
			status, body, _ := f.visitor(t).get(cb)
			return status, body
		}, "under way in this browser"},
		{"ErrReplayedCode", func(t *testing.T) (int, string) {
			v := f.visitor(t)
			cb := v.toProvider("/sites/acme/")
			u, _ := url.Parse(cb)
			kept := v.jar.Cookies(u)
			if status, body, _ := v.get(cb); status != http.StatusSeeOther {
				t.Fatalf("first use of the code: %d %s", status, body)
			}
			v.jar.SetCookies(u, kept) // even with the pending sign-in back, the code is spent
			status, body, _ := v.get(cb)
			return status, body
		}, "refused the code"},
		{"ErrNonceMismatch", func(t *testing.T) (int, string) {
			v := f.visitor(t)
			cb := v.toProvider("/sites/acme/")
			f.op.Tamper(func(c map[string]any) bool { c["nonce"] = "another"; return false })
			status, body, _ := v.get(cb)
			return status, body
		}, "nonce"},
		{"ErrSignInOfAnotherSite", func(t *testing.T) (int, string) {
			other := f.created(t, f.e.Do(f.admin, "POST", "/v1/orgs/"+f.org+"/sites", map[string]any{"title": "Twin", "spaces": []string{f.space}}))
			f.e.Store.Client.Site.UpdateOneID(other).SetPublished(true).SetBasename("twin").SetVisibility(site.VisibilityVisitorAuth).
				ExecX(accounts.System(context.Background()))
			r := f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org+"/sites/"+other+"/publishing/auth", map[string]any{"oidc": map[string]any{"providerId": f.provider}})
			if r.Status != http.StatusOK {
				t.Fatalf("twin's sign-in: %d %s", r.Status, r.Body)
			}
			f.op.AllowRedirect(f.e.Server.URL + "/sites/twin/~signin/callback")
			v := f.visitor(t)
			cb, _ := url.Parse(v.toProvider("/sites/acme/"))
			twin := *cb
			twin.Path = "/sites/twin/~signin/callback"
			v.jar.SetCookies(&twin, v.jar.Cookies(cb)) // acme's pending sign-in, at twin
			status, body, h := v.get(twin.String())
			if strings.Contains(strings.Join(h.Values("Set-Cookie"), " "), "bindery_visitor_token=ey") {
				t.Fatal("a refused sign-in set a visitor token")
			}
			return status, body
		}, "under way in this browser"},
		{"ErrProviderError", func(t *testing.T) (int, string) {
			v := f.visitor(t)
			v.toProvider("/sites/acme/")
			status, body, _ := v.get(callback + "?error=access_denied&error_description=no")
			return status, body
		}, "access_denied"},
		{"ErrEmailDomain", func(t *testing.T) (int, string) {
			path := "/v1/orgs/" + f.org + "/oidc-providers/" + f.provider
			f.e.Do(f.admin, "PATCH", path, map[string]any{"emailDomains": []string{"example.org"}})
			defer f.e.Do(f.admin, "PATCH", path, map[string]any{"emailDomains": []string{}})
			v := f.visitor(t)
			status, body, _ := v.get(v.toProvider("/sites/acme/"))
			return status, body
		}, "example.com is not one this provider may sign in"},
	}
	for _, c := range refusals {
		t.Run(c.name, func(t *testing.T) {
			status, body := c.run(t)
			if status != http.StatusUnauthorized || !strings.Contains(body, c.says) || !strings.Contains(body, `href="/sites/`) {
				t.Fatalf("refusal: %d %s (want 401 saying %q)", status, body, c.says)
			}
		})
	}
	t.Run("ErrCallbackOfASiteWithoutSignIn", func(t *testing.T) {
		if status, _, _ := f.visitor(t).get("/sites/nosuchsite/~signin/callback?code=x&state=y"); status != http.StatusNotFound {
			t.Fatalf("the callback of no site: %d", status)
		}
	})
}

// TestSiteSignInProviderUnreachable: a provider that is down, or that never answers, fails the
// reader's sign-in with a page saying so, within the relying party's client timeout.
func TestSiteSignInProviderUnreachable(t *testing.T) {
	f := newSignInFixture(t)
	set := func(t *testing.T, issuer string) {
		t.Helper()
		r := f.e.Do(f.admin, "PATCH", "/v1/orgs/"+f.org+"/oidc-providers/"+f.provider, map[string]any{"issuer": issuer})
		if r.Status != http.StatusOK {
			t.Fatalf("issuer: %d %s", r.Status, r.Body)
		}
	}
	t.Run("ErrDown", func(t *testing.T) {
		down := oidctest.New(t, grace)
		down.Server.Close()
		set(t, down.Issuer)
		status, body, _ := f.visitor(t).get("/sites/acme/")
		if status != http.StatusUnauthorized || !strings.Contains(body, "discovery") {
			t.Fatalf("a provider that is down: %d %s", status, body)
		}
	})
	t.Run("ErrSilent", func(t *testing.T) {
		silent := fetchtest.Serve(t, oidctest.Addr, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
		set(t, silent.URL)
		status, body, _ := f.visitor(t).get("/sites/acme/")
		if status != http.StatusUnauthorized || !strings.Contains(body, "discovery") {
			t.Fatalf("a provider that never answers: %d %s", status, body)
		}
	})
}

// TestSiteSignInInBrowser signs in to a visitor-auth site in headless Chromium: the page asked for
// sends it to the provider and back, and it reads the page its claims show, with the site's
// cookie HttpOnly, SameSite=Lax and scoped to the site.
func TestSiteSignInInBrowser(t *testing.T) {
	f := newSignInFixture(t)
	out := testenv.RunBrowser(t, "testdata/signin.js", f.e.Server.URL+"/sites/acme/grace-only")
	for _, want := range []string{"landed: /sites/acme/grace-only", "title: Grace only", "cookie: path /sites/acme/ httpOnly true sameSite Lax", "console: 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("the browser did not see %q:\n%s", want, out)
		}
	}
}
