package publish

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/binderyhq/bindery/internal/sites"
)

// Unsigned claims: a reader may say things of themselves that adaptive content reads under
// visitor.claims.unsigned (GitBook's URL parameters `visitor.<claim>=<value>`). They are kept in a
// cookie scoped to the site so that following a link keeps them. They are unsigned, so they only
// choose what to show among what the site shows anyone; conditions read only the claims the
// site's schema declares, and ignore the rest.

// claimsCookie is the cookie that keeps a reader's unsigned claims.
const claimsCookie = "bindery_visitor"

// Credentials: a share link's key (`?shareKey=`, as its published URL carries it, or `?share=`)
// and a visitor token (`?jwt_token=`) are kept, once
// presented, in HttpOnly cookies scoped to the site, and checked again at every request, so a
// revoked link or an expired token stops working at the next one.
const (
	shareCookie = "bindery_share"
	tokenCookie = "bindery_visitor_token"
)

// readerAudience is what the request presents to the site at base: its credentials and unsigned
// claims, from the URL (kept in cookies) or from the cookies of earlier requests.
func readerAudience(w http.ResponseWriter, req *http.Request, base string) sites.Audience {
	return sites.Audience{
		ShareKey: kept(w, req, base, shareCookie, "shareKey", "share"),
		Token:    kept(w, req, base, tokenCookie, "jwt_token"),
		Claims:   readerClaims(w, req, base),
	}
}

// readerQuery is the part of the request's query that says who the reader is, as written and in
// order: credentials and unsigned claims.
func readerQuery(req *http.Request) string {
	return strings.Join(paramsNamed(strings.Split(req.URL.RawQuery, "&"), func(name string) bool {
		return credentialParams[name] || strings.HasPrefix(name, "visitor.")
	}), "&")
}

// kept returns the first of the URL parameters given, keeping it in the cookie, or else the
// cookie's value.
func kept(w http.ResponseWriter, req *http.Request, base, cookie string, params ...string) string {
	for _, param := range params {
		if v := req.URL.Query().Get(param); v != "" {
			setSiteCookie(w, req, base, cookie, v)
			return v
		}
	}
	if c, err := req.Cookie(cookie); err == nil {
		return c.Value
	}
	return ""
}

// setSiteCookie keeps a value for the site's pages only; with no w (an agent's request,
// mcpAudience), it keeps nothing.
func setSiteCookie(w http.ResponseWriter, req *http.Request, base, name, value string) {
	if w == nil {
		return
	}
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: base + "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: req.TLS != nil})
}

// readerClaims returns the reader's claims (the unsigned ones under "unsigned") from the cookie,
// overridden by the request's visitor.* parameters; when the parameters set any, it keeps the
// result in the cookie for the site's path.
func readerClaims(w http.ResponseWriter, req *http.Request, base string) map[string]any {
	unsigned := map[string]any{}
	if c, err := req.Cookie(claimsCookie); err == nil {
		if raw, err := base64.RawURLEncoding.DecodeString(c.Value); err == nil {
			_ = json.Unmarshal(raw, &unsigned)
		}
	}
	set := sites.SetQueryClaims(unsigned, req.URL.Query())
	if len(unsigned) > sites.MaxUnsignedClaims {
		unsigned = map[string]any{}
	}
	if set {
		raw, _ := json.Marshal(unsigned)
		setSiteCookie(w, req, base, claimsCookie, base64.RawURLEncoding.EncodeToString(raw))
	}
	return map[string]any{"unsigned": unsigned}
}
