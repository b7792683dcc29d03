package rest

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
)

// SessionCookie is the name of the browser session cookie: HttpOnly, SameSite=Lax, Secure when
// the server is reached over https. It holds the session's secret; the database keeps its hash.
const SessionCookie = "bindery_session"

// trustedOrigins are the origins whose pages may write with a session cookie and receive a person
// after sign-in: this server's own, and the origins listed in --cors-origins (never "*").
type trustedOrigins map[string]bool

func newTrustedOrigins(baseURL string, cors []string) trustedOrigins {
	t := trustedOrigins{}
	for _, o := range append([]string{baseURL}, cors...) {
		if u, err := url.Parse(strings.TrimSpace(o)); err == nil && u.Host != "" {
			t[originOf(u)] = true
		}
	}
	return t
}

// originOf is the origin of an absolute URL: scheme://host[:port], lower-cased.
func originOf(u *url.URL) string { return strings.ToLower(u.Scheme + "://" + u.Host) }

// allows reports whether a request comes from a page of a trusted origin: its Origin header, or
// its Referer's origin when a browser sent no Origin. A request with neither is refused.
func (t trustedOrigins) allows(r *http.Request) bool {
	from := r.Header.Get("Origin")
	if from == "" || from == "null" {
		ref, err := url.Parse(r.Header.Get("Referer"))
		if err != nil || ref.Host == "" {
			return false
		}
		return t[originOf(ref)]
	}
	u, err := url.Parse(from)
	return err == nil && u.Host != "" && u.Path == "" && t[originOf(u)]
}

// returnURL is where a sign-in sends the person back to: relayState (the parameter field) when
// it is a path of this server or an absolute http(s) URL of a trusted origin, this server's root
// when it is empty. Returns INVALID naming the field otherwise.
func (a *api) returnURL(field, relayState string) (string, error) {
	if relayState == "" {
		return a.url("/"), nil
	}
	bad := apperr.Invalidf("%s: must be a path of this server or a URL of an allowed origin", field)
	if len(relayState) > 2048 || strings.ContainsAny(relayState, "\\\x00\r\n\t") {
		return "", bad
	}
	if strings.HasPrefix(relayState, "/") && !strings.HasPrefix(relayState, "//") {
		relayState = a.url(relayState)
	}
	u, err := url.Parse(relayState)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil || !a.origins[originOf(u)] {
		return "", bad
	}
	return u.String(), nil
}

