package publish

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/binderyhq/bindery/internal/accounts"
	"github.com/binderyhq/bindery/internal/apperr"
	"github.com/binderyhq/bindery/internal/sites"
)

// Sign-in of a visitor-auth site's readers through the OpenID Connect provider its settings name
// (decisions 465–469): a reader without a valid visitor token is sent to the provider
// (startSignIn), comes back to the site's callback (finishSignIn), and gets a visitor token the
// site signed, in the site's token cookie (tokenCookie, path-scoped to the site): signed in to
// this site only, never to the API or another site. signOutPath forgets it.

// signOutPath is where in a site a reader signs out (a POST from the site's own pages).
const signOutPath = "~signout"

// signInCookie holds a reader's pending sign-in, sealed (accounts.OIDC.StartSite), from its start
// to the callback: HttpOnly, SameSite=Lax (the provider's redirect back is a top-level GET),
// limited to the site's sign-in paths.
const signInCookie = "bindery_site_signin"

// isSignInPath reports whether rest, a path inside a site, is one of its sign-in endpoints.
func isSignInPath(rest string) bool {
	rest = strings.Trim(rest, "/")
	return rest == sites.SignInCallbackPath || rest == signOutPath
}

// serveSignIn answers a sign-in endpoint of the site ref names, whose URLs start at base. It
// returns false, having answered nothing, when no published visitor-auth site with sign-in has
// that name (on a hostname, the request then goes on to the API).
func (h *Handler) serveSignIn(ctx context.Context, w http.ResponseWriter, req *http.Request, ref sites.SiteRef, base, rest string) bool {
	if strings.Trim(rest, "/") == signOutPath {
		return h.signOut(ctx, w, req, ref, base)
	}
	return h.finishSignIn(ctx, w, req, ref, base)
}

// callbackURL is the site's callback as the reader reaches the site (at base of its origin).
func (h *Handler) callbackURL(req *http.Request, base string) string {
	return h.originOf(req, base) + base + "/" + sites.SignInCallbackPath
}

// setSignInCookie sets (or, with an empty value, removes) the pending sign-in of a site.
func (h *Handler) setSignInCookie(w http.ResponseWriter, req *http.Request, base, value string) {
	c := &http.Cookie{Name: signInCookie, Value: value, Path: base + "/~signin/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: h.secure(req), MaxAge: int(accounts.OIDCRequestLifetime.Seconds())}
	if value == "" {
		c.MaxAge = -1
	}
	http.SetCookie(w, c)
}

// secure reports whether the site's cookies are for https only: when the server is reached over
// https (as its base URL says) or the request came over TLS.
func (h *Handler) secure(req *http.Request) bool {
	return req.TLS != nil || strings.HasPrefix(h.baseURL, "https://")
}

// startSignIn sends a reader without a valid token to the provider of the site's sign-in, to come
// back to the page asked for, and reports whether it answered: false when the site has no
// sign-in. A provider that cannot be discovered answers a page saying so (bounded by the
// relying party's client timeout).
func (h *Handler) startSignIn(ctx context.Context, w http.ResponseWriter, req *http.Request, ref sites.SiteRef, base string) bool {
	to, state, err := h.r.SiteSignInStart(ctx, ref, h.callbackURL(req, base), req.URL.Path)
	if apperr.IsNotFound(err) {
		return false
	}
	if err != nil {
		h.signInRefused(ctx, w, req, ref, base, err)
		return true
	}
	h.setSignInCookie(w, req, base, state)
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, req, to, http.StatusFound)
	return true
}

// finishSignIn takes the provider's redirect back: when the sign-in verifies, the reader gets the
// site's visitor token in the site's cookie and goes back to the page they asked for. The pending
// sign-in's cookie is removed either way.
func (h *Handler) finishSignIn(ctx context.Context, w http.ResponseWriter, req *http.Request, ref sites.SiteRef, base string) bool {
	q := req.URL.Query()
	cb := accounts.Callback{State: q.Get("state"), Code: q.Get("code"), Error: q.Get("error"), ErrorDescription: q.Get("error_description")}
	if c, err := req.Cookie(signInCookie); err == nil {
		cb.Sealed = c.Value
	}
	in, err := h.r.SiteSignInFinish(ctx, ref, h.callbackURL(req, base), cb)
	if apperr.IsNotFound(err) {
		return false
	}
	h.setSignInCookie(w, req, base, "")
	if err != nil {
		h.signInRefused(ctx, w, req, ref, base, err)
		return true
	}
	http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: in.Token, Path: base + "/", Expires: in.Expires, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: h.secure(req)})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, req, sitePath(base, in.ReturnTo), http.StatusSeeOther)
	return true
}

// sitePath is returnTo when it is a path of the site at base, else the site's root. (returnTo
// comes sealed from startSignIn; this keeps a reader inside the site whatever it holds.)
func sitePath(base, returnTo string) string {
	if strings.HasPrefix(returnTo, base+"/") && !strings.HasPrefix(returnTo, "//") && !strings.ContainsAny(returnTo, "\\\r\n") {
		return returnTo
	}
	return base + "/"
}

// signInRefused answers a refused or failed sign-in with a page saying why and offering to start
// again, and logs the refusal (its reason names no token, code or state).
func (h *Handler) signInRefused(ctx context.Context, w http.ResponseWriter, req *http.Request, ref sites.SiteRef, base string, err error) {
	e := apperr.As(err)
	if e == nil || e.Kind == apperr.Internal {
		h.fail(w, req, err)
		return
	}
	slog.WarnContext(ctx, "site sign-in refused", "site", ref.Name+ref.Hostname, "reason", e.Message)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(e.Kind.Status())
	_ = pages.ExecuteTemplate(w, "error.html", errorView{Status: e.Kind.Status(), Text: e.Message, Retry: base + "/"})
}

// signOut forgets the reader's sign-in to the site: a POST from a page of the site's own origin
// (no other page may sign a reader out), which removes the site's token cookie and sends the
// reader to the site's logout URL, else to its provider's end-session endpoint (coming back to
// the site), else to a page saying they signed out.
func (h *Handler) signOut(ctx context.Context, w http.ResponseWriter, req *http.Request, ref sites.SiteRef, base string) bool {
	origin := h.originOf(req, base)
	switch {
	case req.Method != http.MethodPost:
		writeJSONError(w, http.StatusMethodNotAllowed, "sign out with a POST from a page of the site")
		return true
	case !sameOrigin(req, origin):
		writeJSONError(w, http.StatusForbidden, "a sign-out must come from a page of the site (Origin header)")
		return true
	}
	to := h.r.SiteSignOutURL(ctx, ref, origin+base+"/")
	http.SetCookie(w, &http.Cookie{Name: tokenCookie, Path: base + "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: h.secure(req)})
	w.Header().Set("Cache-Control", "no-store")
	if to != "" {
		http.Redirect(w, req, to, http.StatusSeeOther)
		return true
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	_ = pages.ExecuteTemplate(w, "error.html", errorView{Status: http.StatusOK, Text: "You are signed out of this site", Retry: base + "/"})
	return true
}

// sameOrigin reports whether a request comes from a page of origin: its Origin header, or its
// Referer's origin when a browser sent no Origin.
func sameOrigin(req *http.Request, origin string) bool {
	from := req.Header.Get("Origin")
	if from == "" || from == "null" {
		ref, err := url.Parse(req.Header.Get("Referer"))
		if err != nil || ref.Host == "" {
			return false
		}
		from = ref.Scheme + "://" + ref.Host
	}
	return strings.EqualFold(from, origin)
}
