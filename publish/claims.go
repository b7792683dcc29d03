package publish

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Unsigned claims: a reader may say things of themselves that adaptive content reads under
// visitor.claims.unsigned (GitBook's URL parameters `visitor.<claim>=<value>`). They are kept in a
// cookie scoped to the site so that following a link keeps them. They are unsigned, so they only
// choose what to show among what the site shows anyone; conditions read only the claims the
// site's schema declares, and ignore the rest.

// claimsCookie is the cookie that keeps a reader's unsigned claims.
const claimsCookie = "bindery_visitor"

// maxUnsignedClaims bounds the claims a reader may set, and claimValueMax each value.
const (
	maxUnsignedClaims = 32
	claimValueMax     = 256
)

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
	set := false
	for key, values := range req.URL.Query() {
		name, ok := strings.CutPrefix(key, "visitor.")
		if !ok || name == "" || len(values) == 0 || len(values[0]) > claimValueMax {
			continue
		}
		unsigned[name] = claimValue(values[0])
		set = true
	}
	if len(unsigned) > maxUnsignedClaims {
		unsigned = map[string]any{}
	}
	if set {
		raw, _ := json.Marshal(unsigned)
		http.SetCookie(w, &http.Cookie{Name: claimsCookie, Value: base64.RawURLEncoding.EncodeToString(raw),
			Path: base + "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: req.TLS != nil})
	}
	return map[string]any{"unsigned": unsigned}
}

// claimValue reads a parameter as a boolean or a number when it is one, else as text.
func claimValue(s string) any {
	if b, err := strconv.ParseBool(s); err == nil && (s == "true" || s == "false") {
		return b
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return s
}