// startSSO sends the browser to the provider with a new sign-in request; RelayState says where
// to come back to after signing in.
func (a *api) startSSO(w http.ResponseWriter, r *http.Request) {
	target, err := a.returnURL("RelayState", r.URL.Query().Get("RelayState"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	to, err := a.r.SSO().Start(r.Context(), chi.URLParam(r, "providerId"), target)
	if err != nil {
		writeError(w, r, err)
		return
	}
	http.Redirect(w, r, to, http.StatusFound)
}

// consumeSSO takes the identity provider's posted answer (HTTP-POST binding): when it verifies, the
// person gets a session cookie and is sent to RelayState. Any failure answers its error and sets
// no cookie.
func (a *api) consumeSSO(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeError(w, r, apperr.Invalidf("the body must be a form (application/x-www-form-urlencoded)"))
		return
	}
	if r.PostForm.Get("SAMLart") != "" {
		writeError(w, r, apperr.Invalidf("SAMLart: the artifact binding is not accepted: have the identity provider post its response"))
		return
	}
	target, err := a.returnURL("RelayState", r.PostForm.Get("RelayState"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	in, err := a.r.SSO().Finish(r.Context(), chi.URLParam(r, "providerId"), r.PostForm.Get("SAMLResponse"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	a.setSessionCookie(w, in.Secret, in.ExpiresAt)
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// ssoMetadata serves this server's SAML metadata for a provider.
func (a *api) ssoMetadata(w http.ResponseWriter, r *http.Request) {
	doc, err := a.r.SSO().Metadata(r.Context(), chi.URLParam(r, "providerId"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	_, _ = w.Write(doc)
}

// logout ends the browser session of the cookie and removes the cookie. Like every write with a
// session cookie, it must come from a trusted origin. A session begun by an OpenID Connect
// provider that offers RP-initiated logout is sent there (303), to come back to this server's
// root; otherwise the answer is 204.
func (a *api) logout(w http.ResponseWriter, r *http.Request) {
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if !a.origins.allows(r) {
		writeError(w, r, errCrossOrigin)
		return
	}
	to, err := a.r.OIDC().SignOut(r.Context(), c.Value, a.url("/"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	a.setSessionCookie(w, "", time.Time{})
	if to != "" {
		http.Redirect(w, r, to, http.StatusSeeOther)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// oidcCookie holds the sealed state of a sign-in through an OpenID Connect provider, from its
// start to the callback (accounts.OIDC.Start): HttpOnly, SameSite=Lax (the provider's redirect
// back is a top-level GET, which carries it), limited to the provider's callback path.
const oidcCookie = "bindery_oidc"

// setOIDCCookie sets (or, with an empty value, removes) the sign-in state cookie of a provider.
func (a *api) setOIDCCookie(w http.ResponseWriter, providerID, value string) {
	c := &http.Cookie{Name: oidcCookie, Value: value, Path: "/sso/oidc/" + providerID + "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: strings.HasPrefix(a.baseURL, "https://"), MaxAge: int(accounts.OIDCRequestLifetime.Seconds())}
	if value == "" {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// startOIDC sends the browser to the OpenID Provider with a new sign-in (code flow with PKCE);
// returnTo says where to come back to after signing in.
func (a *api) startOIDC(w http.ResponseWriter, r *http.Request) {
	target, err := a.returnURL("returnTo", r.URL.Query().Get("returnTo"))
	if err != nil {
		writeError(w, r, err)
		return
	}
	providerID := chi.URLParam(r, "providerId")
	to, state, err := a.r.OIDC().Start(r.Context(), providerID, target)
	if err != nil {
		writeError(w, r, err)
		return
	}
	a.setOIDCCookie(w, providerID, state)
	http.Redirect(w, r, to, http.StatusFound)
}

// finishOIDC takes the provider's redirect back with a code: when the sign-in verifies, the person
// gets a session cookie and is sent where the sign-in said. The state cookie is removed either way.
func (a *api) finishOIDC(w http.ResponseWriter, r *http.Request) {
	providerID := chi.URLParam(r, "providerId")
	q := r.URL.Query()
	cb := accounts.Callback{State: q.Get("state"), Code: q.Get("code"), Error: q.Get("error"), ErrorDescription: q.Get("error_description")}
	if c, err := r.Cookie(oidcCookie); err == nil {
		cb.Sealed = c.Value
	}
	a.setOIDCCookie(w, providerID, "")
	in, target, err := a.r.OIDC().Finish(r.Context(), providerID, cb)
	if err != nil {
		writeError(w, r, err)
		return
	}
	a.setSessionCookie(w, in.Secret, in.ExpiresAt)
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// errCrossOrigin refuses a write authenticated by a session cookie from a page of another origin.
var errCrossOrigin = apperr.Forbiddenf("a write with a session cookie must come from a page of this server or of an allowed origin (Origin header); API clients send Authorization: Bearer <token>")

// setSessionCookie sets the session cookie until expires, or removes it when secret is empty.
func (a *api) setSessionCookie(w http.ResponseWriter, secret string, expires time.Time) {
	c := &http.Cookie{Name: SessionCookie, Value: secret, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: strings.HasPrefix(a.baseURL, "https://")}
	if secret == "" {
		c.MaxAge = -1
	} else {
		c.Expires = expires
	}
	http.SetCookie(w, c)
}
